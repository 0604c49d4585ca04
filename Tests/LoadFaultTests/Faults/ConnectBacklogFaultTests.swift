import AsyncSocketKit
import Foundation
import SocketTestSupport
import Testing

@Suite("Faults: connecting to a full backlog")
struct ConnectBacklogFaultTests {
    @Test(
        "RunLoopSocket: the connect times out (code 2), reported as willDisconnect, didDisconnect",
        arguments: RunLoopSocket.Engine.allCases)
    func connectTimeout(engine: RunLoopSocket.Engine) async throws {
        let backlog = try FullBacklog()
        try await onNewThread {
            let recorder = Recorder()
            let client = RunLoopSocket(delegate: recorder, engine: engine)
            recorder.name(client, "client")
            let started = now()
            try client.connectToAddress(loopbackAddress(port: backlog.listener.port), withTimeout: 0.3)
            #expect(runUntil { recorder.closed("client") })
            #expect(now() - started >= 0.29)
            #expect(
                recorder.events("client") == [
                    .willConnect,
                    .willDisconnect(
                        domain: AsyncSocketError.errorDomain, code: AsyncSocketError.Code.connectTimeout.rawValue),
                    .didDisconnect,
                ])
            #expect(!client.isConnected)
            expectFreshRunLoopConnection(engine: engine)
        }
    }

    @Test("QueueSocket: the connect times out, reported as connectTimeout (3)")
    func queueConnectTimeout() throws {
        let backlog = try FullBacklog()
        let recorder = QueueRecorder()
        let client = QueueSocket(delegate: recorder, delegateQueue: recorder.queue)
        recorder.name(client, "client")
        let started = now()
        try client.connect(toHost: "127.0.0.1", onPort: backlog.listener.port, withTimeout: 0.3)
        #expect(recorder.wait { recorder.closed("client") })
        #expect(now() - started >= 0.29)
        #expect(recorder.events("client") == [.disconnected(domain: "GCDAsyncSocketErrorDomain", code: 3)])
        expectFreshQueueConnection()
    }
}
