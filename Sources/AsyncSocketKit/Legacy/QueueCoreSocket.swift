import AsyncSocketCore
import Dispatch
import Foundation

// The connection of RunLoopSocket's queue core: a QueueSocket (its write source, timers, connect race
// and the connection driver) with the run-loop socket's rules where GCD's differ. Readiness to read
// comes from the socket's loop, not a dispatch read source (QueueCoreReadWatch.swift). Its callbacks
// are handed to the loop's batch on the socket queue (QueueCoreBridge, QueueCoreBackend.deliver)
// instead of the delegate queue; the peer's end waits for a probe to travel to the loop behind the
// callbacks sent before it (reads those callbacks queue may still want the bytes); an error close
// keeps the unread bytes, the descriptor and the addresses for willDisconnect (LegacyErrorClose); a
// listener hands its children to the loop without a hop. QueueSocket's own code knows none of this:
// it calls the hooks overridden here.
final class QueueCoreSocket: QueueSocket, @unchecked Sendable {
    // @unchecked Sendable: as QueueSocket; `lastErrorClose` is behind a `Lock`, `loopReads` keeps its
    // shared state behind one; `coreBridge`, `route` and `waitsForLoopReadable` are touched on the
    // socket queue only.

    /// The bridge of the backend that adopted this socket: timeout questions go to it directly.
    weak var coreBridge: QueueCoreBridge?
    /// Where the frequent callbacks go (held strongly: see QueueCoreDeliveries.swift), with this
    /// connection's number there; set by the adoption.
    private var route: (deliveries: QueueCoreDeliveries, epoch: Int)?
    /// Whether a read or write source's handler runs (socket queue only).
    private var inSourceHandler = false
    /// Whether a callback handed over in this source handler started a batch the loop has not been
    /// woken for (socket queue only).
    private var wakeUpOwed = false
    /// What decides when the peer's end closes the socket.
    var legacyEnd = LegacyEndWatch()
    /// The loop's watch for bytes to read (this connection has no dispatch read source).
    let loopReads = QueueCoreReadWatch()
    /// Whether a read waits for the loop to see bytes (socket queue only; `loopReads` keeps the same
    /// for the loop).
    private var waitsForLoopReadable = false
    /// What the last error close kept for willDisconnect (unread bytes, the still-open descriptor,
    /// the addresses): set on the socket queue before the disconnect callback is handed over, taken
    /// by it without waiting for the socket queue (a sync there from thousands of callbacks at once
    /// starved libdispatch's thread pool).
    let lastErrorClose = Lock<LegacyErrorClose?>(nil)

    override package var semantics: Semantics { .legacy }
    override var logFace: String { "RunLoopSocket" }
    override var logEngine: String { "queue-core" }
    override class var metricsFace: String { "RunLoopSocket" }
    override class var metricsEngine: String { "queue-core" }

    // MARK: Callbacks go to the loop

    /// Callbacks are handed to the delegate (a bridge, which only queues them for the loop and never
    /// blocks) here, on the socket queue, and counted for the end-of-stream probe.
    override func notify(_ body: @escaping @Sendable (any QueueSocketDelegate) -> Void) {
        guard let delegate = storedDelegate, storedDelegateQueue != nil else { return }
        legacyEnd.callbacksSent &+= 1
        body(delegate)
    }

    /// The callback goes into the loop's batch as it is (no closure, no delegate method to turn it
    /// back from).
    override func handOver(_ callback: ConnectionCallback) {
        guard let route else { return super.handOver(callback) }
        legacyEnd.callbacksSent &+= 1
        let owed = route.deliveries.deliver(epoch: route.epoch, .callback(callback), wakingLoop: !inSourceHandler)
        wakeUpOwed = wakeUpOwed || owed
    }

    /// A source handler's callbacks wake the loop when the handler is done, not at the first of them:
    /// woken earlier, the loop would find the socket queue still held by this thread and wait for it
    /// in its next read or write (Benchmarks/QUEUE-CORE.md).
    override func handleSourceEvent(_ body: () -> Void) {
        inSourceHandler = true
        body()
        inSourceHandler = false
        if wakeUpOwed, let route {
            wakeUpOwed = false
            route.deliveries.wakeLoop()
        }
    }

