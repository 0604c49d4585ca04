import AsyncSocketKit
import Foundation
import MetricsTestKit
import SocketTestSupport
import Testing

// What the sockets count through the user's SocketMetrics (Net/SocketMetrics.swift), over loopback:
// an echo of five bytes, the accept, a read timeout, a refused connect, on every TCP face and engine,
// each under its own face and engine; a socket made without metrics counts nothing.
@Suite("Metrics: counters and the open-connections meter through the user's factory, by face and engine")
struct SocketMetricsTests {
    /// What the factory holds for one face and engine.
    struct Readings {
        let factory: TestMetrics
        let dimensions: [(String, String)]

        init(_ factory: TestMetrics, face: String, engine: String) {
            self.factory = factory
            dimensions = [("face", face), ("engine", engine)]
        }

        func counter(_ name: String, _ extra: [(String, String)] = []) -> Int64 {
            (try? factory.expectCounter("asyncsocket_" + name, dimensions + extra))?.totalValue ?? 0
        }

        var open: Double? { (try? factory.expectMeter("asyncsocket_connections", dimensions))?.lastValue }
    }

    /// A port nothing listens on (a listener's, closed again).
    static func closedPort() throws -> UInt16 {
        let listener = try RawListener()
        return listener.port
    }

    @Test(
        "RunLoopSocket: two open, one accepted, 10 bytes each way, two reads and writes, a read timeout, a refused connect",
        arguments: RunLoopSocket.Engine.allCases)
    func runLoopSocket(engine: RunLoopSocket.Engine) async throws {
        try await onNewThread {
            let factory = TestMetrics()
            let metrics = SocketMetrics(factory: factory)
            let readings = Readings(factory, face: "RunLoopSocket", engine: engine == .native ? "native" : "queue-core")
            let recorder = Recorder()
            recorder.onRead = { socket, data, tag in
                if recorder.label(socket) == "child1" { socket.write(data, withTimeout: -1, tag: tag) }
            }
            let server = RunLoopSocket(delegate: recorder, engine: engine, metrics: metrics)
            recorder.name(server, "server")
            try server.acceptOnInterface("127.0.0.1", port: 0)
            let client = RunLoopSocket(delegate: recorder, engine: engine, metrics: metrics)
            recorder.name(client, "client")
            try client.connectToHost("127.0.0.1", onPort: server.localPort, withTimeout: 10)
            #expect(runUntil { client.isConnected && recorder.accepted.first?.isConnected == true })
            let child = try #require(recorder.accepted.first)
            #expect(readings.open == 2)
            #expect(readings.counter("connections_accepted_total") == 1)

            child.readData(toLength: 5, withTimeout: -1, tag: 1)
            client.write(Data("hello".utf8), withTimeout: -1, tag: 2)
            client.readData(toLength: 5, withTimeout: -1, tag: 3)
            #expect(runUntil { recorder.events("client").contains(.read(Data("hello".utf8), tag: 3)) })
            #expect(runUntil { recorder.events("child1").contains(.wrote(tag: 1)) })
            #expect(readings.counter("bytes_read_total") == 10)
            #expect(readings.counter("bytes_written_total") == 10)
            #expect(readings.counter("reads_total") == 2)
            #expect(readings.counter("writes_total") == 2)

            client.readData(toLength: 1, withTimeout: 0.05, tag: 4)
            #expect(runUntil { recorder.events("client").contains(.didDisconnect) })
            #expect(runUntil { recorder.events("child1").contains(.didDisconnect) })
            #expect(readings.counter("timeouts_total", [("direction", "read")]) == 1)
            #expect(readings.counter("timeouts_total", [("direction", "write")]) == 0)
            #expect(readings.open == 0)

            let refused = RunLoopSocket(delegate: recorder, engine: engine, metrics: metrics)
            recorder.name(refused, "refused")
            try refused.connectToHost("127.0.0.1", onPort: try Self.closedPort(), withTimeout: 10)
            #expect(runUntil { recorder.events("refused").contains(.didDisconnect) })
            #expect(readings.counter("connect_failures_total") == 1)
            #expect(readings.open == 0)
            #expect(readings.counter("tls_handshakes_total") == 0)
            server.disconnect()
        }
    }

