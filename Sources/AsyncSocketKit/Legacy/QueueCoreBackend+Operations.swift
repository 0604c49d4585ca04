import AsyncSocketCore
import CAsyncSocketShims
import Foundation

// The legacy operations of the queue-core engine: what runs synchronously in the caller (checks,
// onSocketWillConnect, disconnect and its callback), what QueueSocket does, and how its results are
// translated on the loop.
extension QueueCoreBackend {
    // MARK: Accepting

    func acceptOnInterface(_ interface: String?, port: UInt16) throws {
        try checkCanStart("accept", started: started)
        let socket = makeQueueSocket()
        socket.reusesPort = reusesPort
        do {
            try socket.accept(onInterface: Self.queueInterface(for: interface, port: port), port: port)
        } catch let error as QueueSocketError {
            queue = nil
            throw AsyncSocketUsageError("acceptOnInterface: \(error.message)")
        } catch let error as NSError where error.domain == NSPOSIXErrorDomain {
            queue = nil
            throw AsyncSocketError(.socketError, message: error.localizedDescription, underlying: error)
        }
        start(on: EventRunLoop.current, as: .listening(()))
    }

    /// The legacy interface as QueueSocket understands it: names are resolved the legacy way
    /// (getaddrinfo), keeping the first IPv4 address (else the first IPv6 one).
    private static func queueInterface(for interface: String?, port: UInt16) throws -> String? {
        guard let interface, !interface.isEmpty, interface != "localhost", interface != "loopback",
            SocketAddress.numeric(interface, port: port) == nil
        else { return interface }
        let (v4, v6) = try HostNames.localAddresses(interface, port: port, operation: "acceptOnInterface")
        return (v4 ?? v6)?.host
    }

    /// The listener accepted a connection: the legacy accept sequence.
    func accepted(_ childQueue: QueueCoreSocket) {
        guard let owner = callbackOwner, let delegate = owner.delegate else {
            AcceptWithoutDelegate.warnOnce(
                peer: childQueue.connectedAddress.flatMap { SocketAddress(data: $0) }, warned: &warnedNoDelegate,
                logger: logger, face: "RunLoopSocket", metadata: logMetadata.metadata())
            childQueue.disconnect()
            return
        }
        var child: RunLoopSocket? = RunLoopSocket(
            delegate: delegate, preBuffering: RunLoopSocket.defaultPreBuffering, engine: .queueCore,
            resolver: customResolver, logger: logger, metrics: metrics)
        guard let childBackend = child?.backend as? QueueCoreBackend else { return }
        childBackend.modes = modes
        // From `adopt` on, the child's QueueSocket reports (and sends its end-of-stream probes)
        // through the child: a delivery finding no loop would be dropped, and a probe lost so would
        // leave a peer's early close unreported for good. Until the child's own loop is known they
        // go to this one, and follow the child from there.
        childBackend.retarget {
            $0.loop = EventRunLoop.current
            $0.modes = modes
        }
        childBackend.adopt(childQueue)
        LegacyAcceptSequence.run(
            listener: owner, delegate: delegate, child: &child, backend: childBackend,
            listenerLoop: loop ?? EventRunLoop.current)
        // Watched from here on (unless the sequence closed it): a read the delegate queued in
        // didAcceptNewSocket tries the descriptor now.
        childQueue.startWatchingAccepted()
    }

    // MARK: Connecting

    func connectToHost(_ host: String, port: UInt16, timeout: TimeInterval) throws {
        try checkCanStart("connect", started: started)
        if let reason = HostNames.invalidReason(host) {
            throw SystemError.netDB(EAI_NONAME, message: "Invalid host name: \(reason)")
        }
        loop = EventRunLoop.current
        guard let owner, owner.delegateForCallbacks?.onSocketWillConnect(owner) ?? true else {
            loop = nil
            throw AsyncSocketError(.canceled)
        }
        let socket = makeQueueSocket()
        do {
            try socket.connect(toHost: host, onPort: port, withTimeout: timeout)
        } catch {
            queue = nil
            loop = nil
            throw Self.legacyStartError(error)
        }
        start(on: loop!, as: .connecting(QueueCoreConnect(byAddress: false)))
    }

    func connectToAddress(_ addressData: Data, viaInterface interfaceData: Data?, timeout: TimeInterval) throws {
        try checkCanStart("connect", started: started)
        let (address, interface) = try Self.connectAddresses(addressData, interface: interfaceData)
        let descriptor = try Self.makeConnectingSocket(for: address, boundTo: interface)
        loop = EventRunLoop.current
        phase = .askingWillConnect(socket: descriptor)
        guard let owner, owner.delegateForCallbacks?.onSocketWillConnect(owner) ?? true else {
            close(descriptor)
            phase = .idle
            loop = nil
            throw AsyncSocketError(.canceled)
        }
        let socket = makeQueueSocket()
        do {
            try socket.connect(socket: descriptor, to: address, timeout: timeout)
        } catch {
            close(descriptor)
            phase = .idle
            queue = nil
            loop = nil
            throw Self.legacyStartError(error)
        }
        start(on: loop!, as: .connecting(QueueCoreConnect(byAddress: true)))
    }

