import AsyncSocketKit
import Foundation

/// Plays one peer script against several programs — the legacy code and its modern port (on
/// `QueueSocket`, or async), or the legacy code on both `RunLoopSocket` engines — one after the other, each with a fresh peer, and
/// compares what each did with the first: the bytes the peer received (byte for byte), how the
/// peer's script went, and the traces under ``EquivalenceRules``.
///
/// A run ends when the peer has finished its script (after its last step it half-closes and waits
/// for the program to close) and every traced connection has reported its final disconnect; then
/// the runner disconnects whatever traced socket is still open (listeners, typically), which the
/// traces record too. Every wait is bounded by ``timeout``.
public struct SideBySideRunner: Sendable {
    /// What the peer does in every run.
    public var script: PeerScript
    /// How traces are compared.
    public var rules: EquivalenceRules
    /// The longest one program's run may take (its ending, when the runner disconnects what is
    /// still open, has a few seconds more).
    public var timeout: TimeInterval

    /// How long the ending of a run (closing what is still open) may take.
    static let teardownTimeout: TimeInterval = 5

    /// A runner for `script`.
    public init(script: PeerScript, rules: EquivalenceRules = .standard, timeout: TimeInterval = 30) {
        self.script = script
        self.rules = rules
        self.timeout = timeout
    }

    /// Runs the legacy code (on the native engine) and the modern code, and compares them.
    public func run(
        scenario: String = "", legacy: @escaping @Sendable (LegacyRun) throws -> Void,
        modern: @escaping @Sendable (ModernRun) throws -> Void
    ) -> SideBySideReport {
        run([.legacy(nil, engine: .native, legacy), .modern("QueueSocket", modern)], scenario: scenario)
    }

    /// Runs every subject in turn and compares each with the first.
    public func run(_ subjects: [SideBySideSubject], scenario: String = "") -> SideBySideReport {
        SideBySideReport(scenario: scenario, comparing: subjects.map(run), rules: rules)
    }

    private func run(_ subject: SideBySideSubject) -> SubjectOutcome {
        let deadline = Date(timeIntervalSinceNow: timeout)
        switch subject.body {
        case .legacy(let engine, let body):
            return runLegacy(subject.name, engine: engine, body, deadline: deadline)
        case .modern(let body):
            return runModern(subject.name, body, deadline: deadline)
        case .async(let body):
            return runAsync(subject.name, body, deadline: deadline)
        }
    }

    /// A server-role script's peer, started (`nil` for a client-role script, which starts once the
    /// program listens), or the outcome of a run whose peer did not start.
    private func startServerPeer(for name: String, recordsTags: Bool = true) -> (
        peer: ScriptedPeer?, failed: SubjectOutcome?
    ) {
        guard script.role == .server else { return (nil, nil) }
        do {
            return (try ScriptedPeer.start(script), nil)
        } catch {
            let failed = SubjectOutcome(
                name: name, trace: [], peer: nil, problems: ["the peer did not start: \(error)"],
                recordsTags: recordsTags)
            return (nil, failed)
        }
    }

    // MARK: Legacy

    private func runLegacy(
        _ name: String, engine: RunLoopSocket.Engine, _ body: @escaping @Sendable (LegacyRun) throws -> Void,
        deadline: Date
    ) -> SubjectOutcome {
        var problems: [String] = []
        let started = startServerPeer(for: name)
        if let failed = started.failed { return failed }
        var peer = started.peer
        let thread = EventRunLoopThread(name: "side-by-side \(name)")
        defer { thread.terminate() }
        let run = LegacyRun(peerPort: peer?.port, engine: engine, loop: thread.loop)
        if let thrown = Self.onLoop(thread.loop, deadline: deadline, { try body(run) }) {
            problems.append(thrown)
        }
        if problems.isEmpty {
            problems += playAndSettle(peer: &peer, listeningPort: run.listeningPort, log: run.log, deadline: deadline)
        }
        _ = Self.onLoop(thread.loop, deadline: Date(timeIntervalSinceNow: Self.teardownTimeout)) {
            for socket in run.tracedSockets {
                socket.disconnect()
            }
            run.releaseKept()
        }
        return SubjectOutcome(name: name, trace: run.log.trace, peer: peer?.outcome, problems: problems)
    }

    /// Runs `work` on `loop` and waits for it; returns a description of what went wrong, if anything.
    static func onLoop(_ loop: EventRunLoop, deadline: Date, _ work: @escaping @Sendable () throws -> Void) -> String? {
        let result = Outcome()
        loop.perform {
            do {
                try work()
                result.finish(nil)
            } catch {
                result.finish("the program threw \(error)")
            }
        }
        return result.wait(until: deadline) ?? "the program's loop did not answer in time"
    }

