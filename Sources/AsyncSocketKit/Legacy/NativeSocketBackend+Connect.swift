import AsyncSocketCore
import CAsyncSocketShims
import Foundation

// Connecting (2.2–2.4). By name: evdns resolves off the loop, then every address is tried with a
// non-blocking connect, alternating families and starting the next one after a short delay while
// earlier ones are still in flight; the first to complete wins. By address: one non-blocking connect,
// with onSocketWillConnect seeing the descriptor first.

/// A connect in progress.
final class ConnectAttempt {
    /// A connect by address reports an asynchronous failure as AsyncSocketError -1 (2.3); a connect
    /// by name reports the system error (2.2).
    let byAddress: Bool
    var resolving = false
    var pending: [SocketAddress] = []
    var inFlight: [(fd: Int32, source: RunLoopFileSource?)] = []
    var nextTimer: RunLoopTimer?
    var lastError: NSError?

    init(byAddress: Bool) {
        self.byAddress = byAddress
    }

    /// Closes every descriptor still being tried.
    func cancel() {
        nextTimer?.invalidate()
        nextTimer = nil
        for attempt in inFlight {
            attempt.source?.cancel()
            close(attempt.fd)
        }
        inFlight.removeAll()
        pending.removeAll()
    }
}

extension NativeSocketBackend {
    /// How long an address gets before the next one is tried as well.
    static let alternateAddressDelay: TimeInterval = 0.3

    func checkCanStart(_ verb: String) throws {
        guard owner?.delegate != nil else {
            throw AsyncSocketUsageError("Attempting to \(verb) without a delegate. Set a delegate first.")
        }
        guard !started else {
            throw AsyncSocketUsageError(
                "Attempting to \(verb) while connected or accepting connections. Disconnect first.")
        }
    }

    static func invalidHostReason(_ host: String) -> String? {
        if host.isEmpty { return "the host name is empty" }
        if host.utf8.contains(0) { return "the host name contains a NUL byte" }
        if host.utf8.count > 253 { return "the host name is longer than 253 bytes" }
        return nil
    }

    func connectToHost(_ host: String, port: UInt16, timeout: TimeInterval) throws {
        try checkCanStart("connect")
        if let reason = Self.invalidHostReason(host) {
            throw SystemError.netDB(EAI_NONAME, message: "Invalid host name: \(reason)")
        }
        engine.reset()
        let loop = EventRunLoop.current
        self.loop = loop
        guard let owner, delegate?.onSocketWillConnect(owner) ?? true else {
            self.loop = nil
            throw AsyncSocketError(.canceled)
        }
        started = true
        retainedOwner = owner
        connectHost = host
        let attempt = ConnectAttempt(byAddress: false)
        attempt.resolving = true
        connectAttempt = attempt
        let generation = self.generation
        let modes = self.modes
        (customResolver ?? .system).resolve(host, port: port) { [weak self] result in
            let backend = self
            loop.perform(inModes: modes) { backend?.resolved(result, generation: generation) }
        }
        armConnectTimer(timeout)
    }

    func connectToAddress(_ addressData: Data, viaInterface interfaceData: Data?, timeout: TimeInterval) throws {
        try checkCanStart("connect")
        let (address, interface) = try Self.connectAddresses(addressData, interface: interfaceData)
        engine.reset()
        let socket = try Self.makeConnectingSocket(for: address, boundTo: interface)
        let loop = EventRunLoop.current
        self.loop = loop
        let attempt = ConnectAttempt(byAddress: true)
        attempt.inFlight = [(socket, nil)]
        connectAttempt = attempt
        guard let owner, delegate?.onSocketWillConnect(owner) ?? true else {
            attempt.cancel()
            connectAttempt = nil
            self.loop = nil
            throw AsyncSocketError(.canceled)
        }
        if case .failed(let code) = SocketOps.connect(socket, to: address) {
            attempt.cancel()
            connectAttempt = nil
            self.loop = nil
            let error = SystemError.posix(code, "connect")
            throw AsyncSocketError(.socketError, message: error.localizedDescription, underlying: error)
        }
        attempt.inFlight = [(socket, watch(connecting: socket))]
        started = true
        retainedOwner = owner
        armConnectTimer(timeout)
    }

    /// The connect timer exists (disarmed without a timeout) for the whole connect: it is what keeps
    /// the socket's modes non-empty while a name is resolved off the loop, so a `run()` waiting for
    /// the connection does not return at once as "finished" (the original's CFStreams were scheduled
    /// on the loop from the start).
    private func armConnectTimer(_ timeout: TimeInterval) {
        connectTimer = makeTimer { $0.closeWithError(AsyncSocketError(.connectTimeout)) }
        guard timeout >= 0 else { return }
        connectTimer?.rearm(after: timeout)
        connectDeadline = EventRunLoop.monotonicDeadline(seconds: timeout)
    }

