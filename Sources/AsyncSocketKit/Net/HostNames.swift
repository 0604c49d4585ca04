// CLibevent as well, for SOCK_STREAM (see SocketOps.swift).
import CLibevent
import Foundation

/// The host-name rules every socket shares: what makes a name unusable before any lookup, and which
/// local addresses an interface description stands for.
enum HostNames {
    /// Why `host` cannot be looked up (empty, a NUL byte, longer than DNS allows), or `nil`.
    static func invalidReason(_ host: String) -> String? {
        if host.isEmpty { return "the host name is empty" }
        if host.utf8.contains(0) { return "the host name contains a NUL byte" }
        if host.utf8.count > 253 { return "the host name is longer than 253 bytes" }
        return nil
    }

    /// The IPv4 and IPv6 addresses `interface` stands for, as the run-loop classes read it: `nil` or ""
    /// every address of both families, "localhost" or "loopback" both loopbacks, a numeric address, or a
    /// name looked up now (`getaddrinfo` with `AI_PASSIVE`). Throws a `kCFStreamErrorDomainNetDB`
    /// error for a name that is invalid or not found, and ``AsyncSocketUsageError`` (naming
    /// `operation`) for one with no IPv4 or IPv6 address.
    static func localAddresses(
        _ interface: String?, port: UInt16, operation: String
    ) throws -> (SocketAddress?, SocketAddress?) {
        guard let interface, !interface.isEmpty else {
            return (.ipv4(loopback: false, port: port), .ipv6(loopback: false, port: port))
        }
        if interface == "localhost" || interface == "loopback" {
            return (.ipv4(loopback: true, port: port), .ipv6(loopback: true, port: port))
        }
        if let reason = invalidReason(interface) {
            throw SystemError.netDB(EAI_NONAME, message: "Invalid interface: \(reason)")
        }
        if let numeric = SocketAddress.numeric(interface, port: port) {
            return numeric.isIPv4 ? (numeric, nil) : (nil, numeric)
        }
        var hints = addrinfo()
        hints.ai_flags = AI_PASSIVE
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var list: UnsafeMutablePointer<addrinfo>?
        let code = getaddrinfo(interface, String(port), &hints, &list)
        guard code == 0 else {
            throw SystemError.netDB(code, message: String(cString: gai_strerror(code)))
        }
        defer { freeaddrinfo(list) }
        var address4: SocketAddress?
        var address6: SocketAddress?
        var node = list
        while let current = node {
            if let raw = current.pointee.ai_addr {
                let address = SocketAddress(pointer: raw, length: current.pointee.ai_addrlen)
                if address.isIPv4 && address4 == nil { address4 = address }
                if address.isIPv6 && address6 == nil { address6 = address }
            }
            node = current.pointee.ai_next
        }
        guard address4 != nil || address6 != nil else {
            throw AsyncSocketUsageError("\(operation): \(interface) has no usable IPv4 or IPv6 address")
        }
        return (address4, address6)
    }
}
