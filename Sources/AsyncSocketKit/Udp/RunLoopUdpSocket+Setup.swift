import CAsyncSocketShims
import Foundation

// Binding, connecting, broadcast and multicast. Each settles which family the socket uses: a bind to
// an address of one family, a connect, or a multicast join closes the other family's socket for
// good, as the original did. Misuse (binding twice, binding after connecting, any of them after
// close, joining before binding or after connecting) throws AsyncSocketUsageError, the original's
// AsyncUdpSocketException.
extension RunLoopUdpSocket {
    /// Binds to `port` on every address of both families (`bindToPort:error:`); 0 lets the system
    /// choose (the IPv6 socket then takes the port the IPv4 one got).
    public func bind(toPort port: UInt16) throws {
        checkThread("bind(toPort:)")
        try bindTo(nil, port: port)
    }

    /// Binds to `address` and `port` (`bindToAddress:port:error:`): `nil` or "" is every address of
    /// both families, "localhost" or "loopback" both loopbacks, anything else a numeric address or a
    /// name looked up now (`getaddrinfo`, on this thread). Only the families `address` has stay open.
    /// Throws a `kCFStreamErrorDomainNetDB` error when the name is not found,
    /// ``AsyncUdpSocketError`` `.ipv4Unavailable`/`.ipv6Unavailable` when its family's socket is
    /// closed, and `.socketError` (with the POSIX error underneath) when `bind` fails.
    public func bind(toAddress address: String?, port: UInt16) throws {
        checkThread("bind(toAddress:port:)")
        try bindTo(address, port: port)
    }

    private func bindTo(_ address: String?, port: UInt16) throws {
        try checkOpen()
        guard !didBind else { throw AsyncSocketUsageError("Cannot bind a socket more than once.") }
        guard !didConnect else {
            throw AsyncSocketUsageError("Cannot bind after connecting. If needed, bind first, then connect.")
        }
        let (v4, v6) = try HostNames.localAddresses(address, port: port, operation: "bind")
        let use4 = v4 != nil && socket4 >= 0
        let use6 = v6 != nil && socket6 >= 0
        guard use4 || use6 else {
            throw AsyncUdpSocketError(v4 != nil ? .ipv4Unavailable : .ipv6Unavailable)
        }
        if use4, let v4 {
            try bindSocket(socket4, to: v4)
        }
        if use6, var v6 {
            if use4, port == 0, let chosen = SocketOps.localAddress(socket4)?.port {
                v6.port = chosen
            }
            try bindSocket(socket6, to: v6)
        }
        if !use4 { closeSocket(ipv4: true) }
        if !use6 { closeSocket(ipv4: false) }
        // Bound to every address: replies go out from the address each sender reached.
        if use4, v4?.host == "0.0.0.0" { UdpDescriptor.reportDestinations(socket4, family: AF_INET) }
        if use6, v6?.host == "::" { UdpDescriptor.reportDestinations(socket6, family: AF_INET6) }
        didBind = true
        cachedLocal = nil
    }

    private func bindSocket(_ fd: Int32, to address: SocketAddress) throws {
        SocketOps.setOption(fd, level: SOL_SOCKET, name: SO_REUSEADDR)
        if let code = SocketOps.bind(fd, to: address) {
            throw AsyncUdpSocketError(
                .socketError, message: "Could not bind to \(address): \(SystemError.errnoText(code))",
                underlying: SystemError.posix(code, "bind"))
        }
    }

    /// Connects to `host` and `port` (`connectToHost:onPort:error:`): sends go only there and only
    /// datagrams from there arrive. The name is looked up now, on this thread; IPv4 is preferred when
    /// both families are found and the IPv4 socket is open; the other family's socket closes. Throws
    /// as ``bind(toAddress:port:)`` does, and ``AsyncSocketUsageError`` when already connected or
    /// closed.
    public func connect(toHost host: String, port: UInt16) throws {
        checkThread("connect(toHost:port:)")
        try checkCanConnect()
        if let reason = HostNames.invalidReason(host) {
            throw SystemError.netDB(EAI_NONAME, message: "Invalid host name: \(reason)")
        }
        let addresses = try Self.addresses(of: host, port: port)
        guard let chosen = preferredAddress(among: addresses) else {
            throw AsyncUdpSocketError(addresses.contains(where: \.isIPv4) ? .ipv4Unavailable : .ipv6Unavailable)
        }
        try connectSocket(to: chosen)
    }

