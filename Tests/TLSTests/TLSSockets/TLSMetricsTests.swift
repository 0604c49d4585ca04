import AsyncSocketKit
import Foundation
import MetricsTestKit
import SocketTestSupport
import Testing

// TLS in the sockets' metrics (Net/SocketMetrics.swift): a completed handshake counts on both ends,
// a failed one on the end that failed, and the ciphertext is what the byte counters see.
@Suite("Metrics of TLS: handshakes completed and failed")
struct TLSMetricsTests {
    @Test("two ends secured: two handshakes; a client that does not trust the server: a failure")
    func handshakes() throws {
        let fixture = try TLSFixture.shared()
        let factory = TestMetrics()
        let metrics = SocketMetrics(factory: factory)
        let dimensions = [("face", "QueueSocket"), ("engine", "dispatch")]
        func counter(_ name: String) -> Int64 {
            (try? factory.expectCounter("asyncsocket_" + name, dimensions))?.totalValue ?? 0
        }
        let recorder = QueueRecorder()
        recorder.onAccept = { child in child.startTLS(fixture.serverSettings()) }
        let server = QueueSocket(delegate: recorder, delegateQueue: recorder.queue, metrics: metrics)
        recorder.name(server, "server")
        try server.accept(onInterface: "127.0.0.1", port: 0)

        let trusting = QueueSocket(delegate: recorder, delegateQueue: recorder.queue, metrics: metrics)
        recorder.name(trusting, "trusting")
        try trusting.connect(toHost: "127.0.0.1", onPort: server.localPort, withTimeout: 10)
        trusting.startTLS(fixture.clientSettings())
        trusting.write(Data("hello".utf8), withTimeout: 10, tag: 1)
        #expect(recorder.wait { recorder.events("trusting").contains(.wrote(tag: 1)) })
        #expect(recorder.wait { recorder.events("child1").contains(.secured) })
        #expect(counter("tls_handshakes_total") == 2)
        #expect(counter("tls_handshake_failures_total") == 0)
        // The ciphertext: the handshake's records and the five bytes' record, more than five bytes.
        #expect(counter("bytes_written_total") > 5)

        let doubting = QueueSocket(delegate: recorder, delegateQueue: recorder.queue, metrics: metrics)
        recorder.name(doubting, "doubting")
        try doubting.connect(toHost: "127.0.0.1", onPort: server.localPort, withTimeout: 10)
        doubting.startTLS(TLSSettings(role: .client))
        #expect(
            recorder.wait {
                recorder.events("doubting").contains { if case .disconnected = $0 { true } else { false } }
            })
        #expect(recorder.wait { counter("tls_handshake_failures_total") >= 1 })
        #expect(counter("tls_handshakes_total") == 2)
        trusting.disconnect()
        server.disconnect()
    }
}
