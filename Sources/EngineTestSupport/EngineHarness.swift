import AsyncSocketCore
import AsyncSocketKit
import Foundation

/// Runs the connection driver (AsyncSocketKit's Connection/, the code both socket faces run) as a
/// third face, with a scripted transport, a virtual clock and a queue of "run-loop passes" instead of
/// a descriptor, a clock and threads. Everything the face would tell its delegate is recorded in
/// `events`, in order.
///
/// The rules are the driver's and the Rules folder's: legacy semantics dequeue the next read on a
/// later pass and end with an error close that keeps `unreadData`; GCD semantics dequeue the next
/// read at once and keep read-ahead bytes for reads after the peer's end.
/// (GCD's closed-read-stream report is a socket option the harness does not model: auto-disconnect.)
/// The peer's end or a reset met while no read waits is noticed as the faces notice it (see
/// `noticeEndWithoutRead()`); during a handshake it is left to the TLS engine, which the test plays.
///
/// Queued passes and timers hold the harness `unowned` (it owns both), so a harness left with work
/// pending is freed all the same and LeakSanitizer (under the fuzz targets) sees only real leaks.
package final class EngineHarness {
    package enum Event: Equatable, CustomStringConvertible {
        case partialRead(Int, tag: Int)
        case read([UInt8], tag: Int)
        case partialWrite(Int, tag: Int)
        case wrote(tag: Int)
        case readTimeoutAsked(tag: Int, elapsed: TimeInterval, bytesDone: Int)
        case writeTimeoutAsked(tag: Int, elapsed: TimeInterval, bytesDone: Int)
        case tlsStarted(prebuffered: [UInt8])
        case secured
        case becameWritable
        case closed(CloseReason)
        case disconnected

        package var description: String {
            switch self {
            case .partialRead(let n, let tag): return "partialRead(\(n), tag: \(tag))"
            case .read(let bytes, let tag):
                return "read(\(String(decoding: bytes, as: UTF8.self).debugDescription), tag: \(tag))"
            case .partialWrite(let n, let tag): return "partialWrite(\(n), tag: \(tag))"
            case .wrote(let tag): return "wrote(tag: \(tag))"
            case .readTimeoutAsked(let tag, let elapsed, let done):
                return "readTimeout?(tag: \(tag), elapsed: \(elapsed), done: \(done))"
            case .writeTimeoutAsked(let tag, let elapsed, let done):
                return "writeTimeout?(tag: \(tag), elapsed: \(elapsed), done: \(done))"
            case .tlsStarted(let bytes): return "tlsStarted(\(bytes.count) prebuffered)"
            case .secured: return "secured"
            case .becameWritable: return "becameWritable"
            case .closed(let reason): return "closed(\(reason))"
            case .disconnected: return "disconnected"
            }
        }
    }

    package enum CloseReason: Equatable {
        case failure(TransportFailure)
        case readTimeout
        case writeTimeout
    }

    package let engine: SocketEngine
    package let transport = ScriptedTransport()
    package let clock: VirtualClock
    package let semantics: Semantics
    package private(set) var events: [Event] = []
    /// What `unreadData` returned inside the error close (legacy), or what the close discarded (queue).
    package private(set) var unreadAtClose: [UInt8]?
    package private(set) var isClosed = false
    /// The answers the "delegate" gives to read/write timeout questions, in order (none: time out).
    package var readTimeoutAnswers: [TimeInterval] = []
    package var writeTimeoutAnswers: [TimeInterval] = []
    /// Whether the delegate queues another read from inside each read completion.
    package var onRead: ((EngineHarness, Int) -> Void)?
    /// Whether `events` keeps what happens (a long-running embedded connection turns it off).
    package var recordsEvents = true
    /// Receives every callback as the driver delivers it, before it is recorded (AsyncSocketTesting's
    /// embedded connection hands them to a real delegate).
    package var onCallback: ((ConnectionCallback) -> Void)?
    /// Receives `.closed` and `.disconnected` as they happen.
    package var onClose: ((Event) -> Void)?
    /// Answers timeout questions in place of the answer lists.
    package var timeoutAnswerer: ((TransferDirection, TimeoutQuery) -> TimeInterval)?
    /// The driver failure the last error close came from (`nil` for the peer's end).
    package private(set) var closeFailure: ConnectionFailure?

    private var passQueue: [() -> Void] = []
    /// Work for when no pass is left, before the loop would poll (legacy: the flush of the writes
    /// dequeued meanwhile, as the native engine's EventRunLoop.runBeforePolling).
    private var beforePolling: [() -> Void] = []
    private var readDequeueScheduled = false
    private var writeDequeueScheduled = false
    package var readableHint = false
    package var writableHint = true
    /// TLS is played by the test (``finishHandshake()``): the driver never gets a transport for it.
    package var tls: TLSTransport?
    package var tlsHandshaking = false
    private var waitingForReadable = false
    private var flushPending = false
    private var flushing = false
    private var waitingForWritable = false
    private var readTimer: Int?
    private var writeTimer: Int?
    /// Bumped by every close, so the driver can tell a callback closed the socket.
    private var closeCount = 0

    /// `clock`: the virtual clock timers run on (a fresh one unless given; an embedded socket keeps one
    /// across its connections).
    package init(
        semantics: Semantics = .legacy, prebuffering: Bool = true, readChunk: Int = 64 * 1024,
        clock: VirtualClock = VirtualClock()
    ) {
        self.semantics = semantics
        self.clock = clock
        engine = SocketEngine(
            configuration: .init(
                prebuffering: prebuffering, readChunk: readChunk, availableReadsTakeEstimate: semantics == .gcd))
    }

    // MARK: What the user calls

    /// Queues a read made by a socket face; returns the reason it was ignored, or `nil`.
    @discardableResult
    package func read(_ request: ReadRequest) -> String? {
        let rejection = engine.enqueueRead(request)
        if rejection == nil {
            scheduleReadDequeue()
        }
        return rejection
    }

    /// Queues a write of `data`; returns the reason it was ignored, or `nil`.
    @discardableResult
    package func write(_ data: Data, timeout: TimeInterval = -1, tag: Int = 0) -> String? {
        let rejection = engine.enqueueWrite(data, timeout: timeout, tag: tag)
        if rejection == nil {
            scheduleWriteDequeue()
        }
        return rejection
    }

    /// Runs `work` on the next pass (a face's own deferred step, such as a connect's completion).
    package func schedule(_ work: @escaping () -> Void) {
        passQueue.append(work)
    }

    /// Whether passes are queued.
    package var hasPendingPasses: Bool { !passQueue.isEmpty || !beforePolling.isEmpty }

    /// Queues a read; returns the reason it was ignored, or `nil`.
    @discardableResult
    package func read(
        _ kind: ReadKind, buffer: NSMutableData? = nil, offset: Int = 0, timeout: TimeInterval = -1, tag: Int = 0
    ) -> String? {
        read(ReadRequest(kind: kind, buffer: buffer, bufferOffset: offset, timeout: timeout, tag: tag))
    }

    @discardableResult
    package func write(_ bytes: [UInt8], timeout: TimeInterval = -1, tag: Int = 0) -> String? {
        write(Data(bytes), timeout: timeout, tag: tag)
    }

    /// Queues a TLS marker; returns why it was ignored (GCD: a second call, or after disconnectAfter…).
    @discardableResult
    package func startTLS() -> String? {
        let rejection = engine.enqueueTLS(settings: "tls", semantics: semantics)
        if rejection == nil {
            scheduleReadDequeue()
            scheduleWriteDequeue()
        }
        return rejection
    }

    package func disconnectAfter(reading: Bool, writing: Bool) {
        if engine.disconnectAfter(reading: reading, writing: writing) {
            passQueue.append { [unowned self] in disconnect() }
        }
    }

    package func disconnect() {
        guard !isClosed else { return }
        cancelTimers()
        engine.reset()
        isClosed = true
        closeCount += 1
        record(.disconnected)
        onClose?(.disconnected)
    }

    // MARK: What the world does

    /// Bytes arrive from the peer; a waiting read is serviced at once (a readiness event).
    package func feed(_ bytes: [UInt8]) {
        transport.feed(bytes)
        readableEvent()
    }

    package func feed(_ text: String) {
        feed(Array(text.utf8))
    }

    /// The peer closes its side (noticed at once by a waiting read, and as the faces do without one).
    package func peerCloses() {
        transport.ended = true
        readableEvent()
    }

    /// The transport reports an error (an errno): to a waiting read, or as the faces notice it without one.
    package func transportFails(_ code: Int32) {
        transport.failure = code
        readableEvent()
    }

    /// The peer reads: the transport takes `count` more bytes.
    package func peerDrains(_ count: Int) {
        transport.sendCapacity = transport.sendCapacity == .max ? .max : transport.sendCapacity + count
        writableHint = true
        if waitingForWritable && !isClosed {
            sendNow()
        }
    }

    /// Runs queued passes until none is left (each pass runs what was queued before it began).
    package func runPasses(limit: Int = 10_000) {
        var count = 0
        while hasPendingPasses && count < limit {
            runOnePass()
            count += 1
        }
    }

    /// Runs one pass: what was queued before it began; then, if that queued no further pass, what
    /// waits for the loop to poll.
    package func runOnePass() {
        let pass = passQueue
        passQueue.removeAll()
        for item in pass {
            item()
        }
        guard passQueue.isEmpty else { return }
        let flushes = beforePolling
        beforePolling.removeAll()
        for item in flushes {
            item()
        }
    }

    /// Clears the recorded events (to look at what comes next).
    package func clearEvents() {
        events.removeAll()
    }

    package func advance(by seconds: TimeInterval) {
        clock.advance(by: seconds)
        runPasses()
    }

    /// A readiness event; with GCD semantics it carries the read source's byte estimate, the bytes
    /// waiting unless `estimate` says fewer were there when it was measured.
    package func readableEvent(estimate: Int? = nil) {
        readableHint = true
        guard !isClosed else { return }
        if semantics == .gcd {
            // The read source's byte estimate (`readSourceFired` in QueueSocket+IO.swift).
            engine.noteAvailableEstimate(estimate ?? transport.remaining.count)
        }
        if semantics == .gcd, transport.remaining.isEmpty, engine.prebufferedCount == 0, transport.failure != nil {
            // GCD's read source fires with no byte estimate, as at the end (`readSourceFired` in
            // QueueSocket+IO.swift): waiting read or not, the reset is taken for the end.
            return noticeEndWithoutRead()
        }
        if waitingForReadable {
            readNow()
        } else {
            noticeEndWithoutRead()
        }
    }

    /// The transport ended or failed while no read waits. Legacy (NativeSocketBackend+IO.swift) notices
    /// it at once, unread bytes in the transport or not: the peer's end goes through the end-of-stream
    /// rule (a close with no error, what is left becoming `unreadData`), a reset closes with its error.
    /// GCD (QueueSocket+IO.swift, `readSourceFired`) notices nothing while bytes are pending (its read
    /// source is suspended until a read comes, which then reads up to the end); with none pending it
    /// applies the rule, holding an end behind bytes read ahead for the reads. A reset behind them waits
    /// for the reads here too; with nothing left its source cannot tell a reset from the end (a zero
    /// byte estimate), so the rule closes as at the end: `closed` (also with a read waiting, see
    /// `readableEvent()`). While a handshake runs both faces hand the readiness to the TLS engine, which
    /// the test plays: the end stays pending here.
    private func noticeEndWithoutRead() {
        guard transport.ended || transport.failure != nil, !engine.transportEnded, !handshakeRuns else { return }
        if semantics == .gcd {
            guard transport.remaining.isEmpty, transport.failure == nil || engine.prebufferedCount == 0 else {
                return
            }
        }
        if let code = transport.failure, semantics == .legacy {
            fail(.transport(code, operation: "read"))
        } else {
            engine.noteTransportEnded()
            peerEnded()
        }
    }

    /// Both queues reached the current TLS marker: the handshake started and has not finished.
    package var handshakeHasBegun: Bool { handshakeRuns }

    private var handshakeRuns: Bool {
        if case .tls = engine.currentRead, case .tls = engine.currentWrite {
            return true
        }
        return false
    }

    // MARK: Scheduling

    private func scheduleReadDequeue() {
        guard !readDequeueScheduled else { return }
        readDequeueScheduled = true
        passQueue.append { [unowned self] in
            readDequeueScheduled = false
            maybeDequeueRead()
        }
    }

    private func scheduleWriteDequeue() {
        guard !writeDequeueScheduled else { return }
        writeDequeueScheduled = true
        passQueue.append { [unowned self] in
            writeDequeueScheduled = false
            maybeDequeueWrite()
        }
    }

    private func sendNow() {
        waitingForWritable = false
        writePass()
    }

    /// The handshake (played by the test) finished.
    package func finishHandshake() {
        engine.completeTLS()
        deliver(.didSecure)
        scheduleReadDequeue()
        scheduleWriteDequeue()
    }

    private func cancelTimers() {
        clock.cancel(readTimer)
        clock.cancel(writeTimer)
        readTimer = nil
        writeTimer = nil
    }

    /// An error close: legacy hands `unreadData` to willDisconnect first; GCD discards the same bytes
    /// (recorded here all the same, so tests can account for every byte).
    private func close(_ reason: CloseReason) {
        guard !isClosed else { return }
        cancelTimers()
        engine.prepareErrorClose()
        unreadAtClose = Array(engine.collectUnreadData(from: transport))
        engine.reset()
        isClosed = true
        closeCount += 1
        record(.closed(reason))
        onClose?(.closed(reason))
    }
}