    /// The question travels to the loop with the callbacks and its answer comes back to the socket
    /// queue: no thread waits for it.
    override func askForMoreTime(
        _ direction: TransferDirection, _ query: TimeoutQuery, reply: @escaping @Sendable (TimeInterval) -> Void
    ) {
        guard let coreBridge else { return super.askForMoreTime(direction, query, reply: reply) }
        legacyEnd.callbacksSent &+= 1
        coreBridge.askTimeout(direction, query, reply: reply)
    }

    // MARK: Reading and the peer's end

    /// The loop watches the descriptor for bytes (QueueCoreReadWatch.swift): no dispatch read source is
    /// made, at the start or later.
    override var watchesReadableFromStart: Bool { false }
    override var watchesReadableWithDispatch: Bool { false }

    override func watchReadable() {
        guard !waitsForLoopReadable else { return }
        waitsForLoopReadable = true
        loopReads.want(true)
    }

    override func stopWatchingReadable() {
        guard waitsForLoopReadable else { return }
        waitsForLoopReadable = false
        loopReads.want(false)
    }

    /// Before the loop is asked to watch, a look at the descriptor (`poll`, no buffer) says whether
    /// bytes or the end are there already: then the read goes on now.
    override func waitForBytes() {
        if !waitsForLoopReadable, descriptorCloser != nil, fd >= 0, SocketOps.readiness(fd) != .nothing {
            readableHint = true
            return doReadData()
        }
        watchReadable()
    }

    /// The loop saw bytes (or the end, or an error) while a read or the handshake waited for them: the
    /// pass runs here, on the loop's thread, holding the socket queue; its callbacks join the loop's
    /// batch. A read meets the end or the error itself (legacy reports a reset as the POSIX error,
    /// and still delivers what came before it).
    func loopSawReadable() {
        sync {
            guard waitsForLoopReadable else { return }
            guard fd >= 0, connected else { return stopWatchingReadable() }
            readableHint = true
            descriptorReadable()
        }
    }

    /// The loop's close watch saw the peer's FIN.
    override var endNoticedWithoutRead: Bool { legacyEnd.peerFinished }

    /// A reset is the POSIX error it is (pending in SO_ERROR when no read consumed it), as the native
    /// engine reports it; a clean end is `closed` (a nil error for the legacy delegate).
    override var endOfStreamError: any Error {
        let code = fd >= 0 ? SocketOps.pendingError(fd) : 0
        return code == 0 ? QueueSocketError(.closed) : SystemError.posix(code, "read")
    }

    /// Sends the probe the way callbacks go: handed over here, on the socket queue, behind the
    /// callbacks sent before it (one at a time).
    override func confirmEndBehindCallbacks() {
        stopWatchingReadable()
        guard legacyEnd.probeMark == nil else { return }
        guard let probe = legacyEnd.probe else {
            return closeWithError(endOfStreamError)
        }
        legacyEnd.probeMark = legacyEnd.callbacksSent
        probe(stateIndex)
    }

    /// The probe is back from the loop (after the callbacks sent before it, and after the reads those
    /// callbacks queued).
    func legacyProbeReturned(stateIndex index: Int) {
        async { [self] in
            guard index == stateIndex, started, connected, let mark = legacyEnd.probeMark else { return }
            legacyEnd.probeMark = nil
            peerEnded(callbacksInFlight: mark != legacyEnd.callbacksSent)
        }
    }

    /// The peer closed its side, as seen by the backend's own watch on the loop (once: the watch
    /// stops; when the read queue next runs dry, the socket remembers and ends).
    func peerClosedWhileIdle() {
        async { [self] in
            guard connected, !tlsHandshaking else { return }
            legacyEnd.peerFinished = true
            if engine.readIsCurrent {
                readableHint = true
                doReadData()
            } else {
                // Bytes sent before the close may still wait in the kernel: the end is the
                // transport's to report, when a read meets it.
                peerEnded()
            }
        }
    }

