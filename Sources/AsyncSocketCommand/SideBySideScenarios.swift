import AsyncSocketKit
import Foundation
import Logging
import MigrationExample
import MigrationTesting

/// A built-in side-by-side scenario: a scripted peer, the three programs it is played against
/// (`RunLoopSocket` on each engine, and the `QueueSocket` port), and the rules they are compared under.
struct SideBySideScenario: Sendable {
    let name: String
    let summary: String
    let script: PeerScript
    let rules: EquivalenceRules
    let subjects: [SideBySideSubject]
    /// Differences between the APIs this scenario shows, declared to the rules (and printed).
    var declared: [String] = []

    func run(timeout: TimeInterval) -> SideBySideReport {
        SideBySideRunner(script: script, rules: rules, timeout: timeout).run(subjects, scenario: name)
    }
}

extension SideBySideScenario {
    /// Every built-in scenario, in the order they run.
    static func all(logger: Logger) -> [SideBySideScenario] {
        [
            lineClient(
                "line-conversation", "the worked example's LINE client: greeting, commands, payloads, QUIT",
                script: [
                    .send("WELCOME line-server\r\n"), .expectLine("PING"), .send("PONG\r\n"), .expectLine("GET motd"),
                    .send("PAYLOAD 12\r\nhel", chunkSizes: [9, 4], gap: 0.002), .send("lo\r\nworld"),
                    .expectLine("QUIT"), .send("BYE\r\nsee you"), .close,
                ], commands: ["PING", "GET motd", "QUIT"]),
            lineClient(
                "dribbled-reply", "a reply arriving one byte every 2 ms",
                script: [
                    .send("WELCOME line-server\r\n"), .expectLine("PING"),
                    .dribble("PONG, slowly\r\n", interval: 0.002),
                    .expectLine("QUIT"), .send("BYE\r\n"), .close,
                ], commands: ["PING", "QUIT"]),
            lineClient(
                "slow-reply", "a reply that never ends: one timeout extension, then a read timeout",
                script: [.send("WELCOME line-server\r\n"), .expectLine("SLOW"), .send("PART"), .expectClose],
                commands: ["SLOW"], replyTimeout: 0.2),
            serverReset(),
            echoServer(logger: logger),
        ]
    }

    /// The QueueSocket port keeps a read-any (tag 4) queued after its last command, its stand-in for
    /// `unreadData`: those reads are its own.
    private static var lineClientRules: EquivalenceRules {
        var rules = EquivalenceRules.standard
        rules.custom = [{ entry in if case .read(4, _) = entry.event { nil } else { entry } }]
        return rules
    }

    private static func lineClient(
        _ name: String, _ summary: String, script steps: [PeerStep], commands: [String], replyTimeout: TimeInterval = 5
    ) -> SideBySideScenario {
        let configuration = LineClientConfiguration(
            commands: commands, replyTimeout: replyTimeout, timeoutExtension: replyTimeout)
        let legacy: @Sendable (LegacyRun) throws -> Void = { run in
            let client = RunLoopLineClient(configuration: configuration, engine: run.engine)
            run.keep(client)
            run.trace(client.socket, label: "client")
            try client.start(host: "127.0.0.1", port: run.peerPort ?? 0)
        }
        return SideBySideScenario(
            name: name, summary: summary, script: .server(steps), rules: lineClientRules,
            subjects: [
                .legacy(engine: .native, legacy), .legacy(engine: .queueCore, legacy),
                .modern { run in
                    let client = QueueLineClient(configuration: configuration)
                    run.keep(client)
                    run.trace(client.socket, label: "client")
                    try client.start(host: "127.0.0.1", port: run.peerPort ?? 0)
                },
            ])
    }

    /// GCDAsyncSocket reports a reset as the peer's close (`closed`, 7); the run-loop class as the
    /// POSIX error: declared, so the rest of the run is still compared.
    private static func serverReset() -> SideBySideScenario {
        let scenario = lineClient(
            "server-reset", "the server resets the connection in the middle of a reply",
            script: [.send("WELCOME line-server\r\n"), .expectLine("PING"), .send("PO"), .reset], commands: ["PING"])
        var rules = scenario.rules
        rules.custom.append { entry in
            guard entry.event == .disconnected(.posix(Int(ECONNRESET))) else { return entry }
            return TraceEntry(socket: entry.socket, event: .disconnected(.byPeer))
        }
        return SideBySideScenario(
            name: scenario.name, summary: scenario.summary, script: scenario.script, rules: rules,
            subjects: scenario.subjects,
            declared: ["a reset is ECONNRESET on RunLoopSocket, `closed` (7) on QueueSocket, as in GCDAsyncSocket"])
    }

    private static func echoServer(logger: Logger) -> SideBySideScenario {
        let legacy: @Sendable (LegacyRun) throws -> Void = { run in
            let server = try LegacyLineServer(
                service: EchoService(), factory: RunLoopSocketFactory(engine: EngineChoice(run.engine), logger: logger),
                tlsSettings: nil, workerCount: 0, logger: logger)
            run.keep(server)
            run.trace(server.listener, label: "listener")
            run.listening(on: try server.start(interface: "127.0.0.1", port: 0))
        }
        return SideBySideScenario(
            name: "echo-server", summary: "the command's echo server, with a client sending in pieces and dribbling",
            script: .client([
                .send("one\ntwo\n", chunkSizes: [2, 3]), .expect("one\ntwo\n"), .dribble("three\n", interval: 0.002),
                .expectLine("three"), .halfClose, .expectClose,
            ]),
            rules: .standard,
            subjects: [
                .legacy(engine: .native, legacy), .legacy(engine: .queueCore, legacy),
                .modern { run in
                    let server = QueueLineServer(service: EchoService(), tlsSettings: nil, logger: logger)
                    run.keep(server)
                    let port = try server.start(interface: "127.0.0.1", port: 0) { listener in
                        run.trace(listener, label: "listener")
                    }
                    run.listening(on: port)
                },
            ])
    }
}
