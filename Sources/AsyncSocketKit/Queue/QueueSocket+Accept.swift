import AsyncSocketCore
import CAsyncSocketShims
import Dispatch
import Foundation

// Accepting the GCD way: listeners with SO_REUSEADDR and a backlog of 1024 (port 0 with both
// families: IPv6 takes IPv4's port); per connection, on the delegate queue,
// newSocketQueueForConnection, then the child (already connected, never told didConnectToHost),
// then didAcceptNewSocket. A child nobody keeps is disconnected and reported with itself.
extension QueueSocket {
    /// Whether the listeners of the next accept set `SO_REUSEPORT` (default `false`; beyond
    /// GCDAsyncSocket): other sockets of the same user that set it too may listen on the same port, and
    /// the kernel spreads the incoming connections over them. Kept across a disconnect.
    public var reusesPort: Bool {
        get { sync { reusePortOnAccept } }
        set { sync { reusePortOnAccept = newValue } }
    }

    /// Listens on `port` on every interface.
    ///
    /// Original: `acceptOnPort:error:` (GCDAsyncSocket).
    public func accept(onPort port: UInt16) throws {
        try accept(onInterface: nil, port: port)
    }

    /// Listens on `interface`: `nil`/"" for all, "localhost"/"loopback", a name ("eth0") or an
    /// address, optionally with ":port" (used when `port` is 0).
    ///
    /// Original: `acceptOnInterface:port:error:` (GCDAsyncSocket).
    public func accept(onInterface interface: String?, port: UInt16) throws {
        try syncThrowing {
            try preAcceptChecks()
            var (v4, v6) = try InterfaceAddress.resolve(interface, port: port)
            if !ipv4Enabled { v4 = nil }
            if !ipv6Enabled { v6 = nil }
            guard v4 != nil || v6 != nil else {
                throw QueueSocketError(
                    .badParam, "Unknown interface. Specify valid interface by name (e.g. \"en1\") or IP address.")
            }
            engine.reset()
            let sockets: (v4: Int32?, v6: Int32?)
            do {
                sockets = try ListenSockets.open(
                    v4: v4, v6: v6, toleratingMissingIPv6: false, reusePort: reusePortOnAccept)
            } catch let failure as ListenFailure {
                throw failure.error
            }
            try startListening([sockets.v4, sockets.v6].compactMap { $0 })
        }
    }

    /// Listens on the Unix-domain socket at `url`, deleting any file already there (`acceptOnUrl:`).
    ///
    /// Original: `acceptOnUrl:error:` (GCDAsyncSocket).
    public func accept(onUrl url: URL) throws {
        try syncThrowing {
            try preAcceptChecks(checkFamilies: false)
            guard url.isFileURL, let address = SocketAddress.unix(path: url.path) else {
                throw QueueSocketError(.badParam, "Invalid unix domain url (not a file URL, or path too long)")
            }
            if FileManager.default.fileExists(atPath: url.path) {
                do {
                    try FileManager.default.removeItem(atPath: url.path)
                } catch {
                    throw QueueSocketError(.other, "Could not remove previous unix domain socket at given url.")
                }
            }
            engine.reset()
            let socket: Int32
            do {
                socket = try ListenSockets.open(address)
            } catch let failure as ListenFailure {
                throw failure.error
            }
            unixListenPath = url.path
            try startListening([socket])
        }
    }

    private func preAcceptChecks(checkFamilies: Bool = true) throws {
        guard storedDelegate != nil else {
            throw QueueSocketError(.badConfig, "Attempting to accept without a delegate. Set a delegate first.")
        }
        guard storedDelegateQueue != nil else {
            throw QueueSocketError(
                .badConfig, "Attempting to accept without a delegate queue. Set a delegate queue first.")
        }
        guard !started else {
            throw QueueSocketError(
                .badConfig, "Attempting to accept while connected or accepting connections. Disconnect first.")
        }
        guard !checkFamilies || ipv4Enabled || ipv6Enabled else {
            throw QueueSocketError(
                .badConfig, "Both IPv4 and IPv6 have been disabled. Must enable at least one protocol first.")
        }
    }