    // MARK: Closing

    /// An error close keeps what willDisconnect needs: the unread bytes, and the descriptor (closed
    /// when the record is released) and addresses the getters answer meanwhile.
    override func closing(with error: (any Error)?) -> Bool {
        guard error != nil, fd >= 0 else { return false }
        engine.prepareErrorClose()
        let unread: Data
        if let tls, isSecured {
            unread = engine.collectUnreadData(from: tls)
        } else {
            unread = engine.collectUnreadData(from: self)
        }
        let keepsDescriptor = descriptorCloser != nil
        let record = LegacyErrorClose(
            unread: unread, descriptor: keepsDescriptor ? fd : -1, peer: connectedSocketAddress,
            local: localSocketAddress, closer: keepsDescriptor ? descriptorCloser : nil)
        lastErrorClose.withLock { $0 = record }
        return keepsDescriptor
    }

    override func didTearDown() {
        legacyEnd.reset()
        stopWatchingReadable()
    }

    /// What the last error close kept for willDisconnect, handed over once; from any thread, without
    /// waiting for the socket queue.
    func takeErrorClose() -> LegacyErrorClose? {
        lastErrorClose.withLock { record in
            defer { record = nil }
            return record
        }
    }

    // MARK: Accepting

    /// The child is a queue-core socket too, handed to the loop here, on the socket queue, through
    /// the listener's bridge (it only queues the hand-over). The loop starts watching it once the
    /// legacy accept sequence has adopted it (QueueCoreBackend.accepted), so whatever it meets
    /// reaches the child that adopted it.
    override func accepted(_ child: Int32, from address: SocketAddress) {
        guard let bridge = storedDelegate as? QueueCoreBridge else {
            return AcceptWithoutDelegate.reject(
                child, peer: address, warned: &warnedNoDelegate, logger: logger, face: "RunLoopSocket",
                metadata: logMetadata().metadata())
        }
        let newSocket = QueueCoreSocket(
            delegate: bridge, delegateQueue: bridge.queue, resolver: resolver, logger: logger,
            metrics: metricsSource)
        // Tracked as the RunLoopSocket it becomes (LegacyAcceptSequence.swift), not here.
        newSocket.adoptAccepted(child, unix: unixListenPath != nil, watching: false, tracker: nil)
        bridge.socket(self, didAcceptNewSocket: newSocket)
    }

    // MARK: Adoption and the loop's calls

    /// Joins `bridge`'s backend (before it starts, or on the loop for an accepted socket):
    /// `peerEndedProbe` carries an end-of-stream probe (its argument) to the loop, where it must call
    /// ``legacyProbeReturned(stateIndex:)``; it is called on the socket queue. The bridge becomes the
    /// delegate in the same step, so no callback takes the old path after it and overtakes one sent
    /// before.
    func adopt(
        by bridge: QueueCoreBridge, preBuffering: Bool, peerEndedProbe: @escaping @Sendable (Int) -> Void
    ) {
        sync {
            storedDelegate = bridge
            storedDelegateQueue = bridge.queue
            coreBridge = bridge
            route = (bridge.deliveries, bridge.epoch)
            legacyEnd.probe = peerEndedProbe
            engine.configuration.prebuffering = preBuffering
        }
    }

    /// Queues `writes` (a pass's writes waiting on the loop, see `QueueCoreBackend.write`), then a
    /// read, and runs the dequeue the read leads to before returning, on the calling thread when the
    /// socket queue is idle (no thread hop per read). `writes` is emptied. The read's callbacks still
    /// reach the legacy delegate on a later pass of the loop, never inside this call.
    func legacyRead(_ request: ReadRequest, after writes: inout [LegacyWrite]) {
        sync {
            enqueueWaiting(&writes)
            enqueueOperation("read", tag: request.tag, { engine.enqueueRead(request) }) { maybeDequeueRead() }
        }
    }

