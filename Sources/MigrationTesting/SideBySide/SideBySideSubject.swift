import AsyncSocketKit
import Foundation

/// One program in a side-by-side run: the legacy code (on either `RunLoopSocket` engine) or the
/// modern code, with a name for the report.
public struct SideBySideSubject: Sendable {
    enum Body: Sendable {
        case legacy(RunLoopSocket.Engine, @Sendable (LegacyRun) throws -> Void)
        case modern(@Sendable (ModernRun) throws -> Void)
        case async(@Sendable (AsyncRun) async throws -> Void)
    }

    /// The name the report uses.
    public let name: String
    let body: Body

    /// Legacy code: `body` runs on a run loop thread of its own, sets up its sockets (connecting to
    /// ``LegacyRun/peerPort`` or listening and calling ``LegacyRun/listening(on:)``), traces them
    /// with `LegacyRun.trace(_:label:)` and returns; the loop then runs until the run ends.
    public static func legacy(
        _ name: String? = nil, engine: RunLoopSocket.Engine = .native,
        _ body: @escaping @Sendable (LegacyRun) throws -> Void
    ) -> SideBySideSubject {
        SideBySideSubject(name: name ?? "RunLoopSocket (\(engine))", body: .legacy(engine, body))
    }

    /// Modern code: `body` sets up its sockets (connecting to ``ModernRun/peerPort`` or listening and
    /// calling ``ModernRun/listening(on:)``), traces them with `ModernRun.trace(_:label:)` and
    /// returns; its callbacks arrive on its own queues.
    public static func modern(_ name: String = "QueueSocket", _ body: @escaping @Sendable (ModernRun) throws -> Void)
        -> SideBySideSubject
    {
        SideBySideSubject(name: name, body: .modern(body))
    }

    /// An async port: `body` runs in a task on ``AsyncRun/executor``, starts its work (connecting to
    /// ``AsyncRun/peerPort``, or listening and calling ``AsyncRun/listening(on:)``) in tasks of its own
    /// on that executor, and returns. Every `AsyncSocketConnection` and `AsyncSocketListener` made in
    /// it, or in the tasks it starts, is traced (name them with ``AsyncRun/name(next:)``); an async
    /// connection has no tags, so its reads and writes are recorded with tag 0 and the tags of the other
    /// runs are left out of the comparison with it. Its timeouts are its own tasks: a timeout shows in
    /// the trace as the close the port then makes.
    public static func async(
        _ name: String = "AsyncSocketConnection", _ body: @escaping @Sendable (AsyncRun) async throws -> Void
    ) -> SideBySideSubject {
        SideBySideSubject(name: name, body: .async(body))
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
    /// Whether the trace carries the program's tags (an async port's has none: its tags are 0).
    public var recordsTags = true
}