    private func startListening(_ sockets: [Int32]) throws {
        let driver = ListenerDriver<QueueSocket>(
            sockets: sockets,
            accepted: { [unowned self] child, peer in
                log(.debug, "accepted a connection", ["from": .string(peer.description), "child fd": "\(child)"])
                metricHandles?.accepted.increment()
                accepted(child, from: peer)
            },
            failed: { [unowned self] code in
                let (level, message) = AcceptFailure.logLine(code, reported: &reportedAcceptFailure)
                log(level, message)
            })
        do {
            try driver.start(on: self)
        } catch {
            driver.close(on: self)
            if let path = unixListenPath {
                unlink(path)
            }
            unixListenPath = nil
            throw error
        }
        stateIndex += 1
        phase = .listening(driver)
    }

    /// GCD's accept sequence, on the delegate queue: newSocketQueueForConnection, the child (already
    /// connected and watched), didAcceptNewSocket; a child nobody kept is disconnected.
    func deliverAccepted(_ child: Int32, from address: SocketAddress) {
        guard let delegate = storedDelegate, let delegateQueue = storedDelegateQueue else {
            AcceptWithoutDelegate.reject(
                child, peer: address, warned: &warnedNoDelegate, logger: logger, face: "QueueSocket",
                metadata: logMetadata().metadata())
            return
        }
        let box = DelegateBox(delegate)
        let addressData = address.data
        let isUnix = unixListenPath != nil
        let tracker = tracker
        let accept: @Sendable () -> Void = { [self] in
            guard let delegate = box.delegate else {
                async { [self] in
                    AcceptWithoutDelegate.reject(
                        child, peer: address, warned: &warnedNoDelegate, logger: logger, face: "QueueSocket",
                        metadata: logMetadata().metadata())
                }
                return
            }
            let queue = delegate.newSocketQueueForConnection(fromAddress: addressData, on: self)
            var newSocket: QueueSocket? =
                (try? QueueSocket(
                    delegate: delegate, delegateQueue: delegateQueue, socketQueue: queue, resolver: resolver,
                    logger: logger, metrics: metricsSource))
                ?? QueueSocket(delegate: delegate, delegateQueue: delegateQueue, metrics: metricsSource)
            newSocket?.adoptAccepted(child, unix: isUnix, watching: true, tracker: tracker)
            delegate.socket(self, didAcceptNewSocket: newSocket!)
            if isKnownUniquelyReferenced(&newSocket) {
                // Nobody kept it: close it now, while the callback can still name it.
                newSocket?.disconnect()
            }
        }
        delegateQueue.async(execute: accept)
    }

    /// On the new socket's queue (synchronously, so nothing but the caller holds the socket after):
    /// a started, connected socket, with its sources set up when `watching`.
    /// `tracker`: the listener's, which the socket joins here, before anything can close it.
    func adoptAccepted(_ child: Int32, unix: Bool, watching: Bool, tracker: ConnectionTracker?) {
        sync {
            phase = .connected
            stateIndex += 1
            fd = child
            metricHandles?.opened(&countedOpen)
            if let tracker {
                self.tracker = tracker
                tracker.add(
                    self, drain: { [weak self] in self?.disconnectAfterWriting() },
                    close: { [weak self] in self?.disconnect() })
            }
            if unix {
                connectedURL = URL(fileURLWithPath: SocketOps.peerAddress(child)?.unixPath ?? "")
            }
            if watching {
                setUpSources()
            }
        }
    }

    /// Sets up the sources of an accepted socket adopted without them (unless it closed meanwhile).
    func startWatchingAccepted() {
        sync {
            guard connected, descriptorCloser == nil else { return }
            setUpSources()
            // A read, write or handshake started before the sources existed goes on: a read looks at
            // the descriptor (and watches it if nothing is there), the others once it is ready.
            if tlsHandshaking {
                watchReadable()
            } else if engine.readIsCurrent {
                doReadData()
            }
            if engine.hasCurrentWrite || tlsHandshaking {
                resumeWriteSource()
            }
        }
    }
}
