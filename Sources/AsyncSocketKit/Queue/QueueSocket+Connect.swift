import AsyncSocketCore
import CAsyncSocketShims
import Dispatch
import Foundation

// Connecting the GCD way: checks run synchronously on the socket queue and throw badConfig /
// badParam; names are resolved off the socket queue; a ConnectDriver tries the addresses in GCD's
// order (ConnectOrder.gcd: the preferred family first, the other after `alternateAddressDelay`); the
// first connect to complete wins. A per-attempt state index lets a late lookup recognise itself.
extension QueueSocket {
    /// Connects to `host` without a timeout.
    ///
    /// Original: `connectToHost:onPort:error:` (GCDAsyncSocket).
    public func connect(toHost host: String, onPort port: UInt16) throws {
        try connect(toHost: host, onPort: port, viaInterface: nil, withTimeout: -1)
    }

    /// Connects to `host` with a timeout (negative: none).
    ///
    /// Original: `connectToHost:onPort:withTimeout:error:` (GCDAsyncSocket).
    public func connect(toHost host: String, onPort port: UInt16, withTimeout timeout: TimeInterval) throws {
        try connect(toHost: host, onPort: port, viaInterface: nil, withTimeout: timeout)
    }

    /// Connects to `host`, binding first to `interface` ("en0", "192.168.1.2", "localhost", with an
    /// optional ":port") when given. "localhost" and "loopback" stand for both loopback addresses
    /// (no lookup), tried in the order ``isIPv4PreferredOverIPv6`` gives, as GCDAsyncSocket does.
    ///
    /// Original: `connectToHost:onPort:viaInterface:withTimeout:error:` (GCDAsyncSocket).
    public func connect(
        toHost host: String, onPort port: UInt16, viaInterface interface: String?, withTimeout timeout: TimeInterval
    ) throws {
        try syncThrowing {
            try preConnectChecks()
            guard !host.isEmpty, HostNames.invalidReason(host) == nil else {
                throw QueueSocketError(
                    .badParam, "Invalid host parameter (nil or \"\"). Should be a domain name or IP address string.")
            }
            let local = try interface.map { try bindAddresses(for: $0) }
            engine.reset()
            phase = .starting
            stateIndex += 1
            connectHostString = host
            let index = stateIndex
            if host == "localhost" || host == "loopback" {
                // Both loopback addresses, tried under the IPv4/IPv6 preference (lookupHost:port:error:).
                let both = [SocketAddress.ipv4(loopback: true, port: port), .ipv6(loopback: true, port: port)]
                async { [self] in lookupFinished(.success(both), local: local, stateIndex: index) }
                armConnectTimeout(timeout)
                return
            }
            (resolver ?? .system).resolve(host, port: port) { [weak self] result in
                let socket = self
                socket?.async { socket?.lookupFinished(result, local: local, stateIndex: index) }
            }
            armConnectTimeout(timeout)
        }
    }

    /// Connects to a `sockaddr_in`/`sockaddr_in6` in `address` without a timeout.
    ///
    /// Original: `connectToAddress:error:` (GCDAsyncSocket).
    public func connect(toAddress address: Data) throws {
        try connect(toAddress: address, viaInterface: nil, withTimeout: -1)
    }

    /// Connects to a `sockaddr_in`/`sockaddr_in6` in `address` with a timeout.
    ///
    /// Original: `connectToAddress:withTimeout:error:` (GCDAsyncSocket).
    public func connect(toAddress address: Data, withTimeout timeout: TimeInterval) throws {
        try connect(toAddress: address, viaInterface: nil, withTimeout: timeout)
    }

    /// Connects to `address`, binding first to `interface` when given.
    ///
    /// Original: `connectToAddress:viaInterface:withTimeout:error:` (GCDAsyncSocket).
    public func connect(toAddress address: Data, viaInterface interface: String?, withTimeout timeout: TimeInterval)
        throws
    {
        try syncThrowing {
            try preConnectChecks()
            guard let parsed = SocketAddress(data: address), parsed.isIP,
                address.count == (parsed.isIPv4 ? MemoryLayout<sockaddr_in>.size : MemoryLayout<sockaddr_in6>.size)
            else {
                throw QueueSocketError(.badParam, "A valid IPv4 or IPv6 address was not given")
            }
            if (parsed.isIPv4 && !ipv4Enabled) || (parsed.isIPv6 && !ipv6Enabled) {
                throw QueueSocketError(.badParam, "The address's family (IPv\(parsed.isIPv4 ? 4 : 6)) is disabled")
            }
            let local = try interface.map { try bindAddresses(for: $0) }
            engine.reset()
            phase = .starting
            stateIndex += 1
            armConnectTimeout(timeout)
            race([parsed], local: local)
        }
    }

    /// Connects to the Unix-domain socket at `url` (`connectToUrl:withTimeout:error:`).
    public func connect(toUrl url: URL, withTimeout timeout: TimeInterval) throws {
        try syncThrowing {
            try preConnectChecks(checkFamilies: false)
            guard url.isFileURL, let address = SocketAddress.unix(path: url.path) else {
                throw QueueSocketError(.badParam, "Invalid unix domain socket url (not a file URL, or path too long)")
            }
            engine.reset()
            phase = .starting
            stateIndex += 1
            connectedURL = url
            armConnectTimeout(timeout)
            race([address], local: nil)
        }
    }

