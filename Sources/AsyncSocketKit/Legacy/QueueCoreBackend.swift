import AsyncSocketCore
import Dispatch
import Foundation
import Logging

// RunLoopSocket's second engine: a QueueSocket (legacy semantics switched on) does the I/O and the
// decisions, and every one of its callbacks is carried to the socket's EventRunLoop, in its modes,
// and translated to the legacy protocol there (nil error for the peer's clean close, willDisconnect
// before didDisconnect, didConnectToHost for accepted sockets, unreadData, the legacy error codes).
//
// Each connect or accept makes a fresh QueueSocket; an epoch number tells callbacks of an earlier
// one (still travelling after a user disconnect) from current ones. The peer's close while no read is
// queued is noticed by a close watch on the loop (EPOLLRDHUP), as the native engine notices it.
final class QueueCoreBackend: LegacySocketBackend, @unchecked Sendable {
    // @unchecked Sendable: its variables are touched on the loop's thread only; `deliveries`, which
    // the socket and bridge queues reach, keeps its state behind a `Lock`.
    /// The public object: unowned, never weak (see LegacySocketBackend.owner).
    unowned(unsafe) var owner: RunLoopSocket?
    var retainedOwner: RunLoopSocket?
    let customResolver: HostResolver?
    let logger: Logger?
    /// The user's metrics, for every QueueSocket this backend makes and the children it accepts.
    let metrics: SocketMetrics?
    var preBuffering: Bool

    /// Touched on the loop thread (or before the socket has a loop).
    var queue: QueueCoreSocket?
    /// The current QueueSocket's delegate (a QueueSocket holds its delegate weakly).
    var bridge: QueueCoreBridge?
    var epoch = 0
    var phase = QueueCorePhase.idle
    /// Set from an error close until the full close after willDisconnect: the unread bytes, and the
    /// descriptor and addresses the getters answer meanwhile (see LegacyErrorClose.swift).
    var closing: LegacyErrorClose?
    /// The error close is the peer's clean end of stream (a nil legacy error).
    var closingAtEnd = false
    /// Whether this listener has warned that an accepted connection found no delegate.
    var warnedNoDelegate = false
    var isClosingWithError: Bool { closing != nil }
    var closeWatch: RunLoopFileSource?
    /// A disarmed timer in the socket's modes while it is started: QueueSocket works off the loop, so
    /// without it a loop with nothing else registered would see an empty mode and `run()` would
    /// return at once (the original's CFStreams stayed scheduled on the loop while open).
    var presence: RunLoopTimer?
    var modes: [RunLoopMode] = [.default]
    /// Runs before the loop next polls once a pass has started a write; starts the writes queued
    /// after it meanwhile. Loop thread only.
    var flushItem: PerformItem?
    /// Writes queued after the first of a pass that the QueueSocket has not seen yet: they travel with
    /// the next call that goes onto the socket queue anyway (a read, the flush), so an echoed line
    /// costs one `sync` instead of two. Loop thread only.
    var waitingWrites: [LegacyWrite] = []
    var reusesPort = false
    /// The write watermarks and the prebuffer limit, set on each QueueSocket this backend makes.
    private var marks: WriteMarks?
    private var prebufferLimit = 0
    /// Writes the QueueSocket holds, queued, that wait for the flush to start.
    var writesWaiting = false
    /// Where callbacks go, and the batch on its way there: filled on the socket queue, run and
    /// retargeted on the loop thread.
    let deliveries = QueueCoreDeliveries()

    init(resolver: HostResolver?, logger: Logger?, metrics: SocketMetrics?, preBuffering: Bool) {
        customResolver = resolver
        self.logger = logger
        self.metrics = metrics
        self.preBuffering = preBuffering
        deliveries.backend = self
    }

    /// The public object for callbacks (which come only while started): the strong reference, or,
    /// inside the accept sequence before the child is kept, the unowned one (the sequence holds it).
    var callbackOwner: RunLoopSocket? { retainedOwner ?? (started ? owner : nil) }

    /// The delegate, read on the loop's thread (no thread check of the public getter).
    var delegate: (any RunLoopSocketDelegate)? { callbackOwner?.delegateForCallbacks }

    var loop: EventRunLoop? {
        get { deliveries.loop }
        set { retarget { $0.loop = newValue } }
    }

    // MARK: The QueueSocket and its bridge

    /// A fresh connection for the next connect or accept, its callbacks bridged to this backend.
    func makeQueueSocket() -> QueueCoreSocket {
        epoch += 1
        let bridge = QueueCoreBridge(deliveries: deliveries, epoch: epoch)
        let socket = QueueCoreSocket(
            delegate: bridge, delegateQueue: bridge.queue, resolver: customResolver, logger: logger,
            metrics: metrics)
        socket.adopt(by: bridge, preBuffering: preBuffering, peerEndedProbe: bridge.probeHandler(for: socket))
        if let marks { socket.legacySetWriteMarks(marks) }
        if prebufferLimit > 0 { socket.legacySetMaxPrebufferSize(prebufferLimit) }
        bridge.serve(socket)
        self.bridge = bridge
        queue = socket
        return socket
    }

