import AsyncSocketKit
import Foundation

/// One program in a side-by-side run: the legacy code (on either `RunLoopSocket` engine) or the
/// modern code, with a name for the report.
public struct SideBySideSubject: Sendable {
    enum Body: Sendable {
        case legacy(RunLoopSocket.Engine, @Sendable (LegacyRun) throws -> Void)
        case modern(@Sendable (ModernRun) throws -> Void)
    }

    /// The name the report uses.
    public let name: String
    let body: Body

    /// Legacy code: `body` runs on a run loop thread of its own, sets up its sockets (connecting to
    /// ``LegacyRun/peerPort`` or listening and calling ``LegacyRun/listening(on:)``), traces them
    /// with ``LegacyRun/trace(_:label:)`` and returns; the loop then runs until the run ends.
    public static func legacy(
        _ name: String? = nil, engine: RunLoopSocket.Engine = .native,
        _ body: @escaping @Sendable (LegacyRun) throws -> Void
    ) -> SideBySideSubject {
        SideBySideSubject(name: name ?? "RunLoopSocket (\(engine))", body: .legacy(engine, body))
    }

    /// Modern code: `body` sets up its sockets (connecting to ``ModernRun/peerPort`` or listening and
    /// calling ``ModernRun/listening(on:)``), traces them with ``ModernRun/trace(_:label:)`` and
    /// returns; its callbacks arrive on its own queues.
    public static func modern(_ name: String = "QueueSocket", _ body: @escaping @Sendable (ModernRun) throws -> Void)
        -> SideBySideSubject
    {
        SideBySideSubject(name: name, body: .modern(body))
    }
}

/// What one program did in a side-by-side run.
public struct SubjectOutcome: Sendable {
    /// The subject's name.
    public var name: String
    /// Its trace, as recorded (before the equivalence rules).
    public var trace: [TraceEntry]
    /// What the peer went through with it (`nil` if the peer never started).
    public var peer: PeerOutcome?
    /// What kept the run from finishing normally: a thrown error, a program that never listened, a
    /// peer or connection that did not finish in time.
    public var problems: [String]
}
