import AsyncSocketCore
import Foundation
import SocketTestSupport
import Testing

@Suite("TLS engine: each opt-out lets exactly its failure through, with one warning")
struct TLSOptOutTests {
    @Test("allowsAnyRoot accepts a chain from an untrusted root")
    func allowsAnyRoot() throws {
        let fixture = try TLSFixture.shared()
        let log = LogCapture()
        var client = fixture.clientSettings()
        client.trustRoots = .only([fixture.otherCAPath])
        client.allowsAnyRoot = true
        let pair = try TLSEnginePair(client: client, server: fixture.serverSettings(), logger: log.logger)
        #expect(pair.handshake() == (.complete, .complete))
        #expect(pair.client.peerCertificateChain?.verifyResult == 0)
        let warnings = log.messages(at: .warning)
        #expect(warnings.count == 1)
        #expect(warnings.first?.contains("allowsAnyRoot") == true)
    }

    @Test("allowsAnyRoot does not forgive an expired certificate")
    func allowsAnyRootIsNarrow() throws {
        let fixture = try TLSFixture.shared()
        var client = fixture.clientSettings()
        client.trustRoots = .only([fixture.otherCAPath])
        client.allowsAnyRoot = true
        let pair = try TLSEnginePair(
            client: client, server: fixture.serverSettings(certificate: fixture.expiredServerCertificatePath))
        #expect(pair.handshake().client.failureCode == .certificateExpired)
    }

    @Test("allowsExpiredCertificates accepts an expired server certificate")
    func allowsExpiredCertificates() throws {
        let fixture = try TLSFixture.shared()
        let log = LogCapture()
        var client = fixture.clientSettings()
        client.allowsExpiredCertificates = true
        let pair = try TLSEnginePair(
            client: client, server: fixture.serverSettings(certificate: fixture.expiredServerCertificatePath),
            logger: log.logger)
        #expect(pair.handshake() == (.complete, .complete))
        #expect(log.messages(at: .warning).count == 1)
        #expect(log.messages(at: .warning).first?.contains("allowsExpiredCertificates") == true)
    }

    @Test("an expired root fails with -9814 unless allowsExpiredRoots is set")
    func allowsExpiredRoots() throws {
        let fixture = try TLSFixture.shared()
        var client = fixture.clientSettings()
        client.trustRoots = .only([fixture.expiredRootPath])
        let server = fixture.serverSettings(certificate: fixture.expiredRootServerCertificatePath)
        let strict = try TLSEnginePair(client: client, server: server)
        #expect(strict.handshake().client.failureCode == .certificateExpired)

        // Expired certificates below the root are a different opt-out.
        client.allowsExpiredCertificates = true
        let wrongOptOut = try TLSEnginePair(client: client, server: server)
        #expect(wrongOptOut.handshake().client.failureCode == .certificateExpired)

        let log = LogCapture()
        client.allowsExpiredCertificates = false
        client.allowsExpiredRoots = true
        let pair = try TLSEnginePair(client: client, server: server, logger: log.logger)
        #expect(pair.handshake() == (.complete, .complete))
        #expect(log.messages(at: .warning).count == 1)
        #expect(log.messages(at: .warning).first?.contains("allowsExpiredRoots") == true)
    }

    @Test("peerName .none accepts a certificate for another host")
    func peerNameNone() throws {
        let fixture = try TLSFixture.shared()
        let log = LogCapture()
        var client = fixture.clientSettings()
        client.peerName = .none
        let pair = try TLSEnginePair(
            client: client, server: fixture.serverSettings(certificate: fixture.wrongHostCertificatePath),
            logger: log.logger)
        #expect(pair.handshake() == (.complete, .complete))
        #expect(log.messages(at: .warning).count == 1)
        #expect(log.messages(at: .warning).first?.contains("host name is not checked") == true)
    }

    @Test("validatesCertificateChain = false accepts any chain but still checks the host name")
    func chainValidationOff() throws {
        let fixture = try TLSFixture.shared()
        let log = LogCapture()
        var client = fixture.clientSettings()
        client.trustRoots = .only([fixture.otherCAPath])
        client.validatesCertificateChain = false
        let pair = try TLSEnginePair(
            client: client, server: fixture.serverSettings(certificate: fixture.expiredServerCertificatePath),
            logger: log.logger)
        #expect(pair.handshake() == (.complete, .complete))
        #expect(log.messages(at: .warning).count == 1)

        let wrongHost = try TLSEnginePair(
            client: client, server: fixture.serverSettings(certificate: fixture.wrongHostCertificatePath))
        #expect(wrongHost.handshake().client.failureCode == .hostNameMismatch)
    }

    @Test("strict settings log nothing, and a server that verifies no one does not warn")
    func noWarnings() throws {
        let fixture = try TLSFixture.shared()
        let log = LogCapture()
        var server = fixture.serverSettings()
        server.allowsAnyRoot = true
        let pair = try TLSEnginePair(client: fixture.clientSettings(), server: server, logger: log.logger)
        #expect(pair.handshake() == (.complete, .complete))
        #expect(log.messages(at: .warning).isEmpty)
    }
}