    private func resolved(_ result: Result<[SocketAddress], NSError>, generation: Int) {
        guard generation == self.generation, let attempt = connectAttempt, attempt.resolving else { return }
        attempt.resolving = false
        switch result {
        case .failure(let error):
            closeWithError(error)
        case .success(let addresses):
            attempt.pending = Self.alternatingFamilies(addresses)
            startNextAddress()
        }
    }

    /// The resolver's order, but alternating families from the first one on.
    static func alternatingFamilies(_ addresses: [SocketAddress]) -> [SocketAddress] {
        guard let first = addresses.first else { return [] }
        var same = addresses.filter { $0.family == first.family }
        var other = addresses.filter { $0.family != first.family }
        var ordered: [SocketAddress] = []
        while !same.isEmpty || !other.isEmpty {
            if !same.isEmpty { ordered.append(same.removeFirst()) }
            if !other.isEmpty { ordered.append(other.removeFirst()) }
        }
        return ordered
    }

    func watch(connecting socket: Int32) -> RunLoopFileSource? {
        guard let loop else { return nil }
        let source = loop.addFileSource(socket, modes: modes) { [self] _ in
            connectFinished(socket)
        }
        source.wantsWritable = true
        return source
    }

    /// Tries the next address, and arms the timer that adds the one after it.
    func startNextAddress() {
        guard let attempt = connectAttempt else { return }
        attempt.nextTimer?.invalidate()
        attempt.nextTimer = nil
        guard !attempt.pending.isEmpty else {
            if attempt.inFlight.isEmpty {
                failConnect()
            }
            return
        }
        let address = attempt.pending.removeFirst()
        switch SocketOps.makeStreamSocket(family: address.family) {
        case .failure(let error):
            attempt.lastError = error
            startNextAddress()
            return
        case .success(let socket):
            if case .failed(let code) = SocketOps.connect(socket, to: address) {
                close(socket)
                attempt.lastError = SystemError.posix(code, "connect")
                startNextAddress()
                return
            }
            attempt.inFlight.append((socket, watch(connecting: socket)))
        }
        if !attempt.pending.isEmpty, let loop {
            attempt.nextTimer = loop.addTimer(after: Self.alternateAddressDelay, modes: modes) { [weak self] _ in
                self?.startNextAddress()
            }
        }
    }

    private func connectFinished(_ socket: Int32) {
        guard let attempt = connectAttempt, let index = attempt.inFlight.firstIndex(where: { $0.fd == socket }) else {
            return
        }
        let code = SocketOps.pendingError(socket)
        let (_, source) = attempt.inFlight.remove(at: index)
        source?.cancel()
        guard code == 0 else {
            close(socket)
            attempt.lastError = SystemError.posix(code, "connect")
            if attempt.inFlight.isEmpty {
                startNextAddress()
            }
            return
        }
        attempt.cancel()
        connectAttempt = nil
        fd = socket
        establishConnection()
    }

    private func failConnect() {
        guard let attempt = connectAttempt else { return }
        let error = attempt.lastError ?? SystemError.posix(ECONNREFUSED, "connect")
        if attempt.byAddress {
            closeWithError(AsyncSocketError(.socketError, message: error.localizedDescription, underlying: error))
        } else {
            closeWithError(error)
        }
    }

    /// Both "streams" are open: report the connection, then try the queued read and write at once
    /// (2.1: a read queued before the connection completed may finish in this same callout).
    func establishConnection() {
        connectTimer?.invalidate()
        connectTimer = nil
        connectDeadline = nil
        peerAddress = SocketOps.peerAddress(fd)
        connected = true
        writableHint = true
        attachSource()
        let generation = self.generation
        if let owner, let peer = peerAddress {
            delegate?.onSocket(owner, didConnectToHost: peer.host ?? "", port: peer.port)
        }
        guard generation == self.generation else { return }
        maybeDequeueRead()
        guard generation == self.generation else { return }
        maybeDequeueWrite()
    }

    /// Registers the connected descriptor on the loop, watching for bytes (and the peer's close).
    func attachSource() {
        guard let loop, fd >= 0 else { return }
        let source = loop.addFileSource(fd, modes: modes) { [self] event in
            handle(event)
        }
        source.wantsReadable = true
        self.source = source
    }
}