// The face's part, as the connection driver (AsyncSocketKit's Connection/) asks it of every face: the
// passes, timeouts and the peer's end are the driver's own code, the same the sockets run. What is
// the harness's: callbacks become `events` (inline, as the native engine delivers them), the next
// read starts on a later pass (legacy) or at once (GCD), timers run on the virtual clock, the
// delegate's timeout answers come from the lists, TLS stops at its marker for the test to play.
extension EngineHarness: ConnectionDriving {
    package func read(into buffer: UnsafeMutableRawBufferPointer) -> TransportReadResult {
        transport.read(into: buffer)
    }

    package func write(_ bytes: UnsafeRawBufferPointer) -> TransportWriteResult {
        transport.write(bytes)
    }

    package func mayDequeue(_ direction: TransferDirection) -> Bool { !isClosed }
    package func isPaused(_ direction: TransferDirection) -> Bool { false }
    package var peerEndNoticed: Bool { false }
    /// The harness reports no metrics.
    package var metricHandles: SocketMetricHandles? { nil }

    package func deliver(_ callback: ConnectionCallback) {
        switch callback {
        case .didRead(let data, let tag):
            record(.read(Array(data), tag: tag))
            onCallback?(callback)
            onRead?(self, tag)
            return
        case .didReadPartial(let length, let tag): record(.partialRead(length, tag: tag))
        case .didWrite(let tag): record(.wrote(tag: tag))
        case .didWritePartial(let length, let tag): record(.partialWrite(length, tag: tag))
        case .didSecure: record(.secured)
        case .didBecomeWritable: record(.becameWritable)
        }
        onCallback?(callback)
    }

