import AsyncSocketCore
import Foundation
import SocketTestSupport
import Testing

@Suite("TLS engine: plaintext after the handshake")
struct TLSDataTests {
    private func establishedPair(tls12: Bool = false) throws -> TLSEnginePair {
        let fixture = try TLSFixture.shared()
        var client = fixture.clientSettings()
        client.maximumVersion = tls12 ? .tls1_2 : nil
        let pair = try TLSEnginePair(client: client, server: fixture.serverSettings())
        try #require(pair.handshake() == (.complete, .complete))
        return pair
    }

    private static func pattern(_ count: Int, seed: UInt64) -> [UInt8] {
        var state = seed
        return (0..<count).map { _ in
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return UInt8(truncatingIfNeeded: state >> 33)
        }
    }

    @Test("1 MiB each way in odd-sized pieces arrives byte-exact", arguments: [false, true])
    func bulk(tls12: Bool) throws {
        let pair = try establishedPair(tls12: tls12)
        let upstream = Self.pattern(1 << 20, seed: 1)
        let downstream = Self.pattern(1 << 20, seed: 2)
        let received = TLSEnginePair.transfer(
            upstream, from: pair.client, to: pair.server, pieceSize: 12_345, readSize: 7_777)
        #expect(received == upstream)
        let answered = TLSEnginePair.transfer(
            downstream, from: pair.server, to: pair.client, pieceSize: 65_537, readSize: 1_001)
        #expect(answered == downstream)
    }

    @Test("TLS 1.3 session tickets are consumed without stalling reads")
    func sessionTickets() throws {
        let pair = try establishedPair()
        // The server's tickets followed its last handshake flight; the client has them buffered.
        #expect(TLSEnginePair.readOnce(pair.client).0 == .needsMoreCiphertext)
        _ = TLSEnginePair.write("after tickets", to: pair.server)
        pair.pump()
        #expect(TLSEnginePair.readOnce(pair.client).1 == Array("after tickets".utf8))

        // Tickets and data in one delivery: the read returns the data at once.
        let fixture = try TLSFixture.shared()
        let second = try TLSEnginePair(client: fixture.clientSettings(), server: fixture.serverSettings())
        _ = second.client.handshake()
        TLSEnginePair.move(from: second.client, to: second.server)
        _ = second.server.handshake()
        TLSEnginePair.move(from: second.server, to: second.client)
        #expect(second.client.handshake() == .complete)
        TLSEnginePair.move(from: second.client, to: second.server)
        #expect(second.server.handshake() == .complete)
        _ = TLSEnginePair.write("together", to: second.server)
        TLSEnginePair.move(from: second.server, to: second.client)
        #expect(TLSEnginePair.readOnce(second.client).1 == Array("together".utf8))
        #expect(TLSEnginePair.readOnce(second.client).0 == .needsMoreCiphertext)
    }

    @Test("close_notify ends the peer's plaintext; writing after close fails with errSSLClosedGraceful")
    func closeNotify() throws {
        let pair = try establishedPair()
        _ = TLSEnginePair.write("last words", to: pair.server)
        pair.server.close()
        pair.pump()
        #expect(TLSEnginePair.readOnce(pair.client).1 == Array("last words".utf8))
        #expect(TLSEnginePair.readOnce(pair.client).0 == .closed)
        #expect(TLSEnginePair.readOnce(pair.client).0 == .closed)
        guard case .failed(let error) = TLSEnginePair.write("more", to: pair.server) else {
            Issue.record("a write after close must fail")
            return
        }
        #expect(error.code == .closedGraceful)
        // The other direction still works (TLS 1.3 half-close).
        _ = TLSEnginePair.write("reply", to: pair.client)
        pair.pump()
        #expect(TLSEnginePair.readOnce(pair.server).1 == Array("reply".utf8))
    }

    @Test("a peer that vanishes without close_notify, or sends a corrupt record, fails the read")
    func truncationAndCorruption() throws {
        let pair = try establishedPair()
        _ = TLSEnginePair.write("partial", to: pair.server)
        var record = [UInt8](repeating: 0, count: pair.server.pendingCiphertext)
        let count = record.withUnsafeMutableBytes { pair.server.takeCiphertext(into: $0) }
        record.withUnsafeBytes { pair.client.feedCiphertext(UnsafeRawBufferPointer(rebasing: $0.prefix(count - 3))) }
        #expect(TLSEnginePair.readOnce(pair.client).0 == .needsMoreCiphertext)
        pair.client.peerClosed()
        let (result, _) = TLSEnginePair.readOnce(pair.client)
        guard case .failed(let error) = result else {
            Issue.record("expected a failure, got \(result)")
            return
        }
        #expect(error.code == .closedAbort)

        let second = try establishedPair()
        _ = TLSEnginePair.write("tampered", to: second.server)
        var bytes = [UInt8](repeating: 0, count: second.server.pendingCiphertext)
        let length = bytes.withUnsafeMutableBytes { second.server.takeCiphertext(into: $0) }
        bytes[length - 1] ^= 0xFF
        bytes.withUnsafeBytes { second.client.feedCiphertext(UnsafeRawBufferPointer(rebasing: $0.prefix(length))) }
        let (tampered, plaintext) = TLSEnginePair.readOnce(second.client)
        guard case .failed(let corruption) = tampered else {
            Issue.record("expected a failure, got \(tampered)")
            return
        }
        #expect(corruption.code == .protocolError)
        #expect(plaintext.isEmpty)
    }

    @Test("nothing is written before the handshake completes")
    func writeBeforeHandshake() throws {
        let fixture = try TLSFixture.shared()
        let client = try TLSEngine(settings: fixture.clientSettings(), connectHost: "localhost", logger: nil)
        #expect(TLSEnginePair.write("early", to: client) == .bytes(0))
        #expect(TLSEnginePair.readOnce(client).0 == .needsMoreCiphertext)
        #expect(client.negotiatedVersion == nil)
        #expect(client.pendingCiphertext == 0)
    }
}
