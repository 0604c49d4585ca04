import CAsyncSocketShims
import Foundation

// Making the descriptors (lazily, as GCDAsyncUdpSocket did), binding, and the options set before
// or after. Misuse throws QueueUdpSocketError with the original's words; a refused system call
// throws its POSIX error. A failed bind closes what was made, so the next call starts afresh.
extension QueueUdpSocket {
    /// Makes the descriptors of the enabled families (`ipv4`/`ipv6` narrow it) unless they exist.
    func createSocketsIfNeeded(ipv4: Bool = true, ipv6: Bool = true) throws {
        guard !created else { return }
        let use4 = ipv4Enabled && ipv4
        let use6 = ipv6Enabled && ipv6
        guard use4 || use6 else {
            throw QueueUdpSocketError(
                .badConfig, "Both IPv4 and IPv6 have been disabled. Must enable at least one protocol first.")
        }
        if use4 { socket4 = try openSocket(AF_INET) }
        if use6 {
            do {
                socket6 = try openSocket(AF_INET6)
            } catch {
                closeDescriptors()
                throw error
            }
        }
        channel4 = socket4 >= 0 ? channel(socket4) : nil
        channel6 = socket6 >= 0 ? channel(socket6) : nil
        created = true
    }

    private func openSocket(_ family: Int32) throws -> Int32 {
        guard let fd = UdpDescriptor.open(family: family) else {
            throw SystemError.posix(ask_errno(), "socket")
        }
        SocketOps.setOption(fd, level: SOL_SOCKET, name: SO_REUSEADDR)
        var current: Int32 = 0
        var length = socklen_t(MemoryLayout<Int32>.size)
        var wanted = Int32(sendBufferSize)
        if getsockopt(fd, SOL_SOCKET, SO_SNDBUF, &current, &length) == 0, wanted > current {
            try? UdpSocketOptions.set(fd, SOL_SOCKET, SO_SNDBUF, &wanted)
        }
        return fd
    }

    private func channel(_ fd: Int32) -> UdpChannel {
        UdpChannel(
            fd: fd, queue: socketQueue,
            readable: { [weak self] in self?.readable(fd) },
            writable: { [weak self] in self?.writable(fd) })
    }

    /// Closes one family's descriptor for good (a bind, connect or join settled the other).
    func closeSocket(ipv4: Bool) {
        reader.discardHeld(from: ipv4 ? socket4 : socket6)
        if ipv4 {
            channel4?.close()
            channel4 = nil
            socket4 = -1
        } else {
            channel6?.close()
            channel6 = nil
            socket6 = -1
        }
    }

    // MARK: Binding

    /// Binds to `port` on every address (`bindToPort:error:`); 0 lets the system choose.
    public func bind(toPort port: UInt16) throws {
        try bind(toPort: port, interface: nil)
    }

    /// Binds to `port` on `interface` (`bindToPort:interface:error:`): `nil` for every address, an
    /// interface's name ("lo", "eth0"), a numeric address a local interface has, or "localhost" /
    /// "loopback". Only the families the interface has addresses of are opened. Throws
    /// ``QueueUdpSocketError/Code/badConfig`` without a delegate and its queue, when bound or
    /// connected already or with both families disabled, `badParam` for an unknown interface, and the
    /// POSIX error when `bind` fails.
    public func bind(toPort port: UInt16, interface: String?) throws {
        try sync {
            try checkCanBind()
            guard let (v4, v6, _) = UdpSocketOptions.interfaceAddresses(interface, port: port) else {
                throw QueueUdpSocketError(
                    .badParam, "Unknown interface. Specify valid interface by name (e.g. \"en1\") or IP address.")
            }
            let use4 = ipv4Enabled && v4 != nil
            let use6 = ipv6Enabled && v6 != nil
            guard use4 || use6 else {
                throw QueueUdpSocketError(
                    .badParam, "Unknown interface. Specify valid interface by name (e.g. \"en1\") or IP address.")
            }
            try bindSockets(v4: use4 ? v4 : nil, v6: use6 ? v6 : nil)
        }
    }

    /// Binds to `address`, a `sockaddr_in` or `sockaddr_in6` (`bindToAddress:error:`); only that
    /// family is opened. Throws `badParam` for anything else, and as ``bind(toPort:interface:)``.
    public func bind(toAddress address: Data) throws {
        try sync {
            try checkCanBind()
            guard let parsed = SocketAddress(data: address), parsed.isIPv4 || parsed.isIPv6 else {
                throw QueueUdpSocketError(.badParam, "A valid IPv4 or IPv6 address was not given")
            }
            guard parsed.isIPv4 ? ipv4Enabled : ipv6Enabled else {
                throw QueueUdpSocketError(
                    .badParam, "Cannot bind to \(parsed.isIPv4 ? "IPv4" : "IPv6") address; it is disabled.")
            }
            try bindSockets(v4: parsed.isIPv4 ? parsed : nil, v6: parsed.isIPv6 ? parsed : nil)
        }
    }