    private func record(_ event: Event) {
        if recordsEvents {
            events.append(event)
        }
    }

    package var deliveryMark: Int { closeCount }
    package func goesOn(after mark: Int) -> Bool { mark == closeCount }
    package func carryOver(after mark: Int, _ rest: @escaping (EngineHarness) -> Void) {}

    package func readNow() {
        waitingForReadable = false
        readPass()
    }

    /// Readiness is level-triggered: a transport with bytes, an end or an error pending reports itself
    /// again on the next pass.
    package func readWaitsForBytes() {
        waitingForReadable = true
        if transport.isReadable {
            passQueue.append { [unowned self] in readableEvent() }
        }
    }

    package func bytesWaitWithoutRead() {}

    package func dequeueNextRead() {
        if semantics.dequeuesNextReadAtOnce {
            maybeDequeueRead()
        } else {
            scheduleReadDequeue()
        }
    }

    package func dequeueNextWrite() {
        scheduleWriteDequeue()
    }

    /// Legacy: the native engine gathers a dequeued write, with the writes queued behind it until
    /// then, and sends them in one go when the loop is about to poll (after every pass queued
    /// meanwhile: a read dequeued there reports first). GCD sends at once.
    package func sendCurrentWrite() {
        guard semantics == .legacy, !flushing else { return sendNow() }
        guard !flushPending else { return }
        flushPending = true
        beforePolling.append { [unowned self] in
            flushPending = false
            flushGathered()
        }
    }

