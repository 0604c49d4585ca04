import AsyncSocketKit
import Foundation
import MigrationTesting
import SocketTestSupport
import Testing

/// A delegate whose answers must survive a recorder put in front of it.
private final class Vetoing: RunLoopSocketDelegate {
    func onSocketWillConnect(_ sock: RunLoopSocket) -> Bool { false }
}

@Suite("MigrationTesting: the recorders record without changing behavior")
struct TraceRecorderTests {
    @Test("a legacy veto passes through the recorder: the connect is canceled and nothing is recorded")
    func legacyVeto() async throws {
        try await onNewThread {
            let delegate = Vetoing()
            let socket = RunLoopSocket(delegate: delegate)
            let recorder = LegacyTraceRecorder.attach(to: socket, label: "client")
            #expect(throws: AsyncSocketError(.canceled)) {
                try socket.connectToAddress(loopbackAddress(port: 9))
            }
            #expect(recorder.trace.isEmpty)
            withExtendedLifetime(delegate) {}
        }
    }

    @Test("a QueueSocket traced by attach keeps its delegate queue and its delegate still hears everything")
    func queueAttach() throws {
        let server = try QueueServer()
        let inner = QueueRecorder()
        let client = QueueSocket(delegate: inner, delegateQueue: inner.queue)
        inner.name(client, "client")
        let recorder = QueueTraceRecorder.attach(to: client, label: "client")
        #expect(client.delegateQueue === inner.queue)
        try client.connect(toHost: "127.0.0.1", onPort: server.port)
        #expect(inner.wait { inner.events("client").count == 1 })
        client.disconnect()
        #expect(recorder.log.wait(timeout: 10) { recorder.log.events(of: "client").count == 2 })
        #expect(recorder.log.events(of: "client") == [.connected(host: "127.0.0.1"), .disconnected(.byUser)])
        #expect(inner.wait { inner.events("client").count == 2 })
        server.socket.disconnect()
    }
}