    /// Queues a write from the legacy socket's loop, as ``legacyRead(_:after:)`` does a read, and
    /// starts it.
    func legacyWrite(_ data: Data, timeout: TimeInterval, tag: Int) {
        sync {
            enqueueOperation("write", tag: tag, { engine.enqueueWrite(data, timeout: timeout, tag: tag) }) {
                maybeDequeueWrite()
            }
        }
    }

    /// Queues `writes` without starting them (emptying `writes`).
    func legacyEnqueueWrites(_ writes: inout [LegacyWrite]) {
        sync { enqueueWaiting(&writes) }
    }

    /// Queues `writes` and starts the queued writes (those behind the current one join its batch),
    /// in one gathered send.
    func legacyFlushWrites(after writes: inout [LegacyWrite]) {
        sync {
            enqueueWaiting(&writes)
            maybeDequeueWrite()
        }
    }

    private func enqueueWaiting(_ writes: inout [LegacyWrite]) {
        for write in writes {
            enqueueOperation(
                "write", tag: write.tag, { engine.enqueueWrite(write.data, timeout: write.timeout, tag: write.tag) },
                thenDequeue: {})
        }
        writes.removeAll(keepingCapacity: true)
    }

    /// Turns prebuffering on (legacy `enablePreBuffering`).
    func enablePreBufferingForLegacy() {
        sync { engine.configuration.prebuffering = true }
    }

    /// Connects `socket` (made, and possibly bound, by the caller, who has shown it to
    /// onSocketWillConnect) to `address`.
    func connect(socket: Int32, to address: SocketAddress, timeout: TimeInterval) throws {
        try syncThrowing {
            guard storedDelegate != nil, storedDelegateQueue != nil, !started else {
                throw QueueSocketError(.badConfig, "Attempting to connect while connected or without a delegate")
            }
            engine.reset()
            let driver = makeConnectDriver([address], local: nil)
            try driver.adopt(socket, connectingTo: address, on: self)
            stateIndex += 1
            phase = .connecting(driver)
            if timeout >= 0 {
                let index = stateIndex
                connectTimer = armDispatchTimer(connectTimer, after: timeout) { socket in
                    guard index == socket.stateIndex, !socket.connected else { return }
                    socket.closeWithError(QueueSocketError(.connectTimeout))
                }
            }
        }
    }

    /// Whether nothing is queued or in progress (legacy `canSafelySetDelegate`).
    var isIdleForLegacy: Bool { sync { engine.isIdle } }

    /// The current read's and write's progress (legacy progress methods).
    var legacyProgress: (read: TransferProgress, write: TransferProgress) {
        sync { (engine.readProgress, engine.writeProgress) }
    }

    /// What the socket holds, from any thread.
    var legacyQueueSizes: QueueSizes { sync { engine.queueSizes } }

    /// What this socket's log lines carry now, from any thread.
    var legacyLogMetadata: SocketLogMetadata { sync { logMetadata() } }

    /// Sets the write watermarks, from any thread.
    func legacySetWriteMarks(_ marks: WriteMarks?) {
        sync { engine.setWriteWatermarks(marks) }
    }

    /// Sets the prebuffer limit, from any thread.
    func legacySetMaxPrebufferSize(_ bytes: Int) {
        sync { engine.configuration.maxPrebufferSize = bytes }
    }

    /// The descriptor being connected or connected (legacy `socketFD`), from any thread.
    var legacySocketFD: Int32 {
        sync { fd >= 0 ? fd : connectDriver?.connectingFD ?? listenFDs.first ?? -1 }
    }

    /// The IPv4 and IPv6 descriptors (legacy `socket4FD`/`socket6FD`).
    var legacyFamilyFDs: (v4: Int32, v6: Int32) {
        sync {
            if fd >= 0 {
                let address = connectedSocketAddress
                return (address?.isIPv4 == true ? fd : -1, address?.isIPv6 == true ? fd : -1)
            }
            return (socket4, socket6)
        }
    }
}

/// A legacy write waiting on the loop to be queued (see `QueueCoreBackend.write`).
struct LegacyWrite {
    let data: Data
    let timeout: TimeInterval
    let tag: Int
}