    // MARK: Modern

    private func runModern(_ name: String, _ body: @escaping @Sendable (ModernRun) throws -> Void, deadline: Date)
        -> SubjectOutcome
    {
        var problems: [String] = []
        let started = startServerPeer(for: name)
        if let failed = started.failed { return failed }
        var peer = started.peer
        let run = ModernRun(peerPort: peer?.port)
        do {
            try body(run)
        } catch {
            problems.append("the program threw \(error)")
        }
        if problems.isEmpty {
            problems += playAndSettle(peer: &peer, listeningPort: run.listeningPort, log: run.log, deadline: deadline)
        }
        problems += Self.disconnectOpen(run.recorders.flatMap(\.sockets), log: run.log)
        run.releaseKept()
        return SubjectOutcome(name: name, trace: run.log.trace, peer: peer?.outcome, problems: problems)
    }

    /// Disconnects the traced sockets still open and waits for their reports; returns what did not
    /// happen in time.
    private static func disconnectOpen(_ sockets: [QueueSocket], log: TraceLog) -> [String] {
        let open = sockets.filter { !$0.isDisconnected }
        for socket in open {
            socket.disconnect()
        }
        guard log.waitForDisconnects(of: open.map { log.label(of: $0) }, timeout: Self.teardownTimeout) else {
            return ["a socket disconnected by the runner did not report it in time"]
        }
        return []
    }

    // MARK: Async

    private func runAsync(
        _ name: String, _ body: @escaping @Sendable (AsyncRun) async throws -> Void, deadline: Date
    ) -> SubjectOutcome {
        var problems: [String] = []
        let started = startServerPeer(for: name, recordsTags: false)
        if let failed = started.failed { return failed }
        var peer = started.peer
        let run = AsyncRun(peerPort: peer?.port)
        let observer: any AsyncSocketObserver = AsyncRun.Observer(run: run)
        let returned = Outcome()
        Task(executorPreference: run.executor) {
            do {
                try await AsyncSocketObservation.$observer.withValue(observer) { try await body(run) }
                returned.finish(nil)
            } catch {
                returned.finish("the program threw \(error)")
            }
        }
        if let problem = returned.wait(until: deadline) ?? "the program did not return in time" {
            problems.append(problem)
        }
        if problems.isEmpty {
            problems += playAndSettle(peer: &peer, listeningPort: run.listeningPort, log: run.log, deadline: deadline)
        }
        problems += Self.disconnectOpen(run.recorder.sockets, log: run.log)
        run.releaseKept()
        return SubjectOutcome(
            name: name, trace: run.log.trace, peer: peer?.outcome, problems: problems, recordsTags: false)
    }

    // MARK: Both

    /// Starts a client-role peer, waits for the peer to finish and for every traced connection to
    /// close; returns what did not happen in time.
    private func playAndSettle(peer: inout ScriptedPeer?, listeningPort: UInt16?, log: TraceLog, deadline: Date)
        -> [String]
    {
        if script.role == .client {
            guard let listeningPort else {
                return ["the program did not say where it listens (call listening(on:))"]
            }
            do {
                peer = try ScriptedPeer.start(script, connectingTo: listeningPort)
            } catch {
                return ["the peer did not start: \(error)"]
            }
        }
        guard let peer, let outcome = peer.waitUntilFinished(timeout: max(0, deadline.timeIntervalSinceNow)) else {
            return ["the peer did not finish its script in time"]
        }
        // The peer's connection is one of the program's: wait until it has opened there too, and
        // everything that opened has closed.
        let expected = outcome.connected ? 1 : 0
        let settled = log.wait(timeout: max(0, deadline.timeIntervalSinceNow)) {
            log.connectionsOpened >= expected && log.allConnectionsClosed
        }
        return settled ? [] : ["a connection did not report its disconnect in time"]
    }
}

/// A result handed from a loop thread to the waiting runner.
final class Outcome: @unchecked Sendable {
    // @unchecked Sendable: `value` is touched only under `condition`.
    private let condition = NSCondition()
    private var value: String??

    func finish(_ problem: String?) {
        condition.withLock {
            value = .some(problem)
            condition.broadcast()
        }
    }

    /// The problem reported (`.some(nil)`: none), or `nil` at `deadline`.
    func wait(until deadline: Date) -> String?? {
        condition.withLock {
            while value == nil, condition.wait(until: deadline) {}
            return value
        }
    }
}
