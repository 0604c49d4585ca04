// Where a queue-core socket is in its life, as the legacy face sees it (its QueueSocket has a phase
// of its own). One value instead of flags that could contradict each other; a full close returns to
// `idle` in one assignment.
enum QueueCorePhase {
    case idle
    /// `onSocketWillConnect` is being asked before a connect by address; its socket exists already.
    case askingWillConnect(socket: Int32)
    /// A connect is under way; one by address reports an asynchronous POSIX failure as -1 (2.3).
    case connecting(byAddress: Bool)
    case listening
    /// Accepted by a listener, not yet reported on its loop.
    case accepted
    case connected
}

extension QueueCoreBackend {
    /// Connecting, listening, accepted or connected.
    var started: Bool {
        switch phase {
        case .idle, .askingWillConnect: false
        case .connecting, .listening, .accepted, .connected: true
        }
    }

    var connected: Bool {
        if case .connected = phase { true } else { false }
    }
}
