// Where a native-engine socket is in its life. Each case holds what exists only in it (the socket a
// connect by address shows onSocketWillConnect, the connect race, the listeners), so "started",
// "connected", "connecting" and "listening" cannot contradict each other; a full close returns to
// `idle` in one assignment. An error close (willDisconnect running) is not a phase of its own: the
// socket is still in the phase it was in, as the original's streams still were.
enum NativePhase {
    case idle
    /// `onSocketWillConnect` is being asked before a connect by address; its socket exists already.
    case askingWillConnect(socket: Int32)
    case connecting(NativeConnecting)
    case listening(NativeListening)
    /// Accepted by a listener: the descriptor is open, the connection not yet reported on its loop.
    case accepted
    case connected
}

extension NativeSocketBackend {
    /// Connecting, listening, accepted or connected (what the original called having streams).
    var started: Bool {
        switch phase {
        case .idle, .askingWillConnect: false
        case .connecting, .listening, .accepted, .connected: true
        }
    }

    var connected: Bool {
        if case .connected = phase { true } else { false }
    }

    var connecting: NativeConnecting? {
        if case .connecting(let connecting) = phase { connecting } else { nil }
    }

    var listening: NativeListening? {
        if case .listening(let listening) = phase { listening } else { nil }
    }
}
