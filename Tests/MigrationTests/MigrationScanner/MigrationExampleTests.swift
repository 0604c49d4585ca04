import AsyncSocketKit
import Foundation
import MigrationExample
import SocketTestSupport
import Testing

@Suite("The worked example's Swift ports (Migration/Example/Swift)")
struct MigrationExampleTests {
    @Test("both ports exist with the same surface and can be constructed")
    func construct() {
        let configuration = LineClientConfiguration(commands: ["PING"], replyTimeout: 1, timeoutExtension: 1)
        let clients: [any LineClient] = [
            RunLoopLineClient(configuration: configuration), QueueLineClient(configuration: configuration),
            AsyncLineClient(configuration: configuration),
        ]
        for client in clients {
            #expect(client.configuration == configuration)
            #expect(client.trace.isEmpty)
            client.stop()
            #expect(client.trace.isEmpty)
        }
        #expect(LineClientConfiguration().commands == ["PING", "GET motd", "QUIT"])
    }

    /// The conversation both ports have with ``LineTestServer``.
    private func conversation(port: UInt16) -> [LineClientEvent] {
        [
            .connected(host: "127.0.0.1", port: port), .welcome("WELCOME line-server"), .sent("PING"), .reply("PONG"),
            .sent("GET motd"), .reply("PAYLOAD 12"), .payload(Data("hello\r\nworld".utf8)), .sent("GET empty"),
            .reply("PAYLOAD 0"), .payload(Data()), .sent("QUIT"), .reply("BYE"),
            .closed(.closedByServer, unread: Data("see you".utf8)), .disconnected,
        ]
    }

    private let commands = ["PING", "GET motd", "GET empty", "QUIT"]

    @Test("the RunLoopSocket port talks LINE: payloads, QUIT, and the server's last bytes from unreadData")
    func runLoopConversation() async throws {
        try await onNewThread {
            let server = try LineTestServer()
            defer { server.stop() }
            let client = RunLoopLineClient(configuration: LineClientConfiguration(commands: commands))
            try client.start(host: "127.0.0.1", port: server.port)
            #expect(runUntil { client.trace.last == .disconnected })
            #expect(client.trace == conversation(port: server.port))
        }
    }

    @Test("the QueueSocket port has the same conversation, collecting the last bytes with a read")
    func queueConversation() throws {
        let server = try LineTestServer()
        defer { server.stop() }
        let done = DispatchSemaphore(value: 0)
        let client = QueueLineClient(configuration: LineClientConfiguration(commands: commands)) { event in
            if event == .disconnected { done.signal() }
        }
        try client.start(host: "127.0.0.1", port: server.port)
        #expect(done.wait(timeout: .now() + 10) == .success)
        #expect(client.trace == conversation(port: server.port))
    }

    /// A "SLOW" command: the reply never ends, the read is extended once, then times out.
    private static func slowConversation(port: UInt16, unread: Data) -> [LineClientEvent] {
        [
            .connected(host: "127.0.0.1", port: port), .welcome("WELCOME line-server"), .sent("SLOW"),
            .extendedRead(tag: 2, elapsed: 0.2), .closed(.readTimeout, unread: unread), .disconnected,
        ]
    }

    @Test("a slow reply: one extension, then a read timeout; only RunLoopSocket still has the partial reply")
    func timeout() async throws {
        let configuration = LineClientConfiguration(commands: ["SLOW"], replyTimeout: 0.2, timeoutExtension: 0.2)
        try await onNewThread {
            let server = try LineTestServer()
            defer { server.stop() }
            let client = RunLoopLineClient(configuration: configuration)
            try client.start(host: "127.0.0.1", port: server.port)
            #expect(runUntil { client.trace.last == .disconnected })
            #expect(client.trace == Self.slowConversation(port: server.port, unread: Data("PART".utf8)))
        }
        let server = try LineTestServer()
        defer { server.stop() }
        let done = DispatchSemaphore(value: 0)
        let client = QueueLineClient(configuration: configuration) { event in
            if event == .disconnected { done.signal() }
        }
        try client.start(host: "127.0.0.1", port: server.port)
        #expect(done.wait(timeout: .now() + 10) == .success)
        #expect(client.trace == Self.slowConversation(port: server.port, unread: Data()))
    }

    /// Runs an ``AsyncLineClient`` with `configuration` against a fresh ``LineTestServer`` until it
    /// reports `disconnected` (its tasks on a thread of their own: the shared pool may be kept busy by
    /// other tests); `act` sees each event as it comes, with the client.
    private func runAsyncClient(
        _ configuration: LineClientConfiguration,
        act: @escaping @Sendable (LineClientEvent, AsyncLineClient) -> Void = { _, _ in }
    ) throws -> (trace: [LineClientEvent], port: UInt16) {
        let server = try LineTestServer()
        defer { server.stop() }
        let executor = ThreadExecutor(name: "AsyncLineClient")
        defer { executor.shutdown() }
        let done = DispatchSemaphore(value: 0)
        let client = ClientBox()
        client.value = AsyncLineClient(configuration: configuration, executor: executor) { event in
            if let value = client.value { act(event, value) }
            if event == .disconnected { done.signal() }
        }
        try client.value?.start(host: "127.0.0.1", port: server.port)
        #expect(done.wait(timeout: .now() + 10) == .success)
        return (client.value?.trace ?? [], server.port)
    }

    @Test("the async/await port has the same conversation, its last bytes collected by reads until the close")
    func asyncConversation() throws {
        let (trace, port) = try runAsyncClient(LineClientConfiguration(commands: commands))
        #expect(trace == conversation(port: port))
    }

    @Test("the async/await port: a slow reply gets the one extension from its timer task, then a read timeout")
    func asyncTimeout() throws {
        let configuration = LineClientConfiguration(commands: ["SLOW"], replyTimeout: 0.2, timeoutExtension: 0.2)
        let (trace, port) = try runAsyncClient(configuration)
        #expect(trace == Self.slowConversation(port: port, unread: Data()))
    }

    @Test("the async/await port: stop() ends the conversation with disconnected and no reason")
    func asyncStop() throws {
        let configuration = LineClientConfiguration(commands: ["SLOW"], replyTimeout: 30, timeoutExtension: 30)
        let (trace, _) = try runAsyncClient(configuration) { event, client in
            if event == .sent("SLOW") { client.stop() }
        }
        #expect(trace.suffix(2) == [.sent("SLOW"), .disconnected])
    }
}

/// The client a test's event callback reaches (set once, before the client starts).
private final class ClientBox: @unchecked Sendable {
    // @unchecked Sendable: `value` is written once, before `start`, and only read after.
    var value: AsyncLineClient?
}