    /// Sends the current write and the plain writes queued behind it, each reported as it completes,
    /// up to a TLS marker, a write that cannot complete, or a close (the native engine's batch limits
    /// are not modelled).
    private func flushGathered() {
        flushing = true
        defer { flushing = false }
        while !isClosed, case .write = engine.currentWrite {
            let mark = closeCount
            sendNow()
            guard mark == closeCount, engine.currentWrite == nil, engine.nextQueuedIsWrite else { return }
            maybeDequeueWrite()
        }
    }

    package func writesQueuedBehindCurrent() {}

    package func watchWritable(_ watching: Bool) {
        waitingForWritable = watching
    }

    /// The marker is reached: the test plays the handshake from here.
    package func beginTLS() {
        guard let (_, prebuffered) = engine.beginTLS() else { return }
        record(.tlsStarted(prebuffered: Array(prebuffered)))
    }

    package func handshakeWaits() {}
    package func trustDecisionNeeded(_ chain: CertificateChain) {}
    package func resumeAfterHandshake() {}

    package func armTimer(_ direction: TransferDirection, after seconds: TimeInterval) {
        disarmTimer(direction)
        let timer = clock.schedule(after: seconds) { [unowned self] in
            switch direction {
            case .read: readTimer = nil
            case .write: writeTimer = nil
            }
            transferTimerFired(direction)
        }
        switch direction {
        case .read: readTimer = timer
        case .write: writeTimer = timer
        }
    }