    /// A QueueSocket's synchronous connect failure in legacy terms: −1, with the error's own sentence
    /// and the error underneath.
    private static func legacyStartError(_ error: any Error) -> AsyncSocketError {
        let underlying = error as NSError
        return AsyncSocketError(.socketError, message: underlying.localizedDescription, underlying: underlying)
    }

    private func start(on loop: EventRunLoop, as phase: QueueCorePhase) {
        self.loop = loop
        self.phase = phase
        retainedOwner = owner
        becomePresent(on: loop)
    }

    /// Registers the socket's presence on `loop` (its thread).
    func becomePresent(on loop: EventRunLoop) {
        presence?.invalidate()
        presence = loop.addReusableTimer(modes: modes) { _ in }
    }

    /// Connected (or, for an accepted socket, adopted on its loop): report it, then watch for the
    /// peer's close.
    func didConnect(host: String, port: UInt16) {
        guard started else { return }
        phase = .connected
        watchForPeerClose()
        report { delegate, owner in delegate.onSocket(owner, didConnectToHost: host, port: port) }
    }

    /// The peer's close while no read waits for it (the native engine's RDHUP watch), and bytes for a
    /// read that waits (QueueCoreReadWatch.swift).
    private func watchForPeerClose() {
        guard let loop, let queue else { return }
        let descriptor = queue.legacySocketFD
        guard descriptor >= 0 else { return }
        cancelCloseWatch()
        let reads = queue.loopReads
        let source = loop.addFileSource(descriptor, modes: modes) { [weak self, weak queue] event in
            guard event != .readable else {
                guard reads.isWanted else { return reads.apply() }
                queue?.loopSawReadable()
                return
            }
            self?.closeWatch?.wantsPeerClose = false
            queue?.peerClosedWhileIdle()
        }
        source.wantsPeerClose = true
        closeWatch = source
        reads.attach(source)
    }

    /// Stops the loop's watch of the descriptor.
    private func cancelCloseWatch() {
        closeWatch?.cancel()
        closeWatch = nil
        queue?.loopReads.detach()
    }

    // MARK: Reads, writes, TLS

    func read(_ request: ReadRequest) {
        queue?.legacyRead(request, after: &waitingWrites)
    }

    /// The first write of a loop pass starts at once (one hop onto the socket queue, as a lone
    /// ping-pong reply needs); the ones after it in the same pass wait in `waitingWrites`, reach the
    /// QueueSocket with the next call that goes there, and start together before the loop next
    /// polls, gathered into one send behind the first.
    func write(_ data: Data, timeout: TimeInterval, tag: Int) {
        guard let queue else { return }
        guard let loop, loop.isCurrent else {
            handOverWaitingWrites()
            queue.legacyWrite(data, timeout: timeout, tag: tag)
            return
        }
        if flushItem == nil {
            flushItem = PerformItem(modes: modes) { [weak self] in self?.flushWritesNow() }
        }
        if flushItem!.isScheduled {
            waitingWrites.append(LegacyWrite(data: data, timeout: timeout, tag: tag))
            writesWaiting = true
        } else {
            queue.legacyWrite(data, timeout: timeout, tag: tag)
            loop.runBeforePolling(flushItem!)
        }
    }

    /// Starts the writes that only queued (before the loop polls, or now: the loop is changing).
    func flushWritesNow() {
        guard dropPendingFlush() else { return }
        queue?.legacyFlushWrites(after: &waitingWrites)
    }

    /// Cancels the before-polling flush; returns whether writes were waiting for it.
    private func dropPendingFlush() -> Bool {
        if let flushItem {
            loop?.cancel(flushItem)
        }
        defer { writesWaiting = false }
        return writesWaiting
    }

    /// Hands the writes waiting on the loop to the QueueSocket (queued, not started), so a call that
    /// looks at its queues sees them.
    func handOverWaitingWrites() {
        guard !waitingWrites.isEmpty else { return }
        queue?.legacyEnqueueWrites(&waitingWrites)
    }

    /// The QueueSocket, once the writes waiting on the loop are in it.
    var syncedQueue: QueueCoreSocket? {
        handOverWaitingWrites()
        return queue
    }

    func startTLS(_ settings: Any) {
        if let typed = settings as? TLSSettings {
            syncedQueue?.startTLS(typed)
        } else {
            syncedQueue?.startTLS(settings as? [String: Any] ?? [:])
        }
    }

    /// The delegate and the public socket callbacks go to, while the socket is started and both
    /// are still there.
    private var callbackTarget: (delegate: any RunLoopSocketDelegate, owner: RunLoopSocket)? {
        guard started, let owner = callbackOwner, let delegate = owner.delegateForCallbacks else { return nil }
        return (delegate, owner)
    }

