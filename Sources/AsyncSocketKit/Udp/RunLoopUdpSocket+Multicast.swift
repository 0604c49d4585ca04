import CAsyncSocketShims
import Foundation

// Multicast group membership. The original joined IPv4 groups only correctly (its IPv6 join used
// the IPv4 option level and interface 0) and could not leave a group; here both families join and
// leave with their own options (IP_ADD/DROP_MEMBERSHIP, IPV6_ADD/DROP_MEMBERSHIP at IPPROTO_IPV6 with
// the interface's index). A join settles the family: the other family's socket closes. The sending
// side's options (outgoing interface, time to live, loopback) are typed here too; the original had
// none of them.
extension RunLoopUdpSocket {
    /// Joins `group` on the interface the system chooses (`joinMulticastGroup:error:`).
    public func joinMulticastGroup(_ group: String) throws {
        checkThread("joinMulticastGroup(_:)")
        try membership(joining: true, group, interface: nil)
    }

    /// Joins `group` on the interface with the local address `interface` (`nil`: the system
    /// chooses; `joinMulticastGroup:withAddress:error:`). The socket must be bound and not connected
    /// (``AsyncSocketUsageError`` otherwise). Throws ``AsyncUdpSocketError`` `.badParameter` when the
    /// group and the interface address are of different families, match no open socket, or no
    /// interface has that address, a
    /// `kCFStreamErrorDomainNetDB` error when the group's name is not found, and the POSIX error when
    /// the system refuses the membership.
    public func joinMulticastGroup(_ group: String, withAddress interface: String?) throws {
        checkThread("joinMulticastGroup(_:withAddress:)")
        try membership(joining: true, group, interface: interface)
    }

    /// Leaves `group` (not in the original); throws as ``joinMulticastGroup(_:withAddress:)``.
    public func leaveMulticastGroup(_ group: String) throws {
        checkThread("leaveMulticastGroup(_:)")
        try membership(joining: false, group, interface: nil)
    }

    /// Leaves `group` on the interface with the local address `interface` (not in the original).
    public func leaveMulticastGroup(_ group: String, withAddress interface: String?) throws {
        checkThread("leaveMulticastGroup(_:withAddress:)")
        try membership(joining: false, group, interface: interface)
    }

    /// Sends multicast datagrams out of the interface with the local address `interface`
    /// (`IP_MULTICAST_IF` for an IPv4 address, `IPV6_MULTICAST_IF` for an IPv6 one; not in the
    /// original, `GCDAsyncUdpSocket`'s `sendIPv4MulticastOnInterface:`). Throws
    /// ``AsyncUdpSocketError`` `.ipv4Unavailable`/`.ipv6Unavailable` when that family's socket is
    /// closed, `.badParameter` when no interface has the address, and the POSIX error when the system
    /// refuses.
    public func setMulticastInterface(_ interface: String) throws {
        checkThread("setMulticastInterface(_:)")
        try checkOpen()
        guard let local = try Self.addresses(of: interface, port: 0).first else {
            throw AsyncUdpSocketError(.badParameter, message: "No address for \(interface)")
        }
        if local.isIPv4 {
            guard socket4 >= 0 else { throw AsyncUdpSocketError(.ipv4Unavailable) }
            var address = UdpSocketOptions.ipv4Address(of: local)
            try UdpSocketOptions.set(socket4, Int32(IPPROTO_IP), IP_MULTICAST_IF, &address)
        } else {
            guard socket6 >= 0 else { throw AsyncUdpSocketError(.ipv6Unavailable) }
            guard var index = UdpSocketOptions.interfaceIndex(of: local) else {
                throw AsyncUdpSocketError(.badParameter, message: "No interface has the address \(interface)")
            }
            try UdpSocketOptions.set(socket6, Int32(IPPROTO_IPV6), IPV6_MULTICAST_IF, &index)
        }
    }

    /// How many routers a multicast datagram may cross (`IP_MULTICAST_TTL` / `IPV6_MULTICAST_HOPS`,
    /// on every open socket; the system's default is 1: the local network only). Not in the original.
    public func setMulticastTimeToLive(_ hops: UInt8) throws {
        checkThread("setMulticastTimeToLive(_:)")
        try checkOpen()
        var value = Int32(hops)
        if socket4 >= 0 { try UdpSocketOptions.set(socket4, Int32(IPPROTO_IP), IP_MULTICAST_TTL, &value) }
        if socket6 >= 0 { try UdpSocketOptions.set(socket6, Int32(IPPROTO_IPV6), IPV6_MULTICAST_HOPS, &value) }
    }

    /// Whether this host's own members of a group receive what the socket sends to it
    /// (`IP_MULTICAST_LOOP` / `IPV6_MULTICAST_LOOP`, on every open socket; the system's default is
    /// yes). Not in the original.
    public func setMulticastLoopback(_ enabled: Bool) throws {
        checkThread("setMulticastLoopback(_:)")
        try checkOpen()
        var value: Int32 = enabled ? 1 : 0
        if socket4 >= 0 { try UdpSocketOptions.set(socket4, Int32(IPPROTO_IP), IP_MULTICAST_LOOP, &value) }
        if socket6 >= 0 { try UdpSocketOptions.set(socket6, Int32(IPPROTO_IPV6), IPV6_MULTICAST_LOOP, &value) }
    }

    private func membership(joining: Bool, _ group: String, interface: String?) throws {
        try checkOpen()
        guard didBind else {
            throw AsyncSocketUsageError(
                joining
                    ? "Must bind a socket before joining a multicast group."
                    : "Must bind a socket before leaving a multicast group.")
        }
        guard !didConnect else {
            throw AsyncSocketUsageError(
                joining ? "Cannot join a multicast group if connected." : "Cannot leave a multicast group if connected."
            )
        }
        let groups = try Self.addresses(of: group, port: 0)
        let local = try interface.flatMap { $0.isEmpty ? nil : try Self.addresses(of: $0, port: 0).first }
        let family: Int32
        if let local {
            family = local.family
            guard groups.contains(where: { $0.family == family }) else {
                throw AsyncUdpSocketError(
                    .badParameter, message: "Invalid group and/or address, not matching existing socket(s)")
            }
        } else if socket4 >= 0, groups.contains(where: \.isIPv4) {
            family = AF_INET
        } else if socket6 >= 0, groups.contains(where: \.isIPv6) {
            family = AF_INET6
        } else {
            throw AsyncUdpSocketError(
                .badParameter, message: "Invalid group and/or address, not matching existing socket(s)")
        }
        guard let target = groups.first(where: { $0.family == family }) else {
            throw AsyncUdpSocketError(
                .badParameter, message: "Invalid group and/or address, not matching existing socket(s)")
        }
        let fd = family == AF_INET ? socket4 : socket6
        guard fd >= 0 else { throw AsyncUdpSocketError(family == AF_INET ? .ipv4Unavailable : .ipv6Unavailable) }
        var index: UInt32 = 0
        if family == AF_INET6, let local {
            guard let found = UdpSocketOptions.interfaceIndex(of: local) else {
                throw AsyncUdpSocketError(.badParameter, message: "No interface has the address \(local.host ?? "")")
            }
            index = found
        }
        try UdpSocketOptions.changeMembership(
            fd, joining: joining, group: target, ipv4Interface: local.map(UdpSocketOptions.ipv4Address(of:)),
            ipv6Interface: index)
        if joining {
            closeSocket(ipv4: family != AF_INET)
        }
    }
}
