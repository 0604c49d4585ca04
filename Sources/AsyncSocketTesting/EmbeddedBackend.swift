import AsyncSocketCore
import AsyncSocketKit
import EngineTestSupport
import Foundation
import Logging

// RunLoopSocket's third backend: the connection driver (AsyncSocketKit's Connection/) running on
// EngineHarness — a scripted transport, a virtual clock and a queue of loop passes instead of a
// descriptor, time and an EventRunLoop — with the native engine's legacy semantics (callbacks inline,
// the next read dequeued on a later pass), its callbacks handed to the socket's real delegate. What a
// real backend gets from the system (a connect completing, the peer's bytes, its close, time passing)
// comes from EmbeddedConnection. Each connect makes a fresh harness (a fresh transport); the clock is
// the connection's, kept across connects.
final class EmbeddedBackend: LegacySocketBackend, LegacyClosing {
    /// The public object: unowned, never weak (see LegacySocketBackend.owner).
    unowned(unsafe) var owner: RunLoopSocket?
    let logger: Logger?
    let clock = VirtualClock()
    /// The current connection's harness (kept after it closes, so the peer can still take what was
    /// written); `nil` before the first connect.
    private(set) var harness: EngineHarness?
    private var preBuffering: Bool
    /// Kept for the public property; an embedded socket never listens on a descriptor.
    var reusesPort = false
    /// The write watermarks and the prebuffer limit, set on the engine once it is made.
    private var marks: WriteMarks?
    private var prebufferLimit = 0
    /// The public socket, kept while started, as the real backends keep it.
    private var retainedOwner: RunLoopSocket?
    private var started = false
    private var connected = false
    private var secured = false
    private(set) var isClosingWithError = false
    /// Inside willDisconnect for the peer's clean end: no longer "connected" (the read stream ended).
    private var closingAtEnd = false
    private var unread: Data?
    private var peer: (host: String, port: UInt16)?
    private var modes: [RunLoopMode] = [.default]
    /// Bumped by every full close, so work queued for an earlier connection recognises itself.
    private var generation = 0

    init(preBuffering: Bool, logger: Logger?) {
        self.preBuffering = preBuffering
        self.logger = logger
    }

    // MARK: Passes

    /// Runs the queued passes until none is left, following the socket to a new connection a callback
    /// made (at most 100 of them: a delegate reconnecting from every disconnect cannot spin forever).
    func runPendingPasses() {
        for _ in 0..<100 {
            guard let harness, harness.hasPendingPasses else { return }
            harness.runPasses()
        }
    }

    // MARK: Connecting

    func acceptOnInterface(_ interface: String?, port: UInt16) throws {
        throw AsyncSocketUsageError(
            "An embedded socket cannot accept connections; connect it and play the peer with EmbeddedConnection")
    }

    func connectToHost(_ host: String, port: UInt16, timeout: TimeInterval) throws {
        try checkCanStart("connect", started: started)
        try askWillConnect()
        start(host: host, port: port)
    }

    func connectToAddress(_ address: Data, viaInterface interface: Data?, timeout: TimeInterval) throws {
        try checkCanStart("connect", started: started)
        let (remote, _) = try Self.connectAddresses(address, interface: interface)
        try askWillConnect()
        start(host: remote.host ?? "", port: remote.port)
    }

    /// onSocketWillConnect, inside the connect call as in the original; `false` cancels.
    private func askWillConnect() throws {
        guard let owner, owner.delegateForCallbacks?.onSocketWillConnect(owner) ?? true else {
            throw AsyncSocketError(.canceled)
        }
    }

    /// A fresh connection; didConnectToHost comes on the next pass, before any read it runs.
    private func start(host: String, port: UInt16) {
        let harness = EngineHarness(semantics: .legacy, prebuffering: preBuffering, clock: clock)
        harness.recordsEvents = false
        harness.engine.setWriteWatermarks(marks)
        harness.engine.configuration.maxPrebufferSize = prebufferLimit
        harness.onCallback = { [weak self] callback in self?.deliver(callback) }
        harness.onClose = { [weak self] event in self?.harnessClosed(event) }
        harness.timeoutAnswerer = { [weak self] direction, query in self?.answerTimeout(direction, query) ?? 0 }
        self.harness = harness
        started = true
        peer = (host, port)
        retainedOwner = owner
        let mark = generation
        harness.schedule { [weak self] in
            guard let self, generation == mark, started else { return }
            connected = true
            report { delegate, owner in delegate.onSocket(owner, didConnectToHost: host, port: port) }
        }
    }

    // MARK: Reads, writes, TLS

    func read(_ request: ReadRequest) {
        guard started, let harness else {
            return log(.warning, "read dropped: the socket is not connected", tag: request.tag)
        }
        if let rejection = harness.read(request) {
            log(.warning, "read ignored: \(rejection)", tag: request.tag)
        }
    }

    func write(_ data: Data, timeout: TimeInterval, tag: Int) {
        guard started, let harness else { return log(.warning, "write dropped: the socket is not connected", tag: tag) }
        if let rejection = harness.write(data, timeout: timeout, tag: tag) {
            log(.warning, "write ignored: \(rejection)", tag: tag)
        }
    }

    /// Queues a TLS marker; the settings are not used: the peer plays the handshake
    /// (EmbeddedConnection.finishHandshake).
    func startTLS(_ settings: Any) {
        guard started, let harness else { return log(.warning, "startTLS dropped: the socket is not connected") }
        harness.startTLS()
    }

