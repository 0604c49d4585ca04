import AsyncSocketCore
import Dispatch
import Foundation

/// The QueueSocket delegate of one queue-core connection: it carries every callback to the legacy
/// socket's loop (with the epoch of its QueueSocket), and carries timeout questions there for the
/// legacy delegate, the answer going back to the QueueSocket. It keeps its QueueSocket alive, and
/// accepted QueueSockets until the loop has wrapped them.
final class QueueCoreBridge: QueueSocketDelegate, @unchecked Sendable {
    // @unchecked Sendable: `held` is behind a `Lock`, the rest is `let` (and `deliveries` is
    // Sendable).
    /// The QueueSocket's delegate queue. Under legacy semantics every callback and question reaches
    /// the bridge on the socket queue (accepts included); only an accepted socket not yet adopted by
    /// its child (still GCD semantics) reports through this queue. A global queue means no queue is
    /// made and torn down per connection.
    var queue: DispatchQueue { .global() }
    /// Where the callbacks of the backend's connections wait for its loop.
    let deliveries: QueueCoreDeliveries
    /// The number of the connection this bridge serves, in its backend.
    let epoch: Int
    /// The sockets this bridge keeps alive, and which one it serves.
    private let held = Lock(HeldSockets())

    init(deliveries: QueueCoreDeliveries, epoch: Int) {
        self.deliveries = deliveries
        self.epoch = epoch
    }

    /// Marks `socket` as the one this bridge serves, and keeps it.
    func serve(_ socket: QueueSocket) {
        held.withLock {
            $0.servedIdentity = ObjectIdentifier(socket)
            $0.served = socket
        }
    }

    /// Keeps an accepted socket until its legacy child adopts it.
    func retain(_ socket: QueueSocket) {
        held.withLock { $0.accepted[ObjectIdentifier(socket)] = socket }
    }

    func release(_ socket: QueueSocket) {
        held.withLock { held in
            if held.served === socket {
                held.served = nil
            } else {
                held.accepted[ObjectIdentifier(socket)] = nil
            }
        }
    }

    /// Carries the connection's end-of-stream probes to the loop and back, behind the callbacks sent
    /// before them.
    func probeHandler(for socket: QueueCoreSocket) -> @Sendable (Int) -> Void {
        { [weak self, weak socket] index in
            self?.deliver { _ in socket?.legacyProbeReturned(stateIndex: index) }
        }
    }

    private func deliver(_ body: @escaping (QueueCoreBackend) -> Void) {
        deliveries.deliver(epoch: epoch, .call(body))
    }

    func socket(_ sock: QueueSocket, didAcceptNewSocket newSocket: QueueSocket) {
        // The listener's QueueCoreSocket makes its children QueueCoreSockets (its `accepted`).
        guard let child = newSocket as? QueueCoreSocket else { return newSocket.disconnect() }
        retain(child)
        deliver { [self] in
            release(child)
            $0.accepted(child)
        }
    }

    func socket(_ sock: QueueSocket, didConnectToHost host: String, port: UInt16) {
        deliver { $0.didConnect(host: host, port: port) }
    }

    /// A timeout question for the legacy delegate, asked on the loop; the answer goes to `reply`
    /// (none once the connection is over there: the question is moot). Without a loop, "time out".
    func askTimeout(
        _ direction: TransferDirection, _ query: TimeoutQuery, reply: @escaping @Sendable (TimeInterval) -> Void
    ) {
        guard deliveries.loop != nil else { return reply(0) }
        deliver { backend in
            guard let owner = backend.callbackOwner, let delegate = owner.delegateForCallbacks else { return reply(0) }
            switch direction {
            case .read:
                reply(
                    delegate.onSocket(
                        owner, shouldTimeoutReadWithTag: query.tag, elapsed: query.elapsed, bytesDone: query.bytesDone))
            case .write:
                reply(
                    delegate.onSocket(
                        owner, shouldTimeoutWriteWithTag: query.tag, elapsed: query.elapsed, bytesDone: query.bytesDone
                    ))
            }
        }
    }

    func socketDidDisconnect(_ sock: QueueSocket, withError error: (any Error)?) {
        let closing = error == nil ? nil : (sock as? QueueCoreSocket)?.takeErrorClose()
        release(sock)
        guard held.withLock({ $0.servedIdentity }) == ObjectIdentifier(sock) else {
            // A socket this listener accepted closed before its legacy child adopted it. The child is
            // made on the loop by the `accepted` delivery queued before this one, so once there, the
            // child's own bridge reports the close; the listener itself stays open.
            deliver { [self] _ in
                guard let adopter = sock.delegate as? QueueCoreBridge, adopter !== self else { return }
                adopter.reportClosed(error: error, closing: closing)
            }
            return
        }
        reportClosed(error: error, closing: closing)
    }

    private func reportClosed(error: (any Error)?, closing: LegacyErrorClose?) {
        deliver { $0.queueSocketClosed(error: error, closing: closing) }
    }
}

/// What a bridge keeps alive: the QueueSocket it serves (set once, before it starts), and sockets it
/// accepted until their legacy child adopts them (they report here meanwhile). Most bridges serve
/// one connection and accept nothing: their dictionary stays empty, which allocates nothing.
private struct HeldSockets {
    var served: QueueSocket?
    /// The served socket's identity, which outlives the reference (a close is recognised after it).
    var servedIdentity: ObjectIdentifier?
    var accepted: [ObjectIdentifier: QueueSocket] = [:]
}
