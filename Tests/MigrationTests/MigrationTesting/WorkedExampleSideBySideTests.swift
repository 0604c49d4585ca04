import AsyncSocketKit
import Foundation
import MigrationExample
import MigrationTesting
import Testing

/// The migration guide's worked example, checked the way the guide tells readers to check their own
/// port: the LINE client on `RunLoopSocket` (native engine, then the queue core), on `QueueSocket` and
/// (in the whole conversation) on `AsyncSocketConnection`, against one scripted LINE server, side by side.
@Suite("The worked example side by side: the same bytes on the wire, equivalent traces")
struct WorkedExampleSideBySideTests {
    /// The QueueSocket port keeps a read-any (tag 4) queued after its last command, to collect what
    /// the server sends before closing — its stand-in for `unreadData`. Those reads are its own.
    static var rules: EquivalenceRules {
        var rules = EquivalenceRules.standard
        rules.custom = [{ entry in if case .read(4, _) = entry.event { nil } else { entry } }]
        return rules
    }

    static func subjects(_ configuration: LineClientConfiguration) -> [SideBySideSubject] {
        [
            .legacy(engine: .native) { run in
                let client = RunLoopLineClient(configuration: configuration, engine: run.engine)
                run.keep(client)
                run.trace(client.socket, label: "client")
                try client.start(host: "127.0.0.1", port: run.peerPort ?? 0)
            },
            .legacy(engine: .queueCore) { run in
                let client = RunLoopLineClient(configuration: configuration, engine: run.engine)
                run.keep(client)
                run.trace(client.socket, label: "client")
                try client.start(host: "127.0.0.1", port: run.peerPort ?? 0)
            },
            .modern { run in
                let client = QueueLineClient(configuration: configuration)
                run.keep(client)
                run.trace(client.socket, label: "client")
                try client.start(host: "127.0.0.1", port: run.peerPort ?? 0)
            },
        ]
    }

    /// The async port (AsyncLineClient) as a fourth program. Its trace has no tags (each read and write is
    /// recorded with tag 0, and the other runs' tags are left out of the comparison with it), and, as the
    /// QueueSocket port does, it collects what the server sends before closing with reads of its own:
    /// reads of `trailing`, the bytes after the server's last line, are its own.
    static func asyncSubject(_ configuration: LineClientConfiguration, trailing: String) -> (
        subject: SideBySideSubject, rules: EquivalenceRules
    ) {
        var rules = Self.rules
        rules.custom.append { entry in
            if case .read(0, let data) = entry.event, trailing.contains(String(decoding: data, as: UTF8.self)) {
                return nil
            }
            return entry
        }
        let subject = SideBySideSubject.async { run in
            run.name(next: "client")
            let client = AsyncLineClient(configuration: configuration, executor: run.executor)
            run.keep(client)
            try client.start(host: "127.0.0.1", port: run.peerPort ?? 0)
        }
        return (subject, rules)
    }

    @Test("a whole conversation: greeting, commands, payloads (one empty), QUIT, the server's last bytes")
    func conversation() {
        let script = PeerScript.server([
            .send("WELCOME line-server\r\n"), .expectLine("PING"), .send("PONG\r\n", chunkSizes: [2]),
            .expectLine("GET motd"), .send("PAYLOAD 12\r\nhello\r\n", chunkSizes: [5, 9], gap: 0.005),
            .send("world"), .expectLine("GET empty"), .send("PAYLOAD 0\r\n"), .expectLine("QUIT"),
            .send("BYE\r\nsee you"), .close,
        ])
        let configuration = LineClientConfiguration(commands: ["PING", "GET motd", "GET empty", "QUIT"])
        let async = Self.asyncSubject(configuration, trailing: "see you")
        let report = SideBySideRunner(script: script, rules: async.rules).run(
            Self.subjects(configuration) + [async.subject], scenario: "LINE conversation")
        #expect(report.isEquivalent, "\(report)")
        #expect(report.outcomes.count == 4)
        for outcome in report.outcomes {
            #expect(outcome.peer?.received == Data("PING\r\nGET motd\r\nGET empty\r\nQUIT\r\n".utf8), "\(outcome.name)")
            #expect(outcome.trace.last?.event == .disconnected(.byPeer), "\(outcome.name)")
        }
    }

    @Test("a slow reply: the read is extended once, then times out, on all three")
    func slowReply() {
        let script = PeerScript.server([
            .send("WELCOME line-server\r\n"), .expectLine("SLOW"), .send("PART"), .expectClose,
        ])
        let configuration = LineClientConfiguration(commands: ["SLOW"], replyTimeout: 0.2, timeoutExtension: 0.2)
        let report = SideBySideRunner(script: script, rules: Self.rules).run(
            Self.subjects(configuration), scenario: "LINE slow reply")
        #expect(report.isEquivalent, "\(report)")
        #expect(
            Self.rules.normalize(report.outcomes[2].trace).map(\.event) == [
                .connected(host: "127.0.0.1"), .read(tag: 1, data: Data("WELCOME line-server\r\n".utf8)),
                .wrote(tag: 10), .readTimeout(tag: 2, extended: true), .readTimeout(tag: 2, extended: false),
                .disconnected(.readTimeout),
            ])
    }
}
