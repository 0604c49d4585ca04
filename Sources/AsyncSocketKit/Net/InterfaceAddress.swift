import Foundation

/// GCDAsyncSocket's interface descriptions: `nil` or "" (any address), "localhost"/"loopback", an
/// interface name ("eth0") or an address, each with an optional ":port" that applies when the port
/// argument is 0. Unlike GCD, a bare IPv6 literal works too (GCD split it at its first colon).
enum InterfaceAddress {
    /// The IPv4 and IPv6 addresses (with port) for `description`; both `nil` when it names nothing.
    static func resolve(_ description: String?, port: UInt16) throws -> (SocketAddress?, SocketAddress?) {
        guard let description, !description.isEmpty else {
            return (.ipv4(loopback: false, port: port), .ipv6(loopback: false, port: port))
        }
        if let literal = SocketAddress.numeric(description, port: port) {
            return literal.isIPv4 ? (literal, nil) : (nil, literal)
        }
        var name = description
        var port = port
        if let colon = description.firstIndex(of: ":") {
            name = String(description[..<colon])
            if port == 0, let given = UInt16(description[description.index(after: colon)...]), given > 0 {
                port = given
            }
        }
        if name.isEmpty {
            return (.ipv4(loopback: false, port: port), .ipv6(loopback: false, port: port))
        }
        if name == "localhost" || name == "loopback" {
            return (.ipv4(loopback: true, port: port), .ipv6(loopback: true, port: port))
        }
        if let literal = SocketAddress.numeric(name, port: port) {
            return literal.isIPv4 ? (literal, nil) : (nil, literal)
        }
        var list: UnsafeMutablePointer<ifaddrs>?
        guard getifaddrs(&list) == 0 else { return (nil, nil) }
        defer { freeifaddrs(list) }
        var v4: SocketAddress?
        var v6: SocketAddress?
        var node = list
        while let current = node {
            defer { node = current.pointee.ifa_next }
            guard let raw = current.pointee.ifa_addr, String(cString: current.pointee.ifa_name) == name else {
                continue
            }
            let family = Int32(raw.pointee.sa_family)
            let length = socklen_t(family == AF_INET ? MemoryLayout<sockaddr_in>.size : MemoryLayout<sockaddr_in6>.size)
            guard family == AF_INET || family == AF_INET6 else { continue }
            var address = SocketAddress(pointer: raw, length: length)
            address.port = port
            if family == AF_INET && v4 == nil { v4 = address }
            if family == AF_INET6 && v6 == nil { v6 = address }
        }
        return (v4, v6)
    }
}
