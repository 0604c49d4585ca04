// Where a QueueSocket is in its life. Each case holds what exists only in it (the connect race, the
// listeners), so "started", "connected", "connecting" and "listening" cannot contradict each other;
// a close returns to `idle` in one assignment.
enum QueueSocketPhase {
    case idle
    /// A connect has begun and its addresses are not being tried yet (a name is being resolved).
    case starting
    case connecting(ConnectDriver<QueueSocket>)
    case listening(ListenerDriver<QueueSocket>)
    case connected
}

extension QueueSocket {
    /// Connecting, listening or connected.
    var started: Bool {
        if case .idle = phase { false } else { true }
    }

    var connected: Bool {
        if case .connected = phase { true } else { false }
    }

    /// The connect race under way.
    var connectDriver: ConnectDriver<QueueSocket>? {
        if case .connecting(let driver) = phase { driver } else { nil }
    }

    /// The listeners, while accepting.
    var listener: ListenerDriver<QueueSocket>? {
        if case .listening(let driver) = phase { driver } else { nil }
    }
}