    /// Calls the delegate with the public socket, if both are still there.
    func report(_ body: (any RunLoopSocketDelegate, RunLoopSocket) -> Void) {
        guard let (delegate, owner) = callbackTarget else { return }
        body(delegate, owner)
    }

    /// One of the frequent callbacks, as the legacy delegate sees it.
    func report(_ callback: ConnectionCallback) {
        guard let (delegate, owner) = callbackTarget else { return }
        delegate.deliver(callback, from: owner)
    }

    // MARK: Closing

    func disconnect() {
        checkThread("disconnect()")
        fullClose()
    }

    func disconnectAfter(reading: Bool, writing: Bool) {
        if reading && writing {
            syncedQueue?.disconnectAfterReadingAndWriting()
        } else if reading {
            syncedQueue?.disconnectAfterReading()
        } else {
            syncedQueue?.disconnectAfterWriting()
        }
    }

    /// The QueueSocket closed by itself: a nil error is a disconnect-after (didDisconnect only);
    /// anything else is an error close (willDisconnect with the legacy error, unreadData, then
    /// didDisconnect).
    func queueSocketClosed(error: (any Error)?, closing record: LegacyErrorClose?) {
        guard started else { return }
        guard let error else {
            fullClose()
            return
        }
        closing = record ?? LegacyErrorClose(unread: Data())
        closeWithLegacyError(legacyError(error))
    }

    /// QueueSocket's errors in legacy terms.
    private func legacyError(_ error: any Error) -> (any Error)? {
        guard let queueError = error as? QueueSocketError else {
            if case .connecting(let connect) = phase, connect.byAddress, let posix = error as NSError?,
                posix.domain == NSPOSIXErrorDomain
            {
                return AsyncSocketError(.socketError, message: posix.localizedDescription, underlying: posix)
            }
            return error
        }
        switch queueError.code {
        case .closed: return nil
        case .readTimeout: return AsyncSocketError(.readTimeout)
        case .writeTimeout: return AsyncSocketError(.writeTimeout)
        case .readMaxedOut: return AsyncSocketError(.readMaxedOut)
        case .connectTimeout: return AsyncSocketError(.connectTimeout)
        case .noError, .badConfig, .badParam, .other: return AsyncSocketError(.socketError, message: queueError.message)
        }
    }

    func fullClose() {
        let wasStarted = started
        let keptOwner = callbackOwner
        epoch += 1
        _ = dropPendingFlush()
        waitingWrites.removeAll()
        cancelCloseWatch()
        presence?.invalidate()
        presence = nil
        queue?.disconnect()
        queue = nil
        loop = nil
        phase = .idle
        closing?.release()
        closing = nil
        retainedOwner = nil
        if wasStarted {
            reportDisconnected(keptOwner)
        }
    }

    // MARK: Run loops and modes

    func moveToRunLoop(_ newLoop: EventRunLoop) -> Bool {
        checkThread("moveToRunLoop(_:)")
        guard newLoop !== loop, started, loop != nil else { return true }
        flushWritesNow()
        cancelCloseWatch()
        presence?.invalidate()
        presence = nil
        loop = newLoop
        let wasConnected = connected
        newLoop.perform(inModes: modes) { [self] in
            guard started, loop === newLoop else { return }
            becomePresent(on: newLoop)
            if wasConnected {
                watchForPeerClose()
            }
        }
        return true
    }

    func setRunLoopModes(_ newModes: [RunLoopMode]) -> Bool {
        checkThread("setRunLoopModes(_:)")
        guard !newModes.isEmpty else { return false }
        guard newModes != modes else { return true }
        modes = newModes
        flushItem?.modes = newModes
        retarget { $0.modes = newModes }
        closeWatch?.setModes(newModes)
        queue?.loopReads.setModes(newModes)
        presence?.setModes(newModes)
        return true
    }
}

extension QueueCoreBackend: LegacyClosing {
    var closeOwner: RunLoopSocket? { callbackOwner }
    var closeGeneration: Int { epoch }

    /// The record `closing` (set before) answers unreadData and the getters.
    func beginErrorClose(atEnd: Bool) {
        closingAtEnd = atEnd
    }
}

extension QueueCoreBackend: LegacyAcceptedChild {
    var closedDuringAccept: Bool { queue == nil }

    func beginAccept() {
        phase = .accepted
    }

    func refuseAccept(keeping child: RunLoopSocket) {
        retainedOwner = child
        loop = EventRunLoop.current
        disconnect()
    }

    func finishAccept(on childLoop: EventRunLoop, keeping child: RunLoopSocket) {
        retainedOwner = child
        loop = childLoop
        let peer = queue?.connectedAddress.flatMap { SocketAddress(data: $0) }
        deliver(epoch: epoch) { backend in
            backend.becomePresent(on: childLoop)
            backend.didConnect(host: peer?.host ?? "", port: peer?.port ?? 0)
        }
    }
}
