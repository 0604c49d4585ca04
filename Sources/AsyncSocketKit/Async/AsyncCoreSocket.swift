import AsyncSocketCore
import DequeModule
import Dispatch
import Foundation
import Logging
import Synchronization

// The socket under an async connection or listener: a QueueSocket (its sources, connect race, driver and
// GCD rules) whose callbacks are made on the socket queue itself. They only resume continuations, which
// never blocks, or hand an accepted connection to the listener's sequence, so the hop to a delegate
// queue a QueueSocket makes for every callback is left out (ping-pong with 50 connections on one core:
// 0.41× QueueSocket with the hop, 0.57× without; Benchmarks/ASYNC.md). An accepted socket is born with
// its own connection's delegate, so none of its callbacks can reach the listener's.
//
// With write watermarks set, a write joins the queue only while the queue is within them and no earlier
// write waits; the others wait here, in order, until the queue drains to the low mark
// (`socketDidBecomeWritable`), so writers that do not wait for each other still hold at most about the
// high mark in memory (Net/WriteWatermarks.swift).
//
// A read or write started by a task running on the connection's executor, on the socket queue, joins the
// queue there and then, instead of through an `async` onto the queue it is already on (QueueSocket's
// public calls always take that hop) — unless a submission from another thread is still on its way,
// which must go first: operations keep the order they were started in.
package final class AsyncCoreSocket: QueueSocket, @unchecked Sendable {
    // @unchecked Sendable: as QueueSocket's; `waitingWrites` is touched only on the socket queue;
    // `tap` and `logsAsListener` are set before the socket connects or listens (or, for an accepted
    // socket, before it is adopted) and only read after.

    /// Writes waiting for the write queue to drain to its low watermark: their bytes and tags.
    private var waitingWrites = Deque<(data: Data, tag: Int)>()
    /// Submissions dispatched to the socket queue that have not run yet.
    private let submissionsOnTheWay = Atomic<Int>(0)
    /// Sees every callback before the delegate does (AsyncSocketObservation.swift).
    private var tap: (any QueueSocketDelegate & Sendable)?

    /// The delegate queue a QueueSocket must have to make callbacks; these sockets never use it.
    static let unusedDelegateQueue = DispatchQueue(label: "AsyncSocketKit.AsyncCoreSocket")

    convenience init(delegate: any QueueSocketDelegate & Sendable, logger: Logger?, metrics: SocketMetrics?) {
        self.init(delegate: delegate, delegateQueue: Self.unusedDelegateQueue, logger: logger, metrics: metrics)
    }

    /// Set (before it listens) on the socket under an ``AsyncSocketListener``: its log lines name that
    /// face.
    var logsAsListener = false
    override var logFace: String { logsAsListener ? "AsyncSocketListener" : "AsyncSocketConnection" }
    /// A listener's accepts count under its connections' face.
    override class var metricsFace: String { "AsyncSocketConnection" }

    /// Asks the current task's observer, if there is one, for the tap (before connecting or listening).
    func startObserving() {
        tap = AsyncSocketObservation.observer?.observe(self)
    }

    /// The callback runs here, on the socket queue (the tap's first).
    override func notify(_ body: @escaping @Sendable (any QueueSocketDelegate) -> Void) {
        guard let delegate = storedDelegate else { return }
        if let tap {
            body(tap)
        }
        body(delegate)
    }

    /// Starts the read `request` (see the header: at once on the socket queue, else as QueueSocket does).
    func submitRead(_ request: ReadRequest) {
        let request = SendableRequest(request: request)
        submit { [self] in
            enqueueOperation(
                "read", tag: request.request.tag, { engine.enqueueRead(request.request) },
                thenDequeue: { maybeDequeueRead() })
        }
    }

    /// Starts the write `tag`: through the watermarks when `watermarked`, else at once (both as
    /// ``submitRead(_:)``).
    func submitWrite(_ data: Data, tag: Int, watermarked: Bool) {
        submit { [self] in
            if watermarked {
                writeWhenWritable(data, tag: tag)
            } else {
                queueWrite(data, tag: tag)
            }
        }
    }

    private func submit(_ body: @escaping @Sendable () -> Void) {
        if submissionsOnTheWay.load(ordering: .acquiring) == 0, isOnSocketQueue {
            return body()
        }
        submissionsOnTheWay.add(1, ordering: .acquiringAndReleasing)
        socketQueue.async { [self] in
            onSocketQueue {
                submissionsOnTheWay.subtract(1, ordering: .acquiringAndReleasing)
                body()
            }
        }
    }

    /// Queues the write `tag` now when the write queue is within its watermarks and no earlier write
    /// waits, else keeps it waiting for ``writeWaitingWrites()`` (on the socket queue).
    func writeWhenWritable(_ data: Data, tag: Int) {
        guard waitingWrites.isEmpty, engine.isWritable else {
            return waitingWrites.append((data, tag))
        }
        queueWrite(data, tag: tag)
    }

    /// The write queue drained to its low watermark: queues the waiting writes, in order, while it
    /// stays within the marks (socket queue).
    func writeWaitingWrites() {
        while engine.isWritable, let next = waitingWrites.popFirst() {
            queueWrite(next.data, tag: next.tag)
        }
    }

    /// The connection closed: the waiting writes' operations failed with it.
    func dropWaitingWrites() {
        waitingWrites.removeAll()
    }

    private func queueWrite(_ data: Data, tag: Int) {
        enqueueOperation(
            "write", tag: tag, { engine.enqueueWrite(data, timeout: -1, tag: tag) },
            thenDequeue: { maybeDequeueWrite() })
    }

    /// The child becomes a connection with its own delegate, handed to the listener's sequence.
    override func accepted(_ child: Int32, from address: SocketAddress) {
        guard let listener = storedDelegate as? AsyncListenerDelegate else {
            return AcceptWithoutDelegate.reject(
                child, peer: address, warned: &warnedNoDelegate, logger: logger, face: "AsyncSocketListener",
                metadata: logMetadata().metadata())
        }
        let delegate = AsyncConnectionDelegate()
        let socket = AsyncCoreSocket(delegate: delegate, logger: logger, metrics: metricsSource)
        if let tap {
            socket.tap = tap
            tap.socket(self, didAcceptNewSocket: socket)
        }
        socket.adoptAccepted(child, unix: unixListenPath != nil, watching: true, tracker: tracker)
        listener.hand(AsyncSocketConnection(socket: socket, delegate: delegate))
    }
}