    private func preConnectChecks(checkFamilies: Bool = true) throws {
        guard storedDelegate != nil else {
            throw QueueSocketError(.badConfig, "Attempting to connect without a delegate. Set a delegate first.")
        }
        guard storedDelegateQueue != nil else {
            throw QueueSocketError(
                .badConfig, "Attempting to connect without a delegate queue. Set a delegate queue first.")
        }
        guard !started else {
            throw QueueSocketError(
                .badConfig, "Attempting to connect while connected or accepting connections. Disconnect first.")
        }
        guard !checkFamilies || ipv4Enabled || ipv6Enabled else {
            throw QueueSocketError(
                .badConfig, "Both IPv4 and IPv6 have been disabled. Must enable at least one protocol first.")
        }
    }

    private func bindAddresses(for interface: String) throws -> (v4: SocketAddress?, v6: SocketAddress?) {
        let (v4, v6) = try InterfaceAddress.resolve(interface, port: 0)
        guard v4 != nil || v6 != nil else {
            throw QueueSocketError(
                .badParam, "Unknown interface. Specify valid interface by name (e.g. \"en1\") or IP address.")
        }
        return (v4, v6)
    }

    private func armConnectTimeout(_ timeout: TimeInterval) {
        guard timeout >= 0 else { return }
        let index = stateIndex
        connectTimer = armDispatchTimer(connectTimer, after: timeout) { socket in
            guard index == socket.stateIndex, !socket.connected else { return }
            socket.closeWithError(QueueSocketError(.connectTimeout))
        }
    }

    private func lookupFinished(
        _ result: Result<[SocketAddress], NSError>, local: (v4: SocketAddress?, v6: SocketAddress?)?,
        stateIndex index: Int
    ) {
        guard index == stateIndex, case .starting = phase else { return }
        switch result {
        case .failure(let error):
            closeWithError(error)
        case .success(let addresses):
            let ordered = ConnectOrder.gcd(
                addresses, ipv4Enabled: ipv4Enabled, ipv6Enabled: ipv6Enabled, ipv4Preferred: ipv4Preferred)
            guard !ordered.isEmpty else {
                let message =
                    ipv4Enabled
                    ? "IPv6 has been disabled and DNS lookup found no IPv4 address."
                    : "IPv4 has been disabled and DNS lookup found no IPv6 address."
                closeWithError(QueueSocketError(.other, message))
                return
            }
            race(ordered, local: local)
        }
    }

    /// Tries `addresses` in turn (see ConnectRace): the first to connect is the connection.
    private func race(_ addresses: [SocketAddress], local: (v4: SocketAddress?, v6: SocketAddress?)?) {
        let driver = makeConnectDriver(addresses, local: local)
        phase = .connecting(driver)
        driver.start(on: self)
    }

    /// A driver for this socket's connect; it reports to the socket.
    func makeConnectDriver(
        _ addresses: [SocketAddress], local: (v4: SocketAddress?, v6: SocketAddress?)?
    ) -> ConnectDriver<QueueSocket> {
        ConnectDriver(
            addresses: addresses, stagger: alternateDelay, binding: local,
            won: { [unowned self] socket in didConnect(socket)
            },
            failed: { [unowned self] error in closeWithError(error) })
    }

    /// A connection is established: report it (by host or by URL), then start the queued I/O.
    func didConnect(_ socket: Int32) {
        fd = socket
        phase = .connected
        disarm(connectTimer)
        peer = SocketOps.peerAddress(socket)
        log(.debug, "connected")
        metricHandles?.opened(&countedOpen)
        if let url = connectedURL {
            notify { [self] in $0.socket(self, didConnectTo: url) }
        } else if let peer {
            let (host, port) = (peer.host ?? "", peer.port)
            notify { [self] in $0.socket(self, didConnectToHost: host, port: port) }
        }
        setUpSources()
        maybeDequeueRead()
        maybeDequeueWrite()
    }

    /// Wraps a connected IPv4 or IPv6 descriptor (`socketFromConnectedSocketFD:…`); the delegate, if
    /// any, hears `didConnectToHost`. Throws `other` for a descriptor that is not a connected IP socket.
    ///
    /// Original: `socketFromConnectedSocketFD:delegate:delegateQueue:socketQueue:error:` (GCDAsyncSocket).
    public static func socket(
        fromConnectedSocketFD socketFD: Int32, delegate: (any QueueSocketDelegate)? = nil,
        delegateQueue: DispatchQueue? = nil, socketQueue: DispatchQueue? = nil
    ) throws -> QueueSocket {
        guard let peer = SocketOps.peerAddress(socketFD), peer.isIP else {
            throw QueueSocketError(
                .other, "Attempt to create socket from socket FD failed: getpeername() failed or not IPv4/IPv6")
        }
        let socket = try QueueSocket(delegate: delegate, delegateQueue: delegateQueue, socketQueue: socketQueue)
        _ = fcntl(socketFD, F_SETFL, fcntl(socketFD, F_GETFL) | O_NONBLOCK)
        socket.sync {
            socket.stateIndex += 1
            socket.didConnect(socketFD)
        }
        return socket
    }
}
