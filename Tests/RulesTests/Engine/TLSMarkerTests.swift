import AsyncSocketCore
import EngineTestSupport
import Foundation
import SocketTestSupport
import Testing

@Suite("Engine: TLS markers in both queues")
struct TLSMarkerTests {
    @Test("earlier I/O runs in plaintext, later I/O waits for the handshake; prebuffered bytes go to TLS")
    func markerOrdering() {
        let harness = EngineHarness()
        harness.read(.separator(bytes("\n"), maxLength: 0), tag: 1)
        harness.write(bytes("STARTTLS\n"), tag: 2)
        harness.startTLS()
        harness.read(.length(4), tag: 3)
        harness.write(bytes("secret"), tag: 4)
        harness.runPasses()
        #expect(harness.events == [.wrote(tag: 2)])
        // The peer answers and at once begins its handshake: those bytes are read ahead.
        harness.feed("OK\n\u{16}\u{03}\u{01}")
        harness.runPasses()
        #expect(
            harness.events == [
                .wrote(tag: 2), .read(bytes("OK\n"), tag: 1), .tlsStarted(prebuffered: [0x16, 0x03, 0x01]),
            ])
        #expect(harness.engine.readProgress.fraction.isNaN)
        #expect(harness.engine.writeProgress.fraction.isNaN)
        #expect(harness.transport.written == bytes("STARTTLS\n"))
        harness.finishHandshake()
        harness.feed("abcd")
        harness.runPasses()
        #expect(
            harness.events.suffix(3) == [.secured, .read(bytes("abcd"), tag: 3), .wrote(tag: 4)])
    }

    @Test("each startTLS queues another marker (legacy)")
    func repeatedMarkers() {
        let harness = EngineHarness()
        #expect(harness.startTLS() == nil)
        #expect(harness.startTLS() == nil)
        #expect(harness.engine.queuedReadCount == 2)
        #expect(harness.engine.queuedWriteCount == 2)
        harness.runPasses()
        harness.finishHandshake()
        harness.runPasses()
        #expect(harness.events == [.tlsStarted(prebuffered: []), .secured, .tlsStarted(prebuffered: [])])
    }

    @Test("GCD accepts one startTLS per connection, and none after disconnectAfter…")
    func gcdSingleMarker() {
        let harness = EngineHarness(semantics: .gcd)
        #expect(harness.startTLS() == nil)
        #expect(harness.startTLS() == "startTLS was called already on this connection")
        #expect(harness.engine.queuedReadCount == 1)
        #expect(harness.engine.queuedWriteCount == 1)

        let forbidden = EngineHarness(semantics: .gcd)
        #expect(forbidden.write(bytes("x")) == nil)
        forbidden.disconnectAfter(reading: false, writing: true)
        #expect(forbidden.startTLS() == "startTLS is ignored after disconnectAfter…")
        #expect(forbidden.engine.queuedReadCount == 0)
    }
}