    package func disarmTimer(_ direction: TransferDirection) {
        switch direction {
        case .read:
            clock.cancel(readTimer)
            readTimer = nil
        case .write:
            clock.cancel(writeTimer)
            writeTimer = nil
        }
    }

    package func askTimeout(_ direction: TransferDirection, _ query: TimeoutQuery) {
        var answer: TimeInterval
        switch direction {
        case .read:
            record(.readTimeoutAsked(tag: query.tag, elapsed: query.elapsed, bytesDone: query.bytesDone))
            answer = readTimeoutAnswers.isEmpty ? 0 : readTimeoutAnswers.removeFirst()
        case .write:
            record(.writeTimeoutAsked(tag: query.tag, elapsed: query.elapsed, bytesDone: query.bytesDone))
            answer = writeTimeoutAnswers.isEmpty ? 0 : writeTimeoutAnswers.removeFirst()
        }
        if let timeoutAnswerer {
            // The delegate may close the socket while it answers: then the question is moot.
            let mark = closeCount
            answer = timeoutAnswerer(direction, query)
            guard mark == closeCount else { return }
        }
        timeoutAnswered(direction, extendBy: answer)
    }

    package func transferResumed(_ direction: TransferDirection) {}

    /// Callbacks are recorded inline: none is ever in flight.
    package var callbacksMayBeInFlight: Bool { false }
    /// GCD's closed-read-stream report is not modelled: the harness always auto-disconnects.
    package var autoDisconnectsAtEnd: Bool { true }
    package var readStreamEndReported: Bool { false }

    package func closeAtEnd() {
        close(.failure(.endOfStream))
    }

    package func confirmEndAfterCallbacks() {
        close(.failure(.endOfStream))
    }

    package func reportReadStreamEnded() {
        close(.failure(.endOfStream))
    }

    package func disconnectAfterTransfers() {
        disconnect()
    }

    package func fail(_ failure: ConnectionFailure) {
        closeFailure = failure
        switch failure {
        case .readMaxedOut: close(.failure(.readMaxedOut))
        case .transport(let code, _): close(.failure(.transport(code)))
        case .readTimeout: close(.readTimeout)
        case .writeTimeout: close(.writeTimeout)
        case .tlsStart, .handshake: close(.failure(.transport(-1)))
        }
    }
}
