// Where a RunLoopSocket is in its life, for either engine. Each case holds what exists only in it
// (the socket a connect by address shows onSocketWillConnect, the engine's connect and listen
// state), so "started", "connected", "connecting" and "listening" cannot contradict each other; a
// full close returns to `idle` in one assignment. An error close (willDisconnect running) is not a
// phase of its own: the socket is still in the phase it was in, as the original's streams still were.
enum LegacyPhase<Connecting, Listening> {
    case idle
    /// `onSocketWillConnect` is being asked before a connect by address; its socket exists already.
    case askingWillConnect(socket: Int32)
    case connecting(Connecting)
    case listening(Listening)
    /// Accepted by a listener: the descriptor is open, the connection not yet reported on its loop.
    case accepted
    case connected

    /// Connecting, listening, accepted or connected (what the original called having streams).
    var isStarted: Bool {
        switch self {
        case .idle, .askingWillConnect: false
        case .connecting, .listening, .accepted, .connected: true
        }
    }

    var isConnected: Bool {
        if case .connected = self { true } else { false }
    }
}

/// The native engine's phase: its connect race and its listeners.
typealias NativePhase = LegacyPhase<NativeConnecting, NativeListening>

/// The queue-core engine's phase (its QueueSocket has one of its own): whether a connect is by
/// address (an asynchronous POSIX failure is then reported as the legacy error -1).
typealias QueueCorePhase = LegacyPhase<QueueCoreConnect, Void>

/// How a queue-core connect was started.
struct QueueCoreConnect {
    let byAddress: Bool
}

extension NativeSocketBackend {
    var started: Bool { phase.isStarted }
    var connected: Bool { phase.isConnected }

    var connecting: NativeConnecting? {
        if case .connecting(let connecting) = phase { connecting } else { nil }
    }

    var listening: NativeListening? {
        if case .listening(let listening) = phase { listening } else { nil }
    }
}

extension QueueCoreBackend {
    var started: Bool { phase.isStarted }
    var connected: Bool { phase.isConnected }
}
