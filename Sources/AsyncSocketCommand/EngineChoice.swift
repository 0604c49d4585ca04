import ArgumentParser
import AsyncSocketKit
import Logging

/// `--engine`: what drives a `RunLoopSocket`.
enum EngineChoice: String, CaseIterable, ExpressibleByArgument {
    /// The socket's own engine on libevent.
    case native
    /// A `QueueSocket` doing the I/O behind the run-loop facade, with legacy behavior.
    case queueCore = "queue-core"

    init(_ engine: RunLoopSocket.Engine) {
        switch engine {
        case .native: self = .native
        case .queueCore: self = .queueCore
        }
    }

    var engine: RunLoopSocket.Engine {
        switch self {
        case .native: .native
        case .queueCore: .queueCore
        }
    }
}

/// Makes the `RunLoopSocket`s a command creates itself (listeners and clients), with the command's
/// logger and the chosen engine; accepted sockets take their listener's engine.
struct RunLoopSocketFactory {
    let engine: EngineChoice
    let logger: Logger

    /// A new socket.
    func makeSocket(delegate: (any RunLoopSocketDelegate)? = nil) -> RunLoopSocket {
        RunLoopSocket(delegate: delegate, engine: engine.engine, logger: logger)
    }
}
