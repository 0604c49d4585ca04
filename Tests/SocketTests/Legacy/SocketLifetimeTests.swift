import AsyncSocketKit
import Foundation
import SocketTestSupport
import Testing

// A backend's deferred work holds the backend strongly (no weak load per pass), which the public
// socket's deinit undoes: these tests show nothing stays behind once the application lets go.
@Suite("RunLoopSocket: a closed socket the application lets go of is freed, with its engine")
struct SocketLifetimeTests {
    /// A weak reference to an object under watch, and what it was.
    private struct Watched {
        weak var object: AnyObject?
        let name: String
    }

    @Test(
        "listener, client and accepted child, after an echo and a close: sockets and backends are freed",
        arguments: RunLoopSocket.Engine.allCases)
    func freedAfterUse(engine: RunLoopSocket.Engine) async throws {
        try await onNewThread {
            var watched: [Watched] = []
            try Self.echoAndClose(engine: engine) { name, socket in
                watched.append(Watched(object: socket, name: name))
                watched.append(Watched(object: socket.backend, name: "\(name)'s backend"))
            }
            #expect(watched.count == 6)
            let freed = runUntil(timeout: 10) { watched.allSatisfy { $0.object == nil } }
            #expect(freed, "still alive: \(watched.filter { $0.object != nil }.map(\.name))")
        }
    }

    /// Connects a client to a listener, echoes a line through the accepted child, closes all three,
    /// and shows each to `watch` before the last references to them go.
    private static func echoAndClose(
        engine: RunLoopSocket.Engine, watch: (String, RunLoopSocket) -> Void
    ) throws {
        let recorder = Recorder()
        recorder.onAccept = { _, child in child.readData(to: RunLoopSocket.lfData, withTimeout: 10, tag: 1) }
        recorder.onRead = { [unowned recorder] sock, data, _ in
            if recorder.label(sock) == "child1" { sock.write(data, withTimeout: 10, tag: 2) }
        }
        let server = RunLoopSocket(delegate: recorder, engine: engine)
        recorder.name(server, "server")
        try server.acceptOnInterface("127.0.0.1", port: 0)
        let client = RunLoopSocket(delegate: recorder, engine: engine)
        recorder.name(client, "client")
        try client.connectToAddress(loopbackAddress(port: server.localPort))
        #expect(runUntil { client.isConnected && recorder.accepted.count == 1 })
        client.write(Data("ping\n".utf8), withTimeout: 10, tag: 3)
        client.readData(to: RunLoopSocket.lfData, withTimeout: 10, tag: 4)
        #expect(runUntil { recorder.events("client").contains(.read(Data("ping\n".utf8), tag: 4)) })
        let child = recorder.accepted[0]
        client.disconnect()
        child.disconnect()
        server.disconnect()
        let closed = { (label: String) in recorder.events(label).contains(.didDisconnect) }
        #expect(runUntil { ["client", "child1", "server"].allSatisfy(closed) })
        watch("server", server)
        watch("client", client)
        watch("child", child)
    }
}
