import AsyncSocketCore
import Foundation
import SocketTestSupport
import Testing

@Suite("TLS engine: handshakes that fail, with the SecureTransport code")
struct TLSRejectionTests {
    /// Runs the handshake, expects the client to fail with `code`, and checks that no plaintext gets
    /// through either way afterwards.
    private func expectClientFailure(
        _ pair: TLSEnginePair, _ code: TLSError.Code, sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> TLSError {
        let (client, server) = pair.handshake()
        let error = try #require(client.failure, "client status: \(client)", sourceLocation: sourceLocation)
        #expect(error.code == code, "\(error)", sourceLocation: sourceLocation)
        #expect((error as NSError).domain == "kCFStreamErrorDomainSSL", sourceLocation: sourceLocation)
        #expect((error as NSError).code == code.rawValue, sourceLocation: sourceLocation)
        #expect(!pair.client.isHandshakeComplete, sourceLocation: sourceLocation)
        #expect(server.failure != nil, "server status: \(server)", sourceLocation: sourceLocation)
        // Nothing flows after a failure.
        _ = TLSEnginePair.write("secret", to: pair.server)
        pair.pump()
        #expect(TLSEnginePair.readOnce(pair.client).0 == .failed(error), sourceLocation: sourceLocation)
        #expect(TLSEnginePair.write("secret", to: pair.client) == .failed(error), sourceLocation: sourceLocation)
        return error
    }

    @Test("a chain from an untrusted root fails with errSSLXCertChainInvalid (-9807)")
    func untrustedRoot() throws {
        let fixture = try TLSFixture.shared()
        var client = fixture.clientSettings()
        client.trustRoots = .only([fixture.otherCAPath])
        let pair = try TLSEnginePair(client: client, server: fixture.serverSettings())
        let error = try expectClientFailure(pair, .certificateChainInvalid)
        // The server sends its CA along (OpenSSL completes the chain from its trust store).
        #expect(error.verifyResult == 19)  // X509_V_ERR_SELF_SIGNED_CERT_IN_CHAIN
        #expect(error.opensslReason == "self-signed certificate in certificate chain")
        #expect(error.message.contains("(OpenSSL: self-signed certificate in certificate chain)"))
        #expect(pair.serverStatus.failureCode == .peerUnknownCA)
    }

    @Test("an expired certificate fails with errSSLCertExpired (-9814)")
    func expiredCertificate() throws {
        let fixture = try TLSFixture.shared()
        let pair = try TLSEnginePair(
            client: fixture.clientSettings(),
            server: fixture.serverSettings(certificate: fixture.expiredServerCertificatePath))
        let error = try expectClientFailure(pair, .certificateExpired)
        #expect(error.verifyResult == 10)  // X509_V_ERR_CERT_HAS_EXPIRED
        #expect(pair.serverStatus.failureCode == .peerCertificateExpired)
    }

    @Test("a certificate for another host fails with errSSLHostNameMismatch (-9843) naming the opt-out")
    func hostNameMismatch() throws {
        let fixture = try TLSFixture.shared()
        let pair = try TLSEnginePair(
            client: fixture.clientSettings(),
            server: fixture.serverSettings(certificate: fixture.wrongHostCertificatePath))
        let error = try expectClientFailure(pair, .hostNameMismatch)
        #expect(error.verifyResult == 62)  // X509_V_ERR_HOSTNAME_MISMATCH
        #expect(error.message.contains("\"localhost\""))
        #expect(
            error.message.contains(
                "set TLSSettings.peerName to .none, or kCFStreamSSLPeerName to NSNull(), to skip the host name check"))
    }

    @Test("an IP address the certificate does not list fails with errSSLHostNameMismatch (-9843)")
    func addressMismatch() throws {
        let fixture = try TLSFixture.shared()
        let pair = try TLSEnginePair(
            client: fixture.clientSettings(), server: fixture.serverSettings(), connectHost: "10.1.2.3")
        let error = try expectClientFailure(pair, .hostNameMismatch)
        #expect(error.verifyResult == 64)  // X509_V_ERR_IP_ADDRESS_MISMATCH
    }

    @Test(
        "bytes that are not a ServerHello fail with errSSLProtocol (-9800)",
        arguments: [
            Array("HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\n\r\n".utf8),
            [0x16, 0x03, 0x03, 0x00, 0x05, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF],
            [UInt8](repeating: 0, count: 64),
        ])
    func garbage(bytes: [UInt8]) throws {
        let fixture = try TLSFixture.shared()
        let client = try TLSEngine(settings: fixture.clientSettings(), connectHost: "localhost", logger: nil)
        #expect(client.handshake() == .needsMoreCiphertext)
        #expect(client.pendingCiphertext > 0)
        bytes.withUnsafeBytes { client.feedCiphertext($0) }
        let status = client.handshake()
        #expect(status.failureCode == .protocolError, "\(status)")
        #expect(status.failure?.opensslReason.isEmpty == false)
        #expect(TLSEnginePair.readOnce(client).0 == status.failure.map { .failed($0) })
    }