    /// Connects to `address`, a `sockaddr_in` or `sockaddr_in6` (`connectToAddress:error:`). Throws
    /// ``AsyncUdpSocketError`` `.badParameter` for any other length or family, and as
    /// ``connect(toHost:port:)`` otherwise.
    public func connect(toAddress address: Data) throws {
        checkThread("connect(toAddress:)")
        try checkCanConnect()
        guard let parsed = SocketAddress(data: address),
            (parsed.isIPv4 && address.count == MemoryLayout<sockaddr_in>.size)
                || (parsed.isIPv6 && address.count == MemoryLayout<sockaddr_in6>.size)
        else {
            throw AsyncUdpSocketError(.badParameter, message: "remoteAddr parameter is not a valid address")
        }
        guard parsed.isIPv4 ? socket4 >= 0 : socket6 >= 0 else {
            throw AsyncUdpSocketError(parsed.isIPv4 ? .ipv4Unavailable : .ipv6Unavailable)
        }
        try connectSocket(to: parsed)
    }

    private func connectSocket(to address: SocketAddress) throws {
        let fd = address.isIPv4 ? socket4 : socket6
        let rc = address.withSockaddr { Glibc.connect(fd, $0, $1) }
        guard rc == 0 else {
            let code = ask_errno()
            throw AsyncUdpSocketError(
                .socketError, message: "Could not connect to \(address): \(SystemError.errnoText(code))",
                underlying: SystemError.posix(code, "connect"))
        }
        closeSocket(ipv4: !address.isIPv4)
        didConnect = true
        cachedLocal = nil
        cachedPeer = SocketOps.peerAddress(fd) ?? address
    }

    /// Throws the original's exception, with its words, for a closed socket.
    func checkOpen() throws {
        guard !closed else { throw AsyncSocketUsageError("The socket is closed.") }
    }

    /// Throws the original's exception for a closed or already connected socket.
    private func checkCanConnect() throws {
        try checkOpen()
        guard !didConnect else { throw AsyncSocketUsageError("Cannot connect a socket more than once.") }
    }

    // MARK: Broadcast

    /// Allows (or forbids) sending to broadcast addresses from the IPv4 socket
    /// (`enableBroadcast:error:`, `SO_BROADCAST`); IPv6 has no broadcast, so a socket without an open
    /// IPv4 socket (closed included, as in the original) succeeds without doing anything. Throws the
    /// POSIX error when the option cannot be set.
    public func enableBroadcast(_ enabled: Bool) throws {
        checkThread("enableBroadcast(_:)")
        guard socket4 >= 0 else { return }
        var value: Int32 = enabled ? 1 : 0
        guard setsockopt(socket4, SOL_SOCKET, SO_BROADCAST, &value, socklen_t(MemoryLayout<Int32>.size)) == 0 else {
            throw SystemError.posix(ask_errno(), "setsockopt")
        }
    }

    // MARK: Receive coalescing

    /// Lets the kernel coalesce datagrams of one sender, of one size, into one buffer (`UDP_GRO`, Linux
    /// 5.0 and later; beyond the original): the socket reads such a buffer with one system call and
    /// still completes one receive per datagram, each as the sender sent it, each checked against
    /// ``maxReceiveBufferSize``. Worth it when bulk senders cut their data with `UDP_SEGMENT`
    /// (``send(_:segmentSize:withTimeout:tag:)``), which loopback and many NICs then deliver whole;
    /// reads use slots of 64 KiB while it is on. Sets every open descriptor; throws the POSIX error when
    /// the kernel refuses (`ENOPROTOOPT` before 5.0), and nothing on a closed socket.
    public func enableReceiveCoalescing(_ enabled: Bool) throws {
        checkThread("enableReceiveCoalescing(_:)")
        for fd in [socket4, socket6] where fd >= 0 {
            try UdpSocketOptions.setReceiveCoalescing(fd, enabled)
        }
        reader.coalescing = enabled
    }
}
