import AsyncSocketKit
import Foundation
import SocketTestSupport
import Testing

@Suite("RunLoopSocket: timeouts")
struct SocketTimeoutTests {
    @Test(
        "the 15-then-25 arithmetic, scaled down: asked at 0.15 s (extend 0.10), then at 0.25 s, then code 4",
        arguments: RunLoopSocket.Engine.allCases)
    func readTimeoutExtension(engine: RunLoopSocket.Engine) async throws {
        try await onNewThread {
            let connection = try ClientConnection(engine: engine)
            connection.recorder.readTimeoutAnswers = [0.10, 0]
            let start = now()
            connection.client.readData(to: RunLoopSocket.crlfData, withTimeout: 0.15, tag: 7)
            connection.peer.send("abc")
            #expect(runUntil { connection.events.contains(.didDisconnect) })
            let elapsed = now() - start
            #expect(
                connection.events == [
                    .partialRead(3, tag: 7), .readTimeout(tag: 7, elapsed: 0.15, bytesDone: 3),
                    .readTimeout(tag: 7, elapsed: 0.25, bytesDone: 3),
                    .willDisconnect(domain: "AsyncSocketErrorDomain", code: 4), .didDisconnect,
                ])
            #expect(elapsed >= 0.25)
            #expect(connection.recorder.unread["client"] == Data("abc".utf8))
        }
    }

    @Test("timeout 0 fires on the next pass; a negative timeout never fires", arguments: RunLoopSocket.Engine.allCases)
    func zeroTimeout(engine: RunLoopSocket.Engine) async throws {
        try await onNewThread {
            let connection = try ClientConnection(engine: engine)
            connection.client.readData(toLength: 1, withTimeout: 0, tag: 1)
            #expect(runUntil { connection.events.contains(.didDisconnect) })
            #expect(connection.events.first == .readTimeout(tag: 1, elapsed: 0, bytesDone: 0))
            #expect(connection.events.dropFirst().first == .willDisconnect(domain: "AsyncSocketErrorDomain", code: 4))
        }
    }

    @Test(
        "a write the peer never reads times out with code 5 after its partial progress",
        arguments: RunLoopSocket.Engine.allCases)
    func writeTimeout(engine: RunLoopSocket.Engine) async throws {
        try await onNewThread {
            let connection = try ClientConnection(engine: engine)
            // Zero-filled and never touched, so its pages are not resident: 32 MiB written in every
            // engine's case would otherwise add to the memory the slow-peer fault tests measure.
            let big = Data(count: 32 << 20)
            connection.client.write(big, withTimeout: 0.3, tag: 9)
            #expect(runUntil { connection.events.contains(.didDisconnect) })
            let events = connection.events
            #expect(events.contains { if case .partialWrite(_, 9) = $0 { return true } else { return false } })
            #expect(events.suffix(2) == [.willDisconnect(domain: "AsyncSocketErrorDomain", code: 5), .didDisconnect])
            #expect(events.contains { if case .writeTimeout(9, 0.3, _) = $0 { return true } else { return false } })
        }
    }

    @Test(
        "a write timeout the delegate extends: asked at 0.15 s (extend 0.10), then at 0.25 s, then code 5",
        arguments: RunLoopSocket.Engine.allCases)
    func writeTimeoutExtension(engine: RunLoopSocket.Engine) async throws {
        try await onNewThread {
            let connection = try ClientConnection(engine: engine)
            connection.recorder.writeTimeoutAnswers = [0.10, 0]
            let start = now()
            connection.client.write(Data(count: 32 << 20), withTimeout: 0.15, tag: 9)
            #expect(runUntil { connection.events.contains(.didDisconnect) })
            let elapsed = now() - start
            let asked = connection.events.compactMap { event -> TimeInterval? in
                if case .writeTimeout(9, let elapsed, _) = event { return elapsed } else { return nil }
            }
            #expect(asked == [0.15, 0.25])
            #expect(
                connection.events.suffix(2) == [
                    .willDisconnect(domain: "AsyncSocketErrorDomain", code: 5), .didDisconnect,
                ])
            #expect(elapsed >= 0.25)
        }
    }

    @Test(
        "while a name is being resolved the socket's mode is not empty: run() waits instead of finishing",
        arguments: RunLoopSocket.Engine.allCases)
    func resolvingKeepsTheLoopBusy(engine: RunLoopSocket.Engine) async throws {
        let dns = ScriptedDNSServer(silent: true)
        defer { dns.stop() }
        let resolver = HostResolver(nameservers: [dns.address], timeout: 5)
        try await onNewThread {
            let recorder = Recorder()
            let client = RunLoopSocket(delegate: recorder, engine: engine, resolver: resolver)
            try client.connectToHost("slow.test", onPort: 80)
            #expect(EventRunLoop.current.run(mode: .default, timeout: 0.2) == .timedOut)
            client.disconnect()
            #expect(runUntilFinished())
        }
    }

    @Test(
        "the connect timeout fires while the name is still being resolved: code 2",
        arguments: RunLoopSocket.Engine.allCases)
    func connectTimeout(engine: RunLoopSocket.Engine) async throws {
        let dns = ScriptedDNSServer(silent: true)
        defer { dns.stop() }
        let resolver = HostResolver(nameservers: [dns.address], timeout: 5)
        try await onNewThread {
            let recorder = Recorder()
            let client = RunLoopSocket(delegate: recorder, engine: engine, resolver: resolver)
            recorder.name(client, "client")
            let start = now()
            try client.connectToHost("never.answers.test", onPort: 80, withTimeout: 0.2)
            #expect(runUntil { recorder.events("client").contains(.didDisconnect) })
            #expect(
                recorder.events("client") == [
                    .willConnect, .willDisconnect(domain: "AsyncSocketErrorDomain", code: 2), .didDisconnect,
                ])
            #expect(now() - start >= 0.2)
        }
    }
}