    var isSecure: Bool { secured }
    var negotiatedALPN: String? { nil }

    var queueSizes: QueueSizes { harness?.engine.queueSizes ?? QueueSizes() }
    var writeMarks: WriteMarks? {
        get { marks }
        set {
            marks = newValue
            harness?.engine.setWriteWatermarks(newValue)
        }
    }
    var maxPrebufferSize: Int {
        get { prebufferLimit }
        set {
            prebufferLimit = newValue
            harness?.engine.configuration.maxPrebufferSize = newValue
        }
    }
    var readProgress: TransferProgress { harness?.engine.readProgress ?? TransferProgress() }
    var writeProgress: TransferProgress { harness?.engine.writeProgress ?? TransferProgress() }
    var canSafelySetDelegate: Bool { !started || harness?.engine.isIdle != false }

    func enablePreBuffering() {
        preBuffering = true
        harness?.engine.configuration.prebuffering = true
    }

    func unreadData() -> Data? {
        isClosingWithError ? unread : nil
    }

    // MARK: Callbacks

    private func deliver(_ callback: ConnectionCallback) {
        if case .didSecure = callback {
            secured = true
        }
        report { delegate, owner in delegate.deliver(callback, from: owner) }
    }

    private func answerTimeout(_ direction: TransferDirection, _ query: TimeoutQuery) -> TimeInterval {
        guard let owner = closeOwner, let delegate = owner.delegateForCallbacks else { return 0 }
        switch direction {
        case .read:
            return delegate.onSocket(
                owner, shouldTimeoutReadWithTag: query.tag, elapsed: query.elapsed, bytesDone: query.bytesDone)
        case .write:
            return delegate.onSocket(
                owner, shouldTimeoutWriteWithTag: query.tag, elapsed: query.elapsed, bytesDone: query.bytesDone)
        }
    }

    private func report(_ body: (any RunLoopSocketDelegate, RunLoopSocket) -> Void) {
        guard let owner = closeOwner, let delegate = owner.delegateForCallbacks else { return }
        body(delegate, owner)
    }

    /// The number that names this socket in log lines.
    private let logID = SocketLogID.make()

    /// What the socket's log lines carry (no descriptor and no addresses: there are none).
    package var logMetadata: SocketLogMetadata {
        SocketLogMetadata(id: logID, face: "RunLoopSocket", engine: "embedded")
    }

    // MARK: Closing

    func disconnect() {
        guard let harness, !harness.isClosed else { return fullClose() }
        harness.disconnect()
    }

    func disconnectAfter(reading: Bool, writing: Bool) {
        harness?.disconnectAfter(reading: reading, writing: writing)
    }

    /// The harness closed: an error close (or the peer's end) runs the legacy close sequence
    /// (LegacyCloseSequence.swift); a disconnect is the full close alone.
    private func harnessClosed(_ event: EngineHarness.Event) {
        guard case .closed = event, let harness else { return fullClose() }
        closeWithLegacyError(harness.closeFailure?.legacyError(tlsError: nil))
    }

    /// The public socket callbacks name: the kept one while started (no callback comes otherwise).
    var closeOwner: RunLoopSocket? { started ? retainedOwner : nil }
    var closeGeneration: Int { generation }

    func beginErrorClose(atEnd: Bool) {
        isClosingWithError = true
        closingAtEnd = atEnd
        unread = Data(harness?.unreadAtClose ?? [])
    }

    /// Releases the connection, then onSocketDidDisconnect, the very last thing it does.
    func fullClose() {
        guard started else { return }
        let keptOwner = retainedOwner
        started = false
        connected = false
        secured = false
        isClosingWithError = false
        closingAtEnd = false
        unread = nil
        peer = nil
        generation += 1
        retainedOwner = nil
        if let harness, !harness.isClosed {
            harness.onClose = nil
            harness.disconnect()
        }
        reportDisconnected(keptOwner)
    }

    func ownerDidGoAway() {
        owner = nil
        harness?.onCallback = nil
        harness?.onClose = nil
        harness?.timeoutAnswerer = nil
    }

    // MARK: Run loops (none)

    /// An embedded socket has no run loop to move to.
    func moveToRunLoop(_ loop: EventRunLoop) -> Bool {
        log(.debug, "moveToRunLoop(_:) ignored: an embedded socket has no run loop")
        return false
    }

    func setRunLoopModes(_ modes: [RunLoopMode]) -> Bool {
        guard !modes.isEmpty else { return false }
        self.modes = modes
        return true
    }

    var runLoopModes: [RunLoopMode] { modes }
    var runLoop: EventRunLoop? { nil }

    // MARK: Diagnostics

    var isConnected: Bool { connected && !(isClosingWithError && closingAtEnd) }
    var connectedAddress: SocketAddress? { peer.flatMap { SocketAddress.numeric($0.host, port: $0.port) } }
    var localAddress: SocketAddress? { nil }
    var isIPv4: Bool { connectedAddress?.isIPv4 == true }
    var isIPv6: Bool { connectedAddress?.isIPv6 == true }
    var socketFD: Int32 { -1 }
    var socket4FD: Int32 { -1 }
    var socket6FD: Int32 { -1 }

    var stateDescription: String {
        guard let peer else { return "not connected (embedded)" }
        return "\(connected ? "connected" : "connecting") to \(peer.host):\(peer.port) (embedded)"
    }
}
