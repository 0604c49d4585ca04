import Foundation

/// An IPv4, IPv6 or Unix-domain socket address (a `sockaddr` with its length).
package struct SocketAddress: Equatable, Sendable, CustomStringConvertible {
    private(set) var storage = sockaddr_storage()
    private(set) var length: socklen_t = 0

    init() {}

    /// An address from `sockaddr` bytes (as in the original's `NSData` addresses); `nil` when the
    /// bytes are too short for the family they name.
    init?(data: Data) {
        guard data.count >= MemoryLayout<sa_family_t>.size, data.count <= MemoryLayout<sockaddr_storage>.size
        else { return nil }
        withUnsafeMutableBytes(of: &storage) { raw in
            data.withUnsafeBytes { raw.copyMemory(from: $0) }
        }
        length = socklen_t(data.count)
        switch Int32(storage.ss_family) {
        case AF_INET: guard data.count >= MemoryLayout<sockaddr_in>.size else { return nil }
        case AF_INET6: guard data.count >= MemoryLayout<sockaddr_in6>.size else { return nil }
        default: break
        }
    }

    /// An address from a `sockaddr` pointer and length.
    init(pointer: UnsafePointer<sockaddr>, length: socklen_t) {
        let count = min(Int(length), MemoryLayout<sockaddr_storage>.size)
        withUnsafeMutableBytes(of: &storage) { raw in
            raw.copyMemory(from: UnsafeRawBufferPointer(start: pointer, count: count))
        }
        self.length = socklen_t(count)
    }

    /// The IPv4 wildcard or loopback address with `port`.
    static func ipv4(loopback: Bool, port: UInt16) -> SocketAddress {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = (loopback ? INADDR_LOOPBACK : INADDR_ANY).bigEndian
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                SocketAddress(pointer: $0, length: socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
    }

    /// The IPv6 wildcard or loopback address with `port`.
    static func ipv6(loopback: Bool, port: UInt16) -> SocketAddress {
        var address = sockaddr_in6()
        address.sin6_family = sa_family_t(AF_INET6)
        address.sin6_port = port.bigEndian
        address.sin6_addr = loopback ? in6addr_loopback : in6addr_any
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                SocketAddress(pointer: $0, length: socklen_t(MemoryLayout<sockaddr_in6>.size))
            }
        }
    }

    /// A numeric IPv4 or IPv6 literal with `port`, or `nil` when `host` is not one.
    package static func numeric(_ host: String, port: UInt16) -> SocketAddress? {
        var v4 = in_addr()
        if inet_pton(AF_INET, host, &v4) == 1 {
            var address = SocketAddress.ipv4(loopback: false, port: port)
            address.withIPv4 { $0.sin_addr = v4 }
            return address
        }
        var v6 = in6_addr()
        if inet_pton(AF_INET6, host, &v6) == 1 {
            var address = SocketAddress.ipv6(loopback: false, port: port)
            address.withIPv6 { $0.sin6_addr = v6 }
            return address
        }
        return nil
    }

    /// A Unix-domain address for `path`, or `nil` when the path does not fit `sun_path`.
    static func unix(path: String) -> SocketAddress? {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        let capacity = MemoryLayout.size(ofValue: address.sun_path)
        guard !bytes.isEmpty, bytes.count < capacity, !bytes.contains(0) else { return nil }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            raw.copyBytes(from: bytes)
        }
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                SocketAddress(pointer: $0, length: socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
    }

    var family: Int32 { Int32(storage.ss_family) }
    package var isIPv4: Bool { family == AF_INET }
    package var isIPv6: Bool { family == AF_INET6 }
    var isIP: Bool { isIPv4 || isIPv6 }

    /// The port in host order (0 for other families).
    package var port: UInt16 {
        get {
            var storage = storage
            switch family {
            case AF_INET:
                return withUnsafeBytes(of: &storage) { UInt16(bigEndian: $0.load(as: sockaddr_in.self).sin_port) }
            case AF_INET6:
                return withUnsafeBytes(of: &storage) { UInt16(bigEndian: $0.load(as: sockaddr_in6.self).sin6_port) }
            default: return 0
            }
        }
        set {
            switch family {
            case AF_INET: withIPv4 { $0.sin_port = newValue.bigEndian }
            case AF_INET6: withIPv6 { $0.sin6_port = newValue.bigEndian }
            default: break
            }
        }
    }

    /// The numeric host (`inet_ntop`), or the path of a Unix-domain address.
    package var host: String? {
        var storage = storage
        var buffer = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN) + 1)
        switch family {
        case AF_INET:
            var address = withUnsafeBytes(of: &storage) { $0.load(as: sockaddr_in.self).sin_addr }
            guard inet_ntop(AF_INET, &address, &buffer, socklen_t(buffer.count)) != nil else { return nil }
        case AF_INET6:
            var address = withUnsafeBytes(of: &storage) { $0.load(as: sockaddr_in6.self).sin6_addr }
            guard inet_ntop(AF_INET6, &address, &buffer, socklen_t(buffer.count)) != nil else { return nil }
        case AF_UNIX:
            return unixPath
        default:
            return nil
        }
        return buffer.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
    }

    /// The path of a Unix-domain address.
    var unixPath: String? {
        guard family == AF_UNIX else { return nil }
        var storage = storage
        return withUnsafeBytes(of: &storage) { raw in
            let path = raw.load(as: sockaddr_un.self).sun_path
            return withUnsafeBytes(of: path) { bytes in
                String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
            }
        }
    }

    /// The `sockaddr` bytes.
    var data: Data {
        var storage = storage
        return withUnsafeBytes(of: &storage) { Data($0.prefix(Int(length))) }
    }

    package var description: String {
        guard let host else { return "<family \(family)>" }
        return isIPv6 ? "[\(host)]:\(port)" : isIPv4 ? "\(host):\(port)" : host
    }

    /// Calls `body` with the address as a `sockaddr` pointer and its length.
    func withSockaddr<T>(_ body: (UnsafePointer<sockaddr>, socklen_t) throws -> T) rethrows -> T {
        var storage = storage
        return try withUnsafePointer(to: &storage) {
            try $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { try body($0, length) }
        }
    }

    private mutating func withIPv4(_ body: (inout sockaddr_in) -> Void) {
        withUnsafeMutableBytes(of: &storage) { raw in
            var address = raw.load(as: sockaddr_in.self)
            body(&address)
            raw.storeBytes(of: address, as: sockaddr_in.self)
        }
    }

    private mutating func withIPv6(_ body: (inout sockaddr_in6) -> Void) {
        withUnsafeMutableBytes(of: &storage) { raw in
            var address = raw.load(as: sockaddr_in6.self)
            body(&address)
            raw.storeBytes(of: address, as: sockaddr_in6.self)
        }
    }

    package static func == (a: SocketAddress, b: SocketAddress) -> Bool {
        a.data == b.data
    }
}
