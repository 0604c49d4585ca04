import AsyncSocketCore
import Foundation
import SocketTestSupport
import Testing

@Suite("TLS engine: manual trust evaluation (GCDAsyncSocketManuallyEvaluateTrust)")
struct TLSManualTrustTests {
    private func manualClient(_ fixture: TLSFixture) -> TLSSettings {
        var client = fixture.clientSettings()
        client.trustRoots = .only([fixture.otherCAPath])
        client.manualTrustEvaluation = true
        return client
    }

    @Test("accepting completes the handshake; the decision is asked for once, with OpenSSL's verdict")
    func accept() throws {
        let fixture = try TLSFixture.shared()
        let pair = try TLSEnginePair(client: manualClient(fixture), server: fixture.serverSettings())
        #expect(pair.handshake(trust: { _ in true }) == (.complete, .complete))
        #expect(pair.trustRequests.count == 1)
        let chain = try #require(pair.trustRequests.first)
        #expect(chain.subjectSummaries.first == "O=AsyncSocketKit Tests,CN=localhost")
        #expect(chain.verifyResult == 19)  // OpenSSL alone would not trust it
        #expect(chain.verifyResultDescription == "self-signed certificate in certificate chain")
        #expect(chain.subjectSummaries.count == 2)
        #expect(pair.client.isHandshakeComplete)
        _ = TLSEnginePair.write("hello", to: pair.server)
        pair.pump()
        #expect(TLSEnginePair.readOnce(pair.client).1 == Array("hello".utf8))
    }

    @Test("a chain OpenSSL trusts is still put to the application, with result 0")
    func trustedChainStillAsked() throws {
        let fixture = try TLSFixture.shared()
        var client = fixture.clientSettings()
        client.manualTrustEvaluation = true
        let pair = try TLSEnginePair(client: client, server: fixture.serverSettings())
        #expect(pair.handshake(trust: { $0.verifyResult == 0 }) == (.complete, .complete))
        #expect(pair.trustRequests.map(\.verifyResult) == [0])
    }

    @Test("while the decision is pending the handshake waits", arguments: [false, true])
    func pending(tls12: Bool) throws {
        let fixture = try TLSFixture.shared()
        var client = manualClient(fixture)
        client.maximumVersion = tls12 ? .tls1_2 : nil
        let pair = try TLSEnginePair(client: client, server: fixture.serverSettings())
        let (clientStatus, serverStatus) = pair.handshake()
        guard case .trustDecisionNeeded = clientStatus else {
            Issue.record("expected a trust decision, got \(clientStatus)")
            return
        }
        #expect(serverStatus == .needsMoreCiphertext)
        #expect(pair.client.handshake() == .needsMoreCiphertext)
        #expect(!pair.client.isHandshakeComplete)
        #expect(TLSEnginePair.readOnce(pair.client).0 == .needsMoreCiphertext)
        pair.client.resolveTrust(accepted: true)
        #expect(pair.handshake() == (.complete, .complete))
        #expect(pair.trustRequests.count == 1)
    }

    @Test("rejecting fails with errSSLPeerBadCert (-9825) and sends the server a bad_certificate alert")
    func reject() throws {
        let fixture = try TLSFixture.shared()
        let pair = try TLSEnginePair(client: manualClient(fixture), server: fixture.serverSettings())
        let (client, server) = pair.handshake(trust: { _ in false })
        #expect(client.failureCode == .peerBadCertificate, "\(client)")
        #expect(server.failureCode == .peerBadCertificate, "\(server)")
        #expect(!pair.client.isHandshakeComplete)
        #expect(TLSEnginePair.write("secret", to: pair.server) == .failed(try #require(server.failure)))
        #expect(TLSEnginePair.readOnce(pair.client).0 == .failed(try #require(client.failure)))
    }
}
