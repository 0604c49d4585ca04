import AsyncSocketCore
import CAsyncSocketShims
import Dispatch
import Foundation

// Connecting the GCD way (3.4): checks run synchronously on the socket queue and throw badConfig /
// badParam; names are resolved off the socket queue; with addresses of both families the preferred
// family is tried first and the other after `alternateAddressDelay`; the first connect to complete
// wins. A per-attempt state index lets late results of an abandoned attempt recognise themselves.
extension QueueSocket {
    /// Connects to `host` without a timeout.
    public func connect(toHost host: String, onPort port: UInt16) throws {
        try connect(toHost: host, onPort: port, viaInterface: nil, withTimeout: -1)
    }

    /// Connects to `host` with a timeout (negative: none).
    public func connect(toHost host: String, onPort port: UInt16, withTimeout timeout: TimeInterval) throws {
        try connect(toHost: host, onPort: port, viaInterface: nil, withTimeout: timeout)
    }

    /// Connects to `host`, binding first to `interface` ("en0", "192.168.1.2", "localhost", with an
    /// optional ":port") when given. "localhost" and "loopback" stand for both loopback addresses
    /// (no lookup), tried in the order ``isIPv4PreferredOverIPv6`` gives, as GCDAsyncSocket does.
    public func connect(
        toHost host: String, onPort port: UInt16, viaInterface interface: String?, withTimeout timeout: TimeInterval
    ) throws {
        try sync {
            try preConnectChecks()
            guard !host.isEmpty, NativeSocketBackend.invalidHostReason(host) == nil else {
                throw QueueSocketError(
                    .badParam, "Invalid host parameter (nil or \"\"). Should be a domain name or IP address string.")
            }
            let local = try interface.map { try bindAddresses(for: $0) }
            engine.reset()
            started = true
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
    public func connect(toAddress address: Data) throws {
        try connect(toAddress: address, viaInterface: nil, withTimeout: -1)
    }

    /// Connects to a `sockaddr_in`/`sockaddr_in6` in `address` with a timeout.
    public func connect(toAddress address: Data, withTimeout timeout: TimeInterval) throws {
        try connect(toAddress: address, viaInterface: nil, withTimeout: timeout)
    }

    /// Connects to `address`, binding first to `interface` when given.
    public func connect(toAddress address: Data, viaInterface interface: String?, withTimeout timeout: TimeInterval)
        throws
    {
        try sync {
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
            started = true
            stateIndex += 1
            pendingAddresses = [parsed]
            startNextAttempt(local: local)
            armConnectTimeout(timeout)
        }
    }

    /// Connects to the Unix-domain socket at `url` (`connectToUrl:withTimeout:error:`).
    public func connect(toUrl url: URL, withTimeout timeout: TimeInterval) throws {
        try sync {
            try preConnectChecks(checkFamilies: false)
            guard url.isFileURL, let address = SocketAddress.unix(path: url.path) else {
                throw QueueSocketError(.badParam, "Invalid unix domain socket url (not a file URL, or path too long)")
            }
            engine.reset()
            started = true
            stateIndex += 1
            connectedURL = url
            pendingAddresses = [address]
            startNextAttempt(local: nil)
            armConnectTimeout(timeout)
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
        connectTimer = armTimer(connectTimer, after: timeout) { socket in
            guard index == socket.stateIndex, !socket.connected else { return }
            socket.closeWithError(QueueSocketError(.connectTimeout))
        }
    }

    private func lookupFinished(
        _ result: Result<[SocketAddress], NSError>, local: (v4: SocketAddress?, v6: SocketAddress?)?,
        stateIndex index: Int
    ) {
        guard index == stateIndex, started, !connected else { return }
        switch result {
        case .failure(let error):
            closeWithError(error)
        case .success(let addresses):
            let v4 = ipv4Enabled ? addresses.filter(\.isIPv4) : []
            let v6 = ipv6Enabled ? addresses.filter(\.isIPv6) : []
            guard !v4.isEmpty || !v6.isEmpty else {
                let message =
                    ipv4Enabled
                    ? "IPv6 has been disabled and DNS lookup found no IPv4 address."
                    : "IPv4 has been disabled and DNS lookup found no IPv6 address."
                closeWithError(QueueSocketError(.other, message))
                return
            }
            // The preferred family first, then the other after the alternate delay.
            let (first, second) = ipv4Preferred || v6.isEmpty ? (v4, v6) : (v6, v4)
            pendingAddresses = Array((first.isEmpty ? second : first).prefix(1))
            let others = first.isEmpty ? [] : Array(second.prefix(1))
            alternateAddress = others.first
            if others.first != nil {
                alternateTimer = armTimer(alternateTimer, after: alternateDelay) { socket in
                    guard index == socket.stateIndex, !socket.connected, let other = socket.alternateAddress else {
                        return
                    }
                    socket.alternateAddress = nil
                    socket.pendingAddresses.append(other)
                    socket.startNextAttempt(local: local)
                }
            }
            startNextAttempt(local: local)
        }
    }

    /// Starts a non-blocking connect to the next pending address.
    func startNextAttempt(local: (v4: SocketAddress?, v6: SocketAddress?)?) {
        if pendingAddresses.isEmpty, connectAttempts.isEmpty, let other = alternateAddress {
            // Everything tried so far failed before the alternate delay: try the other family now
            // (GCD reports a failure only once both have failed).
            alternateAddress = nil
            disarm(alternateTimer)
            pendingAddresses.append(other)
        }
        guard !pendingAddresses.isEmpty else {
            if connectAttempts.isEmpty { failConnect() }
            return
        }
        let address = pendingAddresses.removeFirst()
        switch SocketOps.makeStreamSocket(family: address.family) {
        case .failure(let error):
            lastConnectError = error
            startNextAttempt(local: local)
        case .success(let socket):
            if let bind = address.isIPv4 ? local?.v4 : local?.v6 {
                if let code = SocketOps.bind(socket, to: bind) {
                    close(socket)
                    lastConnectError = SystemError.posix(code, "bind")
                    startNextAttempt(local: local)
                    return
                }
            }
            startAttempt(socket, to: address, local: local)
        }
    }

    /// Starts a non-blocking connect of `socket` and watches for its outcome.
    func startAttempt(_ socket: Int32, to address: SocketAddress, local: (v4: SocketAddress?, v6: SocketAddress?)?) {
        if case .failed(let code) = SocketOps.connect(socket, to: address) {
            close(socket)
            lastConnectError = SystemError.posix(code, "connect")
            startNextAttempt(local: local)
            return
        }
        let watch = fcntl(socket, F_DUPFD_CLOEXEC, 0)
        guard watch >= 0 else {
            lastConnectError = SystemError.posix(errno, "dup")
            close(socket)
            startNextAttempt(local: local)
            return
        }
        let source = DispatchSource.makeWriteSource(fileDescriptor: watch, queue: socketQueue)
        source.setEventHandler { [weak self] in self?.attemptFinished(socket, local: local) }
        connectAttempts.append(QueueConnectAttempt(fd: socket, watch: watch, address: address, source: source))
        source.activate()
    }

    private func attemptFinished(_ socket: Int32, local: (v4: SocketAddress?, v6: SocketAddress?)?) {
        guard let index = connectAttempts.firstIndex(where: { $0.fd == socket }) else { return }
        let attempt = connectAttempts.remove(at: index)
        let code = SocketOps.pendingError(socket)
        if code != 0 {
            lastConnectError = SystemError.posix(code, "connect")
            attempt.cancel()
            if connectAttempts.isEmpty {
                startNextAttempt(local: local)
            }
            return
        }
        attempt.finish()
        for other in connectAttempts {
            other.cancel()
        }
        connectAttempts.removeAll()
        pendingAddresses.removeAll()
        alternateAddress = nil
        disarm(alternateTimer)
        didConnect(socket)
    }

    private func failConnect() {
        closeWithError(lastConnectError ?? SystemError.posix(ECONNREFUSED, "connect"))
    }

    /// A connection is established: report it (by host or by URL), then start the queued I/O.
    func didConnect(_ socket: Int32) {
        fd = socket
        connected = true
        disarm(connectTimer)
        peer = SocketOps.peerAddress(socket)
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
            socket.started = true
            socket.stateIndex += 1
            socket.didConnect(socketFD)
        }
        return socket
    }
}