    private func checkCanBind() throws {
        try requireDelegate()
        guard !didBind else { throw QueueUdpSocketError(.badConfig, "Cannot bind a socket more than once.") }
        guard !connecting, !didConnect else {
            throw QueueUdpSocketError(.badConfig, "Cannot bind after connecting. If needed, bind first, then connect.")
        }
        guard ipv4Enabled || ipv6Enabled else {
            throw QueueUdpSocketError(
                .badConfig, "Both IPv4 and IPv6 have been disabled. Must enable at least one protocol first.")
        }
    }

    private func bindSockets(v4: SocketAddress?, v6: SocketAddress?) throws {
        try createSocketsIfNeeded(ipv4: v4 != nil, ipv6: v6 != nil)
        do {
            if let v4 {
                guard socket4 >= 0 else {
                    throw QueueUdpSocketError(.badParam, "Cannot bind to IPv4 address; the IPv4 socket is closed.")
                }
                try bindSocket(socket4, to: v4)
            }
            if var v6 {
                guard socket6 >= 0 else {
                    throw QueueUdpSocketError(.badParam, "Cannot bind to IPv6 address; the IPv6 socket is closed.")
                }
                if v4 != nil, v6.port == 0, let chosen = SocketOps.localAddress(socket4)?.port {
                    v6.port = chosen
                }
                try bindSocket(socket6, to: v6)
            }
        } catch {
            closeDescriptors()
            throw error
        }
        if v4 == nil, socket4 >= 0 { closeSocket(ipv4: true) }
        if v6 == nil, socket6 >= 0 { closeSocket(ipv4: false) }
        // Bound to every address: each datagram says which one it reached, for the reply.
        if v4?.host == "0.0.0.0" { UdpDescriptor.reportDestinations(socket4, family: AF_INET) }
        if v6?.host == "::" { UdpDescriptor.reportDestinations(socket6, family: AF_INET6) }
        didBind = true
    }

    private func bindSocket(_ fd: Int32, to address: SocketAddress) throws {
        if let code = SocketOps.bind(fd, to: address) {
            throw SystemError.posix(code, "bind")
        }
    }

    // MARK: Options

    /// Allows (or forbids) sending to broadcast addresses (`enableBroadcast:error:`, `SO_BROADCAST` on
    /// the IPv4 descriptor, made if need be). Throws `badConfig` without a delegate and its queue or
    /// without an IPv4 descriptor, and the POSIX error when refused.
    public func enableBroadcast(_ enabled: Bool) throws {
        try sync {
            try requireDelegate()
            try createSocketsIfNeeded()
            guard socket4 >= 0 else {
                throw QueueUdpSocketError(.badConfig, "Broadcast is only available on an IPv4 socket.")
            }
            var value: Int32 = enabled ? 1 : 0
            try UdpSocketOptions.set(socket4, SOL_SOCKET, SO_BROADCAST, &value)
        }
    }

    /// Lets other sockets bind the same port (`enableReusePort:error:`, `SO_REUSEPORT` on every
    /// descriptor, made if need be); call it before binding. Throws as ``enableBroadcast(_:)``.
    public func enableReusePort(_ enabled: Bool) throws {
        try sync {
            try requireDelegate()
            try createSocketsIfNeeded()
            var value: Int32 = enabled ? 1 : 0
            for fd in [socket4, socket6] where fd >= 0 {
                try UdpSocketOptions.set(fd, SOL_SOCKET, SO_REUSEPORT, &value)
            }
        }
    }

    /// Lets the kernel coalesce datagrams of one sender, of one size, into one buffer (`UDP_GRO`, Linux
    /// 5.0 and later; beyond the original): the socket reads such a buffer with one system call and
    /// still delivers each datagram on its own, as the sender sent it, each checked against the receive
    /// maximum. Worth it when bulk senders cut their data with `UDP_SEGMENT`
    /// (``send(_:segmentSize:withTimeout:tag:)``), which loopback and many NICs then deliver whole; reads
    /// use slots of 64 KiB while it is on. Sets every descriptor (made if need be) until ``close()``.
    /// Throws `badConfig` without a delegate and its queue, and the POSIX error when the kernel refuses
    /// (`ENOPROTOOPT` before 5.0).
    public func enableReceiveCoalescing(_ enabled: Bool) throws {
        try sync {
            try requireDelegate()
            try createSocketsIfNeeded()
            for fd in [socket4, socket6] where fd >= 0 {
                try UdpSocketOptions.setReceiveCoalescing(fd, enabled)
            }
            reader.coalescing = enabled
        }
    }