    /// A QueueSocket listener ("server") whose accepted socket ("child1") echoes, and a client that has
    /// sent "hello" and read it back; each made with the metrics given.
    static func queueEcho(
        _ recorder: QueueRecorder, serverMetrics: SocketMetrics?, clientMetrics: SocketMetrics?
    ) throws -> (server: QueueSocket, client: QueueSocket) {
        recorder.onRead = { socket, data, tag in
            if recorder.label(socket) == "child1" { socket.write(data, withTimeout: -1, tag: tag) }
        }
        let server = QueueSocket(delegate: recorder, delegateQueue: recorder.queue, metrics: serverMetrics)
        recorder.name(server, "server")
        try server.accept(onInterface: "127.0.0.1", port: 0)
        let client = QueueSocket(delegate: recorder, delegateQueue: recorder.queue, metrics: clientMetrics)
        recorder.name(client, "client")
        try client.connect(toHost: "127.0.0.1", onPort: server.localPort, withTimeout: 10)
        #expect(waitUntil { client.isConnected && recorder.accepted.first?.isConnected == true })
        let child = try #require(recorder.accepted.first)
        child.readData(toLength: 5, withTimeout: -1, tag: 1)
        client.write(Data("hello".utf8), withTimeout: -1, tag: 2)
        client.readData(toLength: 5, withTimeout: -1, tag: 3)
        #expect(waitUntil { recorder.events("client").contains(.read(Data("hello".utf8), tag: 3)) })
        #expect(waitUntil { recorder.events("child1").contains(.wrote(tag: 1)) })
        return (server, client)
    }

    @Test("QueueSocket: two open, one accepted, 10 bytes each way, a read timeout, a refused connect")
    func queueSocket() throws {
        let factory = TestMetrics()
        let metrics = SocketMetrics(factory: factory)
        let readings = Readings(factory, face: "QueueSocket", engine: "dispatch")
        let recorder = QueueRecorder()
        let (server, client) = try Self.queueEcho(recorder, serverMetrics: metrics, clientMetrics: metrics)
        #expect(waitUntil { readings.open == 2 })
        #expect(readings.counter("connections_accepted_total") == 1)
        #expect(readings.counter("bytes_read_total") == 10)
        #expect(readings.counter("bytes_written_total") == 10)
        #expect(readings.counter("reads_total") == 2)
        #expect(readings.counter("writes_total") == 2)

        client.readData(toLength: 1, withTimeout: 0.05, tag: 4)
        #expect(waitUntil { recorder.events("client").contains { if case .disconnected = $0 { true } else { false } } })
        #expect(readings.counter("timeouts_total", [("direction", "read")]) == 1)
        #expect(waitUntil { readings.open == 0 })

        let refused = QueueSocket(delegate: recorder, delegateQueue: recorder.queue, metrics: metrics)
        recorder.name(refused, "refused")
        try refused.connect(toHost: "127.0.0.1", onPort: try Self.closedPort(), withTimeout: 10)
        #expect(waitUntil { readings.counter("connect_failures_total") == 1 })
        #expect(readings.open == 0)
        server.disconnect()
    }

    @Test("AsyncSocketConnection and AsyncSocketListener: all under AsyncSocketConnection, the accept included")
    func asyncFace() async throws {
        try await onNewThread {
            let factory = TestMetrics()
            let metrics = SocketMetrics(factory: factory, labelPrefix: "asyncsocket")
            let connections = Readings(factory, face: "AsyncSocketConnection", engine: "dispatch")
            let listener = try AsyncSocketListener(host: "127.0.0.1", port: 0, metrics: metrics)
            let port = listener.port
            let client = try await within {
                try await AsyncSocketConnection.connect(toHost: "127.0.0.1", port: port, metrics: metrics)
            }
            let server = try await within {
                var iterator = listener.connections.makeAsyncIterator()
                return try #require(try await iterator.next())
            }
            #expect(connections.counter("connections_accepted_total") == 1)
            #expect(connections.open == 2)
            try await within { try await client.write(Data("hello".utf8)) }
            let received = try await within { try await server.read(exactly: 5) }
            try await within { try await server.write(received) }
            #expect(try await within { try await client.read(exactly: 5) } == Data("hello".utf8))
            #expect(waitUntil { connections.counter("writes_total") == 2 })
            #expect(connections.counter("bytes_read_total") == 10)
            #expect(connections.counter("bytes_written_total") == 10)
            #expect(connections.counter("reads_total") == 2)
            client.close()
            server.close()
            listener.close()
            #expect(waitUntil { connections.open == 0 })
        }
    }

    @Test("a socket made without metrics counts nothing: beside a listener that counts, only the listener's side shows")
    func off() throws {
        let factory = TestMetrics()
        let readings = Readings(factory, face: "QueueSocket", engine: "dispatch")
        let recorder = QueueRecorder()
        let (server, client) = try Self.queueEcho(
            recorder, serverMetrics: SocketMetrics(factory: factory), clientMetrics: nil)
        #expect(client.metricHandles == nil)
        #expect(readings.open == 1)
        #expect(readings.counter("bytes_read_total") == 5)
        #expect(readings.counter("bytes_written_total") == 5)
        #expect(readings.counter("reads_total") == 1)
        #expect(readings.counter("writes_total") == 1)
        client.disconnect()
        #expect(waitUntil { readings.open == 0 })
        #expect(readings.counter("connect_failures_total") == 0)
        server.disconnect()
    }
}
