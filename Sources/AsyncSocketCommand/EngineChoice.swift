import ArgumentParser
import AsyncSocketKit
import Logging

/// `--engine`: what drives a `RunLoopSocket`.
enum EngineChoice: String, CaseIterable, ExpressibleByArgument {
    /// The socket's own engine on libevent (the only one in this build).
    case native
    /// The queue-based core behind a run-loop facade (`RunLoopSocket(..., engine:)`, not yet here).
    case queueCore = "queue-core"
}

/// Makes the `RunLoopSocket`s a command creates itself (listeners and clients), with the command's
/// logger and the chosen engine. The one place that knows which engines this build has.
struct RunLoopSocketFactory {
    let engine: EngineChoice
    let logger: Logger

    /// A new socket, or ``EngineUnavailable`` for an engine this build lacks.
    func makeSocket(delegate: (any RunLoopSocketDelegate)? = nil) throws -> RunLoopSocket {
        switch engine {
        case .native:
            return RunLoopSocket(delegate: delegate, logger: logger)
        case .queueCore:
            throw EngineUnavailable(engine: engine)
        }
    }
}

/// The error for an `--engine` this build does not have.
struct EngineUnavailable: Error, CustomStringConvertible {
    let engine: EngineChoice

    var description: String { "\(engine.rawValue) is not available in this build" }
}
