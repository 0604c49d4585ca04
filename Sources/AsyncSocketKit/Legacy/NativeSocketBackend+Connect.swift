import AsyncSocketCore
import CAsyncSocketShims
import Foundation

// Connecting. By name: evdns resolves off the loop, then a ConnectDriver tries every
// address in the legacy order (ConnectOrder.legacy). By address: the socket is made first, so
// onSocketWillConnect sees its descriptor, and the driver adopts it.

/// A connect in progress: resolving a name (no driver yet), or racing its addresses.
struct NativeConnecting {
    /// A connect by address reports an asynchronous failure as AsyncSocketError -1; a connect
    /// by name reports the system error.
    let byAddress: Bool
    /// The race over the addresses (none while a name is resolved).
    var driver: ConnectDriver<NativeSocketBackend>?

    var isResolving: Bool { !byAddress && driver == nil }
}

extension NativeSocketBackend {
    func connectToHost(_ host: String, port: UInt16, timeout: TimeInterval) throws {
        try checkCanStart("connect", started: started)
        if let reason = HostNames.invalidReason(host) {
            throw SystemError.netDB(EAI_NONAME, message: "Invalid host name: \(reason)")
        }
        engine.reset()
        let loop = EventRunLoop.current
        self.loop = loop
        guard let owner, owner.delegateForCallbacks?.onSocketWillConnect(owner) ?? true else {
            self.loop = nil
            throw AsyncSocketError(.canceled)
        }
        phase = .connecting(NativeConnecting(byAddress: false))
        retainedOwner = owner
        connectHost = host
        let generation = self.generation
        let modes = self.modes
        (customResolver ?? .system).resolve(host, port: port) { [weak self] result in
            let backend = self
            loop.perform(inModes: modes) { backend?.resolved(result, generation: generation) }
        }
        armConnectTimer(timeout)
    }

    func connectToAddress(_ addressData: Data, viaInterface interfaceData: Data?, timeout: TimeInterval) throws {
        try checkCanStart("connect", started: started)
        let (address, interface) = try Self.connectAddresses(addressData, interface: interfaceData)
        engine.reset()
        let socket = try Self.makeConnectingSocket(for: address, boundTo: interface)
        self.loop = EventRunLoop.current
        phase = .askingWillConnect(socket: socket)
        let driver = makeConnectDriver([address], stagger: ConnectOrder.legacyStagger)
        guard let owner, owner.delegateForCallbacks?.onSocketWillConnect(owner) ?? true else {
            close(socket)
            phase = .idle
            self.loop = nil
            throw AsyncSocketError(.canceled)
        }
        do {
            try driver.adopt(socket, connectingTo: address, on: self)
        } catch {
            close(socket)
            phase = .idle
            self.loop = nil
            throw AsyncSocketError(.socketError, message: error.localizedDescription, underlying: error as NSError)
        }
        phase = .connecting(NativeConnecting(byAddress: true, driver: driver))
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
        guard generation == self.generation, connecting?.isResolving == true else { return }
        switch result {
        case .failure(let error):
            closeWithError(error)
        case .success(let addresses):
            let driver = makeConnectDriver(ConnectOrder.legacy(addresses), stagger: ConnectOrder.legacyStagger)
            phase = .connecting(NativeConnecting(byAddress: false, driver: driver))
            driver.start(on: self)
        }
    }

    private func makeConnectDriver(_ addresses: [SocketAddress], stagger: Double) -> ConnectDriver<NativeSocketBackend>
    {
        ConnectDriver(
            addresses: addresses, stagger: stagger,
            won: { [unowned self] socket in
                fd = socket
                establishConnection()
            },
            failed: { [unowned self] error in
                if connecting?.byAddress == true {
                    closeWithError(
                        AsyncSocketError(
                            .socketError, message: error.localizedDescription, underlying: error as NSError))
                } else {
                    closeWithError(error)
                }
            })
    }

    /// Both "streams" are open: report the connection, then try the queued read and write at once
    /// (as in the original, a read queued before the connection completed may finish in this same
    /// callout).
    func establishConnection() {
        connectTimer?.invalidate()
        connectTimer = nil
        connectDeadline = nil
        peerAddress = SocketOps.peerAddress(fd)
        phase = .connected
        writableHint = true
        log(.debug, "connected")
        metricHandles?.opened(&countedOpen)
        attachSource()
        let generation = self.generation
        if let owner = callbackOwner, let peer = peerAddress {
            owner.delegateForCallbacks?.onSocket(owner, didConnectToHost: peer.host ?? "", port: peer.port)
        }
        // Closed, or moved to another loop by the callback (the move schedules both dequeues there):
        // nothing more here.
        guard goesOn(after: generation) else { return }
        maybeDequeueRead()
        guard goesOn(after: generation) else { return }
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
