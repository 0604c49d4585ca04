import Foundation

// An IPv4 or IPv6 address is kept inline in 28 bytes (a `sockaddr_in` fits in a `sockaddr_in6`);
// any other family (Unix-domain) keeps its bytes in a `Data`. A `sockaddr_storage` inline would
// make every value 132 bytes, and sockets keep addresses for their whole life
// (Benchmarks/IDLE-MEMORY.md).

/// An IPv4, IPv6 or Unix-domain socket address (a `sockaddr` with its length).
package struct SocketAddress: Equatable, Sendable, CustomStringConvertible {
    private enum Bytes: Sendable {
        /// `AF_INET` or `AF_INET6`, zero-filled past `length`.
        case inet(sockaddr_in6)
        case other(Data)
    }

    private var bytes = Bytes.inet(sockaddr_in6())
    private(set) var length: socklen_t = 0

    package init() {}

    /// An address from `sockaddr` bytes (as in the original's `NSData` addresses); `nil` when the
    /// bytes are too short for the family they name.
    package init?(data: Data) {
        guard data.count >= MemoryLayout<sa_family_t>.size, data.count <= MemoryLayout<sockaddr_storage>.size
        else { return nil }
        let family = data.withUnsafeBytes { Int32($0.loadUnaligned(as: sa_family_t.self)) }
        switch family {
        case AF_INET: guard data.count >= MemoryLayout<sockaddr_in>.size else { return nil }
        case AF_INET6: guard data.count >= MemoryLayout<sockaddr_in6>.size else { return nil }
        default: break
        }
        self = data.withUnsafeBytes { raw in
            SocketAddress(
                pointer: raw.baseAddress!.assumingMemoryBound(to: sockaddr.self), length: socklen_t(raw.count))
        }
    }

    /// An address from a `sockaddr` pointer and length.
    package init(pointer: UnsafePointer<sockaddr>, length: socklen_t) {
        var count = min(Int(length), MemoryLayout<sockaddr_storage>.size)
        let family = count >= MemoryLayout<sa_family_t>.size ? Int32(pointer.pointee.sa_family) : 0
        // Bytes past a sockaddr_in or sockaddr_in6 are padding: an address is kept at its family's size.
        if family == AF_INET {
            count = min(count, MemoryLayout<sockaddr_in>.size)
        } else if family == AF_INET6 {
            count = min(count, MemoryLayout<sockaddr_in6>.size)
        }
        let source = UnsafeRawBufferPointer(start: pointer, count: count)
        if family == AF_INET || family == AF_INET6 {
            var inet = sockaddr_in6()
            withUnsafeMutableBytes(of: &inet) { $0.copyMemory(from: source) }
            bytes = .inet(inet)
        } else {
            bytes = .other(Data(source))
        }
        self.length = socklen_t(count)
    }

    /// Calls `body` with the address's bytes (`length` of them).
    private func withBytes<T>(_ body: (UnsafeRawBufferPointer) throws -> T) rethrows -> T {
        switch bytes {
        case .inet(var inet):
            return try withUnsafeBytes(of: &inet) { try body(UnsafeRawBufferPointer(rebasing: $0.prefix(Int(length)))) }
        case .other(let data):
            return try data.withUnsafeBytes { try body($0) }
        }
    }

    /// The IPv4 wildcard or loopback address with `port`.
    package static func ipv4(loopback: Bool, port: UInt16) -> SocketAddress {
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
    package static func ipv6(loopback: Bool, port: UInt16) -> SocketAddress {
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
        // One C string for both tries, made without an allocation (the implicit conversion of a
        // short string allocates one per call).
        host.withCString { text in
            var v4 = in_addr()
            if inet_pton(AF_INET, text, &v4) == 1 {
                var address = SocketAddress.ipv4(loopback: false, port: port)
                address.withIPv4 { $0.sin_addr = v4 }
                return address
            }
            var v6 = in6_addr()
            if inet_pton(AF_INET6, text, &v6) == 1 {
                var address = SocketAddress.ipv6(loopback: false, port: port)
                address.withIPv6 { $0.sin6_addr = v6 }
                return address
            }
            return nil
        }
    }

    /// A Unix-domain address for `path`, or `nil` when the path does not fit `sun_path`.
    package static func unix(path: String) -> SocketAddress? {
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

    package var family: Int32 {
        withBytes { $0.count >= MemoryLayout<sa_family_t>.size ? Int32($0.loadUnaligned(as: sa_family_t.self)) : 0 }
    }
    package var isIPv4: Bool { family == AF_INET }
    package var isIPv6: Bool { family == AF_INET6 }
    package var isIP: Bool { isIPv4 || isIPv6 }

    /// The port in host order (0 for other families).
    package var port: UInt16 {
        get {
            guard isIP else { return 0 }
            let offset = MemoryLayout<sockaddr_in>.offset(of: \.sin_port)!  // sin6_port's too
            return withBytes {
                $0.count >= offset + 2
                    ? UInt16(bigEndian: $0.loadUnaligned(fromByteOffset: offset, as: UInt16.self)) : 0
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
        switch family {
        case AF_INET:
            let offset = MemoryLayout<sockaddr_in>.offset(of: \.sin_addr)!
            guard var address = load(in_addr.self, at: offset) else { return nil }
            return withUnsafeBytes(of: &address) { Self.numericText(AF_INET, $0.baseAddress!) }
        case AF_INET6:
            let offset = MemoryLayout<sockaddr_in6>.offset(of: \.sin6_addr)!
            guard var address = load(in6_addr.self, at: offset) else { return nil }
            return withUnsafeBytes(of: &address) { Self.numericText(AF_INET6, $0.baseAddress!) }
        case AF_UNIX:
            return unixPath
        default:
            return nil
        }
    }

    /// `inet_ntop`'s text for an address, through a buffer on the stack (a datagram socket asks once
    /// per datagram).
    private static func numericText(_ family: Int32, _ address: UnsafeRawPointer) -> String? {
        withUnsafeTemporaryAllocation(of: CChar.self, capacity: Int(INET6_ADDRSTRLEN) + 1) { buffer in
            guard inet_ntop(family, address, buffer.baseAddress, socklen_t(buffer.count)) != nil else { return nil }
            return String(cString: buffer.baseAddress!)
        }
    }

    /// The `T` at byte `offset`, when the address is long enough to hold it.
    private func load<T>(_: T.Type, at offset: Int) -> T? {
        withBytes {
            $0.count >= offset + MemoryLayout<T>.size ? $0.loadUnaligned(fromByteOffset: offset, as: T.self) : nil
        }
    }

    /// The path of a Unix-domain address.
    package var unixPath: String? {
        guard family == AF_UNIX else { return nil }
        let pathOffset = MemoryLayout<sockaddr_un>.offset(of: \.sun_path)!
        return withBytes { raw in
            String(decoding: raw.dropFirst(pathOffset).prefix { $0 != 0 }, as: UTF8.self)
        }
    }

    /// The `sockaddr` bytes.
    package var data: Data {
        withBytes { Data($0) }
    }

    package var description: String {
        guard let host else { return "<family \(family)>" }
        return isIPv6 ? "[\(host)]:\(port)" : isIPv4 ? "\(host):\(port)" : host
    }

    /// Calls `body` with the address as a `sockaddr` pointer and its length.
    package func withSockaddr<T>(_ body: (UnsafePointer<sockaddr>, socklen_t) throws -> T) rethrows -> T {
        switch bytes {
        case .inet(var inet):
            return try withUnsafePointer(to: &inet) {
                try $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { try body($0, length) }
            }
        case .other(let data):
            var storage = sockaddr_storage()
            withUnsafeMutableBytes(of: &storage) { raw in data.withUnsafeBytes { raw.copyMemory(from: $0) } }
            return try withUnsafePointer(to: &storage) {
                try $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { try body($0, length) }
            }
        }
    }

    private mutating func withIPv4(_ body: (inout sockaddr_in) -> Void) {
        guard case .inet(var inet) = bytes else { return }
        withUnsafeMutableBytes(of: &inet) { raw in
            var address = raw.load(as: sockaddr_in.self)
            body(&address)
            raw.storeBytes(of: address, as: sockaddr_in.self)
        }
        bytes = .inet(inet)
    }

    private mutating func withIPv6(_ body: (inout sockaddr_in6) -> Void) {
        guard case .inet(var inet) = bytes else { return }
        body(&inet)
        bytes = .inet(inet)
    }

    /// Equal when the bytes are (compared in place: a connected socket compares every datagram's source).
    package static func == (a: SocketAddress, b: SocketAddress) -> Bool {
        a.length == b.length && a.withBytes { first in b.withBytes { second in first.elementsEqual(second) } }
    }
}