    @Test("a server fed garbage fails with errSSLProtocol (-9800)")
    func serverGarbage() throws {
        let fixture = try TLSFixture.shared()
        let server = try TLSEngine(settings: fixture.serverSettings(), connectHost: nil, logger: nil)
        Array("GET / HTTP/1.1\r\n\r\n".utf8).withUnsafeBytes { server.feedCiphertext($0) }
        #expect(server.handshake().failureCode == .protocolError)
    }

    @Test("a peer that closes in the middle of the handshake fails it with errSSLClosedAbort (-9806)")
    func peerClosedMidHandshake() throws {
        let fixture = try TLSFixture.shared()
        let client = try TLSEngine(settings: fixture.clientSettings(), connectHost: "localhost", logger: nil)
        #expect(client.handshake() == .needsMoreCiphertext)
        client.peerClosed()
        #expect(client.handshake().failureCode == .closedAbort)

        // Part of the server's flight arrives, then the connection ends.
        let pair = try TLSEnginePair(client: fixture.clientSettings(), server: fixture.serverSettings())
        _ = pair.client.handshake()
        TLSEnginePair.move(from: pair.client, to: pair.server)
        _ = pair.server.handshake()
        var flight = [UInt8](repeating: 0, count: pair.server.pendingCiphertext)
        let count = flight.withUnsafeMutableBytes { pair.server.takeCiphertext(into: $0) }
        flight.withUnsafeBytes { pair.client.feedCiphertext(UnsafeRawBufferPointer(rebasing: $0.prefix(count / 2))) }
        #expect(pair.client.handshake() == .needsMoreCiphertext)
        pair.client.peerClosed()
        #expect(pair.client.handshake().failureCode == .closedAbort)
    }

    @Test("no common protocol version fails with errSSLPeerProtocolVersion (-9836) on both sides")
    func noCommonVersion() throws {
        let fixture = try TLSFixture.shared()
        var client = fixture.clientSettings()
        client.maximumVersion = .tls1_2
        var server = fixture.serverSettings()
        server.minimumVersion = .tls1_3
        let pair = try TLSEnginePair(client: client, server: server)
        let (clientStatus, serverStatus) = pair.handshake()
        #expect(clientStatus.failureCode == .peerProtocolVersion, "\(clientStatus)")
        #expect(serverStatus.failureCode == .peerProtocolVersion, "\(serverStatus)")
    }

    @Test("a required ALPN protocol the server does not pick fails the client with -9858", arguments: [false, true])
    func requiredALPNMismatch(tls12: Bool) throws {
        let fixture = try TLSFixture.shared()
        var client = fixture.clientSettings()
        client.alpnProtocols = ["h2"]
        client.requiresALPN = true
        client.maximumVersion = tls12 ? .tls1_2 : nil
        var server = fixture.serverSettings()
        server.alpnProtocols = ["http/1.1"]
        let pair = try TLSEnginePair(client: client, server: server)
        _ = try expectClientFailure(pair, .handshakeFailed)
    }

    @Test("a server that requires ALPN refuses a client that offers none, with -9858 on both sides")
    func serverRequiresALPN() throws {
        let fixture = try TLSFixture.shared()
        var server = fixture.serverSettings()
        server.alpnProtocols = ["h2"]
        server.requiresALPN = true
        let pair = try TLSEnginePair(client: fixture.clientSettings(), server: server)
        _ = try expectClientFailure(pair, .handshakeFailed)
        #expect(pair.serverStatus.failureCode == .handshakeFailed)
    }

    @Test("a server that requires a client certificate refuses a client without one", arguments: [false, true])
    func missingClientCertificate(tls12: Bool) throws {
        let fixture = try TLSFixture.shared()
        var client = fixture.clientSettings()
        client.maximumVersion = tls12 ? .tls1_2 : nil
        var server = fixture.serverSettings()
        server.clientAuthentication = .require
        let pair = try TLSEnginePair(client: client, server: server)
        let (clientStatus, serverStatus) = pair.handshake()
        #expect(serverStatus.failureCode == .peerCertificateUnknown, "\(serverStatus)")
        if tls12 {
            #expect(clientStatus.failureCode == .fatalAlert, "\(clientStatus)")
        } else {
            // TLS 1.3: the client has finished its part before the server decides; its first read fails.
            #expect(clientStatus == .complete)
            let (result, bytes) = TLSEnginePair.readOnce(pair.client)
            guard case .failed(let error) = result else {
                Issue.record("expected a failed read, got \(result)")
                return
            }
            #expect(error.code == .peerCertificateUnknown)
            #expect(bytes.isEmpty)
        }
    }

    @Test("a client certificate from an unknown CA is refused by the server with errSSLXCertChainInvalid")
    func untrustedClientCertificate() throws {
        let fixture = try TLSFixture.shared()
        var client = fixture.clientSettings()
        client.identity = fixture.clientIdentity
        client.maximumVersion = .tls1_2
        var server = fixture.serverSettings()
        server.clientAuthentication = .require
        server.trustRoots = .only([fixture.otherCAPath])
        let pair = try TLSEnginePair(client: client, server: server)
        let (clientStatus, serverStatus) = pair.handshake()
        #expect(serverStatus.failureCode == .certificateChainInvalid, "\(serverStatus)")
        #expect(serverStatus.failure?.message.contains("client's certificate chain") == true)
        #expect(clientStatus.failureCode == .peerUnknownCA, "\(clientStatus)")
    }
}