    /// Adopts an accepted connection (already connected) for a legacy child.
    func adopt(_ socket: QueueCoreSocket) {
        epoch += 1
        let bridge = QueueCoreBridge(deliveries: deliveries, epoch: epoch)
        socket.adopt(by: bridge, preBuffering: preBuffering, peerEndedProbe: bridge.probeHandler(for: socket))
        bridge.serve(socket)
        self.bridge = bridge
        queue = socket
    }

    /// Runs `body` on the socket's loop, in its modes, if `epoch` is still current there (see
    /// ``QueueCoreDeliveries``).
    func deliver(epoch: Int, _ body: @escaping (QueueCoreBackend) -> Void) {
        deliveries.deliver(epoch: epoch, .call(body))
    }

    /// Changes where callbacks go (see ``QueueCoreDeliveries/retarget(_:)``).
    func retarget(_ change: (inout DeliveryTarget) -> Void) {
        deliveries.retarget(change)
    }

    /// Runs the deliveries queued so far; ones queued while it runs form the next batch.
    func runBatch() {
        var batch = deliveries.takeBatch()
        defer { deliveries.recycle(&batch) }
        for box in batch {
            guard box.epoch == epoch else { continue }
            if let current = loop, !current.isCurrent {
                // Moved meanwhile: follow the socket to its new loop.
                deliveries.deliver(epoch: box.epoch, box.delivery)
                continue
            }
            switch box.delivery {
            case .call(let body): body(self)
            case .callback(let callback): report(callback)
            }
        }
    }

    // MARK: Diagnostics

    /// Inside willDisconnect the original's streams still existed: "connected" unless the read stream
    /// had reached its end (a clean close by the peer).
    var isConnected: Bool {
        if closing != nil { return connected && !closingAtEnd }
        return connected && queue?.isConnected == true
    }
    var connectedAddress: SocketAddress? {
        if let closing { return closing.peer }
        return queue?.connectedAddress.flatMap { SocketAddress(data: $0) }
    }
    var localAddress: SocketAddress? {
        if let closing { return closing.local }
        return queue?.localAddress.flatMap { SocketAddress(data: $0) }
    }
    var isIPv4: Bool { socket4FD >= 0 }
    var isIPv6: Bool { socket6FD >= 0 }
    var socketFD: Int32 {
        if let closing { return closing.descriptor }
        if case .askingWillConnect(let socket) = phase { return socket }
        return queue?.legacySocketFD ?? -1
    }
    var socket4FD: Int32 {
        if let closing { return closing.peer?.isIPv4 == true ? closing.descriptor : -1 }
        return queue?.legacyFamilyFDs.v4 ?? -1
    }
    var socket6FD: Int32 {
        if let closing { return closing.peer?.isIPv6 == true ? closing.descriptor : -1 }
        return queue?.legacyFamilyFDs.v6 ?? -1
    }
    var runLoop: EventRunLoop? { loop }
    var runLoopModes: [RunLoopMode] { modes }
    var isSecure: Bool { queue?.isSecure ?? false }
    var negotiatedALPN: String? { queue?.negotiatedALPN }
    var queueSizes: QueueSizes { syncedQueue?.legacyQueueSizes ?? QueueSizes() }
    var writeMarks: WriteMarks? {
        get { marks }
        set {
            marks = newValue
            queue?.legacySetWriteMarks(newValue)
        }
    }
    var maxPrebufferSize: Int {
        get { prebufferLimit }
        set {
            prebufferLimit = newValue
            queue?.legacySetMaxPrebufferSize(newValue)
        }
    }
    var readProgress: TransferProgress { syncedQueue?.legacyProgress.read ?? TransferProgress() }
    var writeProgress: TransferProgress { syncedQueue?.legacyProgress.write ?? TransferProgress() }
    var canSafelySetDelegate: Bool { syncedQueue?.isIdleForLegacy ?? true }

    /// The number that names this socket in log lines while it has no QueueSocket (which has its own).
    let logID = SocketLogID.make()

    /// The QueueSocket's metadata (read on its socket queue), or this backend's while it has none.
    var logMetadata: SocketLogMetadata {
        queue?.legacyLogMetadata ?? SocketLogMetadata(id: logID, face: "RunLoopSocket", engine: "queue-core")
    }

    var stateDescription: String {
        guard let queue = syncedQueue else { return "not connected (queue core)" }
        return "\(queue.description) (queue core)"
    }

    func enablePreBuffering() {
        preBuffering = true
        syncedQueue?.enablePreBufferingForLegacy()
    }

    func unreadData() -> Data? {
        closing?.unread
    }
}

extension QueueCoreBackend {
    /// Nothing of the queue core refers back to the backend once the facade is gone.
    func ownerDidGoAway() {
        owner = nil
        deliveries.discardAll()
    }
}
