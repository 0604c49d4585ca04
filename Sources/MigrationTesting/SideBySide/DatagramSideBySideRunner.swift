import AsyncSocketCore
import AsyncSocketKit
import Foundation

/// The side-by-side runner for UDP programs: plays one ``DatagramScript`` against several programs —
/// `RunLoopUdpSocket` code and its `QueueUdpSocket` port, or the legacy code on both engines — one
/// after the other, each with a fresh ``ScriptedDatagramPeer``, and compares what each did with the
/// first: the datagrams the peer received (one by one), how its script went, and the traces under
/// ``EquivalenceRules``.
///
/// The peer's socket exists before the program runs (its port is ``LegacyRun/peerPort`` /
/// ``ModernRun/peerPort``); a program that receives first says where with `listening(on:)`. A run
/// ends when the peer has finished its script; then the runner closes every traced socket still
/// open, which the traces record too. Every wait is bounded by ``timeout``. UDP has no end of
/// stream to wait for: a datagram the peer sends after its last `expect` or `receive` may still be
/// on its way when the runner closes the program's sockets, so end a script by taking the answer to
/// what it sent last.
public struct DatagramSideBySideRunner: Sendable {
    /// What the peer does in every run.
    public var script: DatagramScript
    /// How traces are compared.
    public var rules: EquivalenceRules
    /// The longest one program's run may take (its ending, when the runner closes what is still
    /// open, has a few seconds more).
    public var timeout: TimeInterval

    /// A runner for `script`.
    public init(script: DatagramScript, rules: EquivalenceRules = .standard, timeout: TimeInterval = 30) {
        self.script = script
        self.rules = rules
        self.timeout = timeout
    }

    /// Runs the legacy code (`RunLoopUdpSocket`, native engine) and the modern code (`QueueUdpSocket`),
    /// and compares them.
    public func run(
        scenario: String = "", legacy: @escaping @Sendable (LegacyRun) throws -> Void,
        modern: @escaping @Sendable (ModernRun) throws -> Void
    ) -> SideBySideReport {
        run(
            [.legacy("RunLoopUdpSocket (native)", engine: .native, legacy), .modern("QueueUdpSocket", modern)],
            scenario: scenario)
    }

    /// Runs every subject in turn and compares each with the first.
    public func run(_ subjects: [SideBySideSubject], scenario: String = "") -> SideBySideReport {
        SideBySideReport(scenario: scenario, comparing: subjects.map(run), rules: rules)
    }

    private func run(_ subject: SideBySideSubject) -> SubjectOutcome {
        let deadline = Date(timeIntervalSinceNow: timeout)
        let peer: ScriptedDatagramPeer
        do {
            peer = try ScriptedDatagramPeer()
        } catch {
            return SubjectOutcome(
                name: subject.name, trace: [], peer: nil, problems: ["the peer did not start: \(error)"])
        }
        switch subject.body {
        case .legacy(let engine, let body):
            return runLegacy(subject.name, engine: engine, body, peer: peer, deadline: deadline)
        case .modern(let body):
            return runModern(subject.name, body, peer: peer, deadline: deadline)
        case .async:
            return SubjectOutcome(
                name: subject.name, trace: [], peer: nil,
                problems: ["an async subject has no datagram socket: give a datagram run legacy and modern subjects"])
        }
    }

    private func runLegacy(
        _ name: String, engine: RunLoopSocket.Engine, _ body: @escaping @Sendable (LegacyRun) throws -> Void,
        peer: ScriptedDatagramPeer, deadline: Date
    ) -> SubjectOutcome {
        var problems: [String] = []
        let thread = EventRunLoopThread(name: "side-by-side \(name)")
        defer { thread.terminate() }
        let run = LegacyRun(peerPort: peer.port, engine: engine, loop: thread.loop)
        if let thrown = SideBySideRunner.onLoop(thread.loop, deadline: deadline, { try body(run) }) {
            problems.append(thrown)
        }
        let outcome = play(peer, programPort: run.listeningPort, deadline: deadline, problems: &problems)
        let closing = Lock<[String]>([])
        _ = SideBySideRunner.onLoop(thread.loop, deadline: Date(timeIntervalSinceNow: SideBySideRunner.teardownTimeout))
        {
            for socket in run.tracedUdpSockets where !socket.isClosed {
                closing.withLock { $0.append(run.log.label(of: socket)) }
                socket.close()
            }
        }
        problems += waitForCloses(closing.withLock { $0 }, in: run.log)
        _ = SideBySideRunner.onLoop(thread.loop, deadline: Date(timeIntervalSinceNow: SideBySideRunner.teardownTimeout))
        {
            run.releaseKept()
        }
        return SubjectOutcome(name: name, trace: run.log.trace, peer: outcome, problems: problems)
    }

    private func runModern(
        _ name: String, _ body: @escaping @Sendable (ModernRun) throws -> Void, peer: ScriptedDatagramPeer,
        deadline: Date
    ) -> SubjectOutcome {
        var problems: [String] = []
        let run = ModernRun(peerPort: peer.port)
        do {
            try body(run)
        } catch {
            problems.append("the program threw \(error)")
        }
        let outcome = play(peer, programPort: run.listeningPort, deadline: deadline, problems: &problems)
        // A socket that never made its descriptors reports no close (as GCDAsyncUdpSocket).
        let open = run.udpRecorders.flatMap(\.sockets).filter { !$0.isClosed }
        for socket in open {
            socket.close()
        }
        problems += waitForCloses(open.map { run.log.label(of: $0) }, in: run.log)
        run.releaseKept()
        return SubjectOutcome(name: name, trace: run.log.trace, peer: outcome, problems: problems)
    }

    /// Plays the script (unless the program already failed) and waits for the peer.
    private func play(
        _ peer: ScriptedDatagramPeer, programPort: UInt16?, deadline: Date, problems: inout [String]
    ) -> PeerOutcome? {
        guard problems.isEmpty else { return nil }
        peer.play(script, programPort: programPort)
        guard let outcome = peer.waitUntilFinished(timeout: max(0, deadline.timeIntervalSinceNow)) else {
            problems.append("the peer did not finish its script in time")
            return nil
        }
        return outcome
    }

    /// Waits for the close report of each socket labelled in `labels`; returns what did not come.
    private func waitForCloses(_ labels: [String], in log: TraceLog) -> [String] {
        log.waitForDisconnects(of: labels, timeout: SideBySideRunner.teardownTimeout)
            ? [] : ["a socket closed by the runner did not report it in time"]
    }
}
