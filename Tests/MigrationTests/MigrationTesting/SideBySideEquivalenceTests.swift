import AsyncSocketKit
import Foundation
import MigrationTesting
import SocketTestSupport
import Testing

@Suite("MigrationTesting: the same conversation is equivalent on both APIs and both engines")
struct SideBySideEquivalenceTests {
    static let lineConversation: [ClientStep] = [
        .readLine(tag: 1), .write("HELLO\r\n", tag: 2), .readLine(tag: 3), .readLength(5, tag: 4),
    ]

    static let lineServer = PeerScript.server([
        .send("WELCOME\r\n"), .expectLine("HELLO"), .send("PAYLOAD 5\r\n", chunkSizes: [3, 4], gap: 0.01),
        .send("12345"), .close,
    ])

    @Test(
        "a line client: legacy (both engines), QueueSocket and async agree; the peer's close is byPeer on all four"
    )
    func lineClient() {
        let report = SideBySideRunner(script: Self.lineServer, rules: StepSubjects.rules).run(
            [
                StepSubjects.legacy(Self.lineConversation),
                StepSubjects.legacy(Self.lineConversation, engine: .queueCore),
                StepSubjects.modern(Self.lineConversation),
                StepSubjects.async(Self.lineConversation),
            ], scenario: "line client")
        #expect(report.isEquivalent, "\(report)")
        #expect(report.outcomes.count == 4)
        let expected: [TraceEvent] = [
            .connected(host: "127.0.0.1"), .read(tag: 1, data: Data("WELCOME\r\n".utf8)), .wrote(tag: 2),
            .read(tag: 3, data: Data("PAYLOAD 5\r\n".utf8)), .read(tag: 4, data: Data("12345".utf8)),
            .disconnected(.byPeer),
        ]
        for outcome in report.outcomes {
            #expect(outcome.peer?.received == Data("HELLO\r\n".utf8))
            #expect(outcome.trace.allSatisfy { $0.socket == "client" }, "\(outcome.name)")
            if outcome.recordsTags {
                #expect(StepSubjects.rules.normalize(outcome.trace).map(\.event) == expected, "\(outcome.name)")
            } else {
                // The async port has no tags: its reads and writes are recorded with tag 0.
                #expect(outcome.name == "AsyncSocketConnection")
                #expect(
                    StepSubjects.rules.normalize(outcome.trace).map(\.event) == [
                        .connected(host: "127.0.0.1"), .read(tag: 0, data: Data("WELCOME\r\n".utf8)), .wrote(tag: 0),
                        .read(tag: 0, data: Data("PAYLOAD 5\r\n".utf8)), .read(tag: 0, data: Data("12345".utf8)),
                        .disconnected(.byPeer),
                    ])
            }
        }
    }

    @Test("an async port that writes something else: the runner names the first difference on the wire")
    func asyncDivergence() {
        var steps = Self.lineConversation
        steps[1] = .write("HELO\r\n", tag: 2)
        let report = SideBySideRunner(script: Self.lineServer, rules: StepSubjects.rules, timeout: 10).run(
            [StepSubjects.legacy(Self.lineConversation), StepSubjects.async(steps)], scenario: "a typo")
        #expect(!report.isEquivalent)
        #expect(report.divergences.first?.other == "AsyncSocketConnection")
        #expect(report.divergences.first?.kind == .peerScript)
    }

    @Test("readMaxedOut is 3 in legacy and 6 in GCD: both are .readMaxedOut and the runs agree")
    func readMaxedOutRenumbered() {
        let script = PeerScript.server([.send("much too long\r\n"), .expectClose])
        let steps: [ClientStep] = [.readLine(tag: 1, maxLength: 5)]
        let report = SideBySideRunner(script: script, rules: StepSubjects.rules).run([
            StepSubjects.legacy(steps), StepSubjects.modern(steps),
        ])
        #expect(report.isEquivalent, "\(report)")
        #expect(report.outcomes[0].trace.last?.event == .disconnected(.readMaxedOut))
    }

    @Test("a user disconnect is byUser on both; a timeout extended once, then not, agrees")
    func timeoutsAndUserDisconnect() {
        let script = PeerScript.server([.send("no line ending"), .pause(0.5), .send("\r\n"), .expectClose])
        let steps: [ClientStep] = [.readLine(tag: 7, timeout: 0.1), .disconnect]
        let report = SideBySideRunner(script: script, rules: StepSubjects.rules).run([
            StepSubjects.legacy(steps, timeoutExtension: 1), StepSubjects.modern(steps, timeoutExtension: 1),
        ])
        #expect(report.isEquivalent, "\(report)")
        #expect(
            StepSubjects.rules.normalize(report.outcomes[1].trace).map(\.event) == [
                .connected(host: "127.0.0.1"), .readTimeout(tag: 7, extended: true),
                .read(tag: 7, data: Data("no line ending\r\n".utf8)), .disconnected(.byUser),
            ])
    }

    @Test("a line echo server: legacy and modern accept, echo and close alike; the runner stops the listeners")
    func echoServer() {
        let script = PeerScript.client([
            .send("one\ntwo\n", chunkSizes: [2, 3]), .expect("one\ntwo\n"), .dribble("three\n", interval: 0.002),
            .expectLine("three"), .close,
        ])
        let report = SideBySideRunner(script: script, rules: StepSubjects.rules).run(
            scenario: "echo server",
            legacy: { run in
                let server = LegacyLineEchoServer()
                run.keep(server)
                run.trace(server.socket, label: "listener")
                try server.socket.acceptOnInterface("127.0.0.1", port: 0)
                run.listening(on: server.socket.localPort)
            },
            modern: { run in
                let server = ModernLineEchoServer()
                run.keep(server)
                run.trace(server.socket, label: "listener")
                try server.socket.accept(onInterface: "127.0.0.1", port: 0)
                run.listening(on: server.socket.localPort)
            })
        #expect(report.isEquivalent, "\(report)")
        let legacy = report.outcomes[0]
        #expect(legacy.peer?.received == Data("one\ntwo\nthree\n".utf8))
        #expect(
            legacy.trace.filter { $0.socket == "listener" }.map(\.event) == [
                .accepted(child: "child1"), .disconnected(.byUser),
            ])
        #expect(legacy.trace.last { $0.socket == "child1" }?.event == .disconnected(.byPeer))
    }

    @Test("a line echo server on AsyncSocketListener: accepts, echoes and closes as the legacy one does")
    func asyncEchoServer() {
        let script = PeerScript.client([
            .send("one\ntwo\n", chunkSizes: [2, 3]), .expect("one\ntwo\n"), .dribble("three\n", interval: 0.002),
            .expectLine("three"), .close,
        ])
        let report = SideBySideRunner(script: script, rules: StepSubjects.rules).run(
            [
                .legacy { run in
                    let server = LegacyLineEchoServer()
                    run.keep(server)
                    run.trace(server.socket, label: "listener")
                    try server.socket.acceptOnInterface("127.0.0.1", port: 0)
                    run.listening(on: server.socket.localPort)
                },
                .async { run in
                    run.name(next: "listener")
                    let listener = try AsyncSocketListener(host: "127.0.0.1", port: 0)
                    run.keep(listener)
                    AsyncLineEchoServer.serve(listener, on: run.executor)
                    run.listening(on: listener.port)
                },
            ], scenario: "async echo server")
        #expect(report.isEquivalent, "\(report)")
        let async = report.outcomes[1]
        #expect(async.peer?.received == Data("one\ntwo\nthree\n".utf8))
        #expect(
            async.trace.filter { $0.socket == "listener" }.map(\.event) == [
                .accepted(child: "child1"), .disconnected(.byUser),
            ])
        #expect(
            StepSubjects.rules.normalize(async.trace).filter { $0.socket == "child1" }.map(\.event) == [
                .read(tag: 0, data: Data("one\n".utf8)), .wrote(tag: 0), .read(tag: 0, data: Data("two\n".utf8)),
                .wrote(tag: 0), .read(tag: 0, data: Data("three\n".utf8)), .wrote(tag: 0), .disconnected(.byPeer),
            ])
    }

    @Test("STARTTLS: plaintext lines, then TLS with the peer as server, encrypted lines, a close by the client")
    func startTLS() throws {
        let fixture = try TLSFixture.shared()
        let script = PeerScript.server([
            .send("220 ready\r\n"), .expectLine("STARTTLS"), .send("220 go ahead\r\n"),
            .startTLS(fixture.serverSettings()), .expectLine("secret"), .send("250 ok\r\n"), .expectClose,
        ])
        var client = fixture.clientSettings()
        client.peerName = .name("localhost")
        let steps: [ClientStep] = [
            .readLine(tag: 1), .write("STARTTLS\r\n", tag: 2), .readLine(tag: 3), .startTLS(client),
            .write("secret\r\n", tag: 4), .readLine(tag: 5), .disconnect,
        ]
        let report = SideBySideRunner(script: script, rules: StepSubjects.rules).run([
            StepSubjects.legacy(steps), StepSubjects.legacy(steps, engine: .queueCore), StepSubjects.modern(steps),
        ])
        #expect(report.isEquivalent, "\(report)")
        #expect(report.outcomes[0].peer?.received == Data("STARTTLS\r\nsecret\r\n".utf8))
        #expect(report.outcomes[2].trace.map(\.event).contains(.secured))
    }
}
