import CAsyncSocketShims
import Foundation

/// The socket options and interface lookups both UDP faces share: option setting, the
/// address structures a multicast request takes, and the interfaces a description names.
enum UdpSocketOptions {
    /// Sets option `name` at `level` of `fd` to `value`; throws the POSIX error when refused.
    static func set<T>(_ fd: Int32, _ level: Int32, _ name: Int32, _ value: inout T) throws {
        let rc = withUnsafeBytes(of: &value) { setsockopt(fd, level, name, $0.baseAddress, socklen_t($0.count)) }
        guard rc == 0 else {
            throw SystemError.posix(ask_errno(), "setsockopt")
        }
    }

    /// Turns `UDP_GRO` on or off on `fd`; throws the POSIX error when refused.
    static func setReceiveCoalescing(_ fd: Int32, _ enabled: Bool) throws {
        guard ask_set_receive_coalescing(fd, enabled ? 1 : 0) == 0 else {
            throw SystemError.posix(ask_errno(), "setsockopt")
        }
    }

    /// Joins or leaves `group` on `fd` (`IP_ADD/DROP_MEMBERSHIP` with the interface's IPv4 address,
    /// `IPV6_ADD/DROP_MEMBERSHIP` at `IPPROTO_IPV6` with the interface's index; 0 and `INADDR_ANY`:
    /// the system chooses). Throws the POSIX error when refused.
    static func changeMembership(
        _ fd: Int32, joining: Bool, group: SocketAddress, ipv4Interface: in_addr?, ipv6Interface: UInt32
    ) throws {
        if group.isIPv4 {
            var request = ip_mreq()
            request.imr_multiaddr = ipv4Address(of: group)
            request.imr_interface = ipv4Interface ?? in_addr(s_addr: INADDR_ANY)
            try set(fd, Int32(IPPROTO_IP), joining ? IP_ADD_MEMBERSHIP : IP_DROP_MEMBERSHIP, &request)
        } else {
            var request = ipv6_mreq()
            request.ipv6mr_multiaddr = ipv6Address(of: group)
            request.ipv6mr_interface = ipv6Interface
            try set(fd, Int32(IPPROTO_IPV6), joining ? IPV6_ADD_MEMBERSHIP : IPV6_DROP_MEMBERSHIP, &request)
        }
    }

    static func ipv4Address(of address: SocketAddress) -> in_addr {
        address.withSockaddr { pointer, _ in
            pointer.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { $0.pointee.sin_addr }
        }
    }

    static func ipv6Address(of address: SocketAddress) -> in6_addr {
        address.withSockaddr { pointer, _ in
            pointer.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { $0.pointee.sin6_addr }
        }
    }

    /// The index of the interface that has `address`, or `nil`.
    static func interfaceIndex(of address: SocketAddress) -> UInt32? {
        interfaces().first { $0.address.family == address.family && $0.address.host == address.host }?.index
    }

    /// An interface's address, as GCDAsyncUdpSocket names interfaces: `nil` for any; "localhost" or
    /// "loopback" for the loopback addresses; an interface's name ("lo", "eth0") for its first
    /// address of each family; a numeric address that a local interface has. Each address carries
    /// `port`; `nil` when `description` names nothing this machine has.
    static func interfaceAddresses(
        _ description: String?, port: UInt16
    ) -> (v4: SocketAddress?, v6: SocketAddress?, index: UInt32)? {
        guard let description, !description.isEmpty else {
            return (.ipv4(loopback: false, port: port), .ipv6(loopback: false, port: port), 0)
        }
        if description == "localhost" || description == "loopback" {
            let index = interfaces().first { $0.address.host == "127.0.0.1" }?.index ?? 0
            return (.ipv4(loopback: true, port: port), .ipv6(loopback: true, port: port), index)
        }
        let found = interfaces()
        let matches: [LocalInterface]
        if let numeric = SocketAddress.numeric(description, port: 0) {
            matches = found.filter { $0.address.family == numeric.family && $0.address.host == numeric.host }
        } else {
            matches = found.filter { $0.name == description }
        }
        guard let first = matches.first else { return nil }
        func withPort(_ address: SocketAddress?) -> SocketAddress? {
            guard var address else { return nil }
            address.port = port
            return address
        }
        return (
            withPort(matches.first(where: { $0.address.isIPv4 })?.address),
            withPort(matches.first(where: { $0.address.isIPv6 })?.address), first.index
        )
    }

    /// One address of one of this machine's interfaces.
    struct LocalInterface {
        var name: String
        var index: UInt32
        var address: SocketAddress
    }

    /// The IPv4 and IPv6 addresses of this machine's interfaces (``NetworkInterface/all()``), in its
    /// order; none when they cannot be read.
    static func interfaces() -> [LocalInterface] {
        ((try? NetworkInterface.all()) ?? []).compactMap { interface in
            SocketAddress(data: interface.address).map {
                LocalInterface(name: interface.name, index: interface.index, address: $0)
            }
        }
    }
}
