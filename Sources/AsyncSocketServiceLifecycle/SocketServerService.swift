import AsyncSocketKit
import Logging
import ServiceLifecycle

// A server's graceful shutdown, the same for every face: the listener stops accepting, every open
// connection it accepted is asked to disconnect after its queued writes (the faces' own
// disconnectAfterWriting, on the connection's own thread or queue), and the service waits until
// the last one closed; at the deadline it closes the rest. The listener's ConnectionTracker
// (AsyncSocketKit/Net/ConnectionTracker.swift) knows which connections are open.

/// A server built on `RunLoopSocket`, `QueueSocket` or `AsyncSocketListener`, run as a
/// swift-service-lifecycle `Service`.
///
/// `run()` waits for the service group's graceful shutdown (on the signals the group was configured
/// with, `SIGTERM` as a rule). Then the listener stops accepting, every connection it accepted and that
/// is still open disconnects once its queued writes have gone out, and `run()` returns when the last
/// one has closed, or after `drainTimeout`, having closed those still open. Cancelled instead (the group
/// shutting down because another service failed), it closes the listener and the connections at once.
///
/// Make the service before the listener accepts its first connection: it follows only the connections
/// accepted after it was made. A `RunLoopSocket` listener's service must be made on the listener's
/// thread (as every call on it is); the listener and its connections go on running on their loops.
///
/// ```swift
/// let listener = QueueSocket(delegate: server, delegateQueue: server.queue)
/// let service = SocketServerService(listener: listener, drainTimeout: .seconds(5), logger: logger)
/// try listener.accept(onPort: 7000)
/// let group = ServiceGroup(services: [service], gracefulShutdownSignals: [.sigterm], logger: logger)
/// try await group.run()
/// ```
public struct SocketServerService: Service {
    /// How long the open connections may take to send what they queued once shutdown began.
    public let drainTimeout: Duration
    private let tracker: ConnectionTracker
    private let stopAccepting: @Sendable () -> Void
    private let logger: Logger?

    /// A service for a `QueueSocket` listener. `logger` receives the shutdown's lines (its steps at
    /// `.debug`, connections closed at the deadline at `.warning`).
    public init(listener: QueueSocket, drainTimeout: Duration = .seconds(10), logger: Logger? = nil) {
        self.drainTimeout = drainTimeout
        self.logger = logger
        tracker = listener.trackAcceptedConnections()
        stopAccepting = { listener.disconnect() }
    }

    /// A service for a `RunLoopSocket` listener; make it on the listener's thread, after any
    /// `moveToRunLoop(_:)` of the listener: that loop is where the listener is closed at shutdown (a
    /// listener moved afterwards is not followed). The connections it accepts are followed on whatever
    /// loop they run. `logger` as for a `QueueSocket` listener.
    public init(listener: RunLoopSocket, drainTimeout: Duration = .seconds(10), logger: Logger? = nil) {
        self.drainTimeout = drainTimeout
        self.logger = logger
        tracker = listener.trackAcceptedConnections()
        let loop = EventRunLoop.current
        let reference = WeakSocketReference(listener)
        stopAccepting = { loop.perform { reference.socket?.disconnect() } }
    }

    /// A service for an `AsyncSocketListener`: at shutdown the listener closes, so its `connections`
    /// sequence ends, and each connection's pending reads end with the connection's close once its
    /// queued writes have gone out. `logger` as for a `QueueSocket` listener.
    public init(listener: AsyncSocketListener, drainTimeout: Duration = .seconds(10), logger: Logger? = nil) {
        self.drainTimeout = drainTimeout
        self.logger = logger
        tracker = listener.trackAcceptedConnections()
        stopAccepting = { listener.close() }
    }

    /// Runs until the service group shuts down, then shuts the server down (see ``SocketServerService``).
    public func run() async throws {
        guard await ShutdownSignal.next() == .gracefulShutdown else {
            logger?.debug("cancelled: closing the listener and every connection now")
            stopAccepting()
            tracker.closeAll()
            return
        }
        stopAccepting()
        let open = tracker.count
        logger?.debug(
            "graceful shutdown: stopped accepting; draining the open connections", metadata: ["open": "\(open)"])
        tracker.drainAll()
        let drained = await withTaskGroup(of: Bool.self) { group in
            group.addTask {
                await tracker.waitUntilEmpty()
                return !Task.isCancelled
            }
            group.addTask {
                try? await Task.sleep(for: drainTimeout)
                return false
            }
            let first = await group.next() ?? false
            group.cancelAll()
            return first
        }
        if drained {
            logger?.debug("graceful shutdown: every connection closed")
        } else {
            logger?.warning(
                "graceful shutdown: the drain deadline passed; closing the connections still open",
                metadata: ["open": "\(tracker.count)", "deadline": "\(drainTimeout)"])
            tracker.closeAll()
        }
    }
}