    // MARK: Multicast

    /// Joins `group` (a numeric address) on the interface the system chooses.
    ///
    /// Original: `joinMulticastGroup:error:` (GCDAsyncUdpSocket).
    public func joinMulticastGroup(_ group: String) throws {
        try joinMulticastGroup(group, onInterface: nil)
    }

    /// Joins `group` on `interface` (named as in ``bind(toPort:interface:)``; `nil`: the system
    /// chooses); the other family's descriptor closes (`joinMulticastGroup:onInterface:error:`).
    /// Throws `badConfig` before a bind or after a connect, `badParam` for a group that is not a
    /// numeric address or an interface this machine lacks, and the POSIX error when refused.
    public func joinMulticastGroup(_ group: String, onInterface interface: String?) throws {
        try sync { try changeMembership(joining: true, group, interface) }
    }

    /// Leaves `group` on the interface the system chooses.
    ///
    /// Original: `leaveMulticastGroup:error:` (GCDAsyncUdpSocket).
    public func leaveMulticastGroup(_ group: String) throws {
        try leaveMulticastGroup(group, onInterface: nil)
    }

    /// Leaves `group` on `interface` (`leaveMulticastGroup:onInterface:error:`); throws as
    /// ``joinMulticastGroup(_:onInterface:)``.
    public func leaveMulticastGroup(_ group: String, onInterface interface: String?) throws {
        try sync { try changeMembership(joining: false, group, interface) }
    }

    private func changeMembership(joining: Bool, _ group: String, _ interface: String?) throws {
        try requireDelegate()
        guard didBind else {
            throw QueueUdpSocketError(
                .badConfig, "Must bind a socket before joining a multicast group.")
        }
        guard !didConnect, !connecting else {
            throw QueueUdpSocketError(.badConfig, "Cannot join a multicast group if connected.")
        }
        guard let target = SocketAddress.numeric(group, port: 0) else {
            throw QueueUdpSocketError(.badParam, "Unknown group. Specify a valid group IP address.")
        }
        guard let (v4, v6, index) = UdpSocketOptions.interfaceAddresses(interface, port: 0) else {
            throw QueueUdpSocketError(
                .badParam, "Unknown interface. Specify valid interface by name (e.g. \"en1\") or IP address.")
        }
        let fd = target.isIPv4 ? socket4 : socket6
        guard fd >= 0, target.isIPv4 ? v4 != nil : v6 != nil else {
            throw QueueUdpSocketError(.badParam, "Socket, group, and interface do not have matching IP versions")
        }
        let ipv4Interface = interface == nil ? nil : v4.map(UdpSocketOptions.ipv4Address(of:))
        try UdpSocketOptions.changeMembership(
            fd, joining: joining, group: target, ipv4Interface: ipv4Interface, ipv6Interface: index)
        if joining {
            closeSocket(ipv4: !target.isIPv4)
        }
    }

    /// Sends IPv4 multicast datagrams out of `interface` (`sendIPv4MulticastOnInterface:error:`,
    /// `IP_MULTICAST_IF`). Throws `badParam` for an interface without an IPv4 address, `badConfig`
    /// without an IPv4 descriptor, and the POSIX error when refused.
    public func sendIPv4Multicast(onInterface interface: String) throws {
        try sync {
            try createSocketsIfNeeded()
            guard let (v4, _, _) = UdpSocketOptions.interfaceAddresses(interface, port: 0), let v4 else {
                throw QueueUdpSocketError(.badParam, "Unknown interface. Specify valid interface by IP address.")
            }
            guard socket4 >= 0 else { throw QueueUdpSocketError(.badConfig, "The IPv4 socket is closed.") }
            var address = UdpSocketOptions.ipv4Address(of: v4)
            try UdpSocketOptions.set(socket4, Int32(IPPROTO_IP), IP_MULTICAST_IF, &address)
        }
    }

    /// Sends IPv6 multicast datagrams out of `interface` (`sendIPv6MulticastOnInterface:error:`,
    /// `IPV6_MULTICAST_IF` with its index); throws as ``sendIPv4Multicast(onInterface:)``.
    public func sendIPv6Multicast(onInterface interface: String) throws {
        try sync {
            try createSocketsIfNeeded()
            guard let (_, v6, index) = UdpSocketOptions.interfaceAddresses(interface, port: 0), v6 != nil,
                index != 0
            else {
                throw QueueUdpSocketError(
                    .badParam, "Unknown interface. Specify valid interface by name or IP address.")
            }
            guard socket6 >= 0 else { throw QueueUdpSocketError(.badConfig, "The IPv6 socket is closed.") }
            var value = index
            try UdpSocketOptions.set(socket6, Int32(IPPROTO_IPV6), IPV6_MULTICAST_IF, &value)
        }
    }
}
