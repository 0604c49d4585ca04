import AsyncSocketCore

// The connections a listener accepted and that are still open, for a graceful shutdown (the
// AsyncSocketServiceLifecycle product): drain them all (disconnect after their queued writes), wait
// until the last one closed, and close the rest when that takes too long. A listener has a tracker
// only when such a service asked for one. Each face registers a child before anything can close it
// (inside the accept, on the child's own thread or queue) and removes it when its close is complete,
// so a removal never precedes its registration. The drain and close actions run outside the lock:
// they only hand work to the socket's own thread or queue.

/// The open connections a listener accepted.
package final class ConnectionTracker: Sendable {
    private struct Entry {
        let drain: @Sendable () -> Void
        let close: @Sendable () -> Void
    }

    private struct State {
        var entries: [ObjectIdentifier: Entry] = [:]
        var draining = false
        var waiters: [Int: CheckedContinuation<Void, Never>] = [:]
        var nextWaiter = 0
    }

    private let state = Lock(State())

    package init() {}

    /// The connections open now.
    package var count: Int { state.withLock { $0.entries.count } }

    /// Registers an accepted connection; one accepted while draining is drained at once.
    package func add(_ socket: AnyObject, drain: @escaping @Sendable () -> Void, close: @escaping @Sendable () -> Void)
    {
        let draining = state.withLock { state in
            state.entries[ObjectIdentifier(socket)] = Entry(drain: drain, close: close)
            return state.draining
        }
        if draining {
            drain()
        }
    }

    /// The connection closed (a socket never registered is ignored).
    package func remove(_ socket: AnyObject) {
        let waiters = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            guard state.entries.removeValue(forKey: ObjectIdentifier(socket)) != nil, state.entries.isEmpty else {
                return []
            }
            defer { state.waiters = [:] }
            return Array(state.waiters.values)
        }
        for waiter in waiters {
            waiter.resume()
        }
    }

    /// Asks every connection, and every one accepted from now on, to close after its queued writes.
    package func drainAll() {
        let entries = state.withLock { state in
            state.draining = true
            return Array(state.entries.values)
        }
        for entry in entries {
            entry.drain()
        }
    }

    /// Closes every connection now.
    package func closeAll() {
        for entry in state.withLock({ Array($0.entries.values) }) {
            entry.close()
        }
    }

    /// Returns once no connection is open, or when the calling task is cancelled.
    package func waitUntilEmpty() async {
        let id = state.withLock { state in
            defer { state.nextWaiter += 1 }
            return state.nextWaiter
        }
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let resumeNow = state.withLock { state in
                    guard !state.entries.isEmpty, !Task.isCancelled else { return true }
                    state.waiters[id] = continuation
                    return false
                }
                if resumeNow {
                    continuation.resume()
                }
            }
        } onCancel: {
            state.withLock { $0.waiters.removeValue(forKey: id) }?.resume()
        }
    }
}

/// A socket the tracker's actions reach on its own thread; they do nothing once it is gone.
package final class WeakSocketReference<Socket: AnyObject>: @unchecked Sendable {
    // @unchecked Sendable: `socket` is written once, here, and read only inside the closures the
    // faces give the tracker, which run on the socket's own loop thread or queue; a weak reference's
    // load is itself atomic.
    package weak var socket: Socket?

    package init(_ socket: Socket) {
        self.socket = socket
    }
}

extension QueueSocket {
    /// The tracker of the connections this listener accepts from now on (made on first call).
    package func trackAcceptedConnections() -> ConnectionTracker {
        sync {
            if let tracker { return tracker }
            let made = ConnectionTracker()
            tracker = made
            return made
        }
    }
}

extension RunLoopSocket {
    /// The tracker of the connections this listener accepts from now on (made on first call). Call on
    /// the socket's thread, as every call.
    package func trackAcceptedConnections() -> ConnectionTracker {
        checkThread("trackAcceptedConnections()")
        if let tracker { return tracker }
        let made = ConnectionTracker()
        tracker = made
        return made
    }
}

extension AsyncSocketListener {
    /// The tracker of the connections this listener accepts from now on (made on first call).
    package func trackAcceptedConnections() -> ConnectionTracker {
        socket.trackAcceptedConnections()
    }
}
