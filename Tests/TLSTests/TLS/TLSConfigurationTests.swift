import AsyncSocketCore
import Foundation
import SocketTestSupport
import Testing

@Suite("TLS engine: settings that cannot be used throw errSSLBadConfiguration")
struct TLSConfigurationTests {
    private func expectBadConfiguration(
        _ settings: TLSSettings, connectHost: String? = "localhost", containing text: String,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        do {
            _ = try TLSEngine(settings: settings, connectHost: connectHost, logger: nil)
            Issue.record("expected the engine to refuse the settings", sourceLocation: sourceLocation)
        } catch {
            #expect(error.code == .badConfiguration, sourceLocation: sourceLocation)
            #expect(error.message.contains(text), "\(error.message)", sourceLocation: sourceLocation)
        }
    }

    @Test("malformed or mismatched identities")
    func badIdentities() throws {
        let fixture = try TLSFixture.shared()
        var server = fixture.serverSettings()
        let certificate = try fixture.contents(fixture.serverCertificatePath)
        let key = try fixture.contents(fixture.serverKeyPath)
        let garbage = Data("-----BEGIN CERTIFICATE-----\nnot base64 at all\n-----END CERTIFICATE-----\n".utf8)

        server.identity = .pemData(certificate: garbage, key: key, password: nil)
        expectBadConfiguration(server, connectHost: nil, containing: "certificate")
        server.identity = .pemData(certificate: certificate, key: Data([0, 1, 2, 3]), password: nil)
        expectBadConfiguration(server, connectHost: nil, containing: "private key")
        server.identity = .pemData(
            certificate: certificate, key: try fixture.contents(fixture.clientKeyPath), password: nil)
        expectBadConfiguration(server, connectHost: nil, containing: "does not belong")
        server.identity = .pem(
            certificatePath: fixture.clientCertificatePath, keyPath: fixture.encryptedClientKeyPath, password: nil)
        expectBadConfiguration(server, connectHost: nil, containing: "password")
        server.identity = .pem(
            certificatePath: fixture.clientCertificatePath, keyPath: fixture.encryptedClientKeyPath,
            password: "wrong")
        expectBadConfiguration(server, connectHost: nil, containing: "password")
        server.identity = .pkcs12(try fixture.contents(fixture.serverPKCS12Path), password: "wrong")
        expectBadConfiguration(server, connectHost: nil, containing: "password")
        server.identity = .pkcs12(Data(repeating: 0x30, count: 40), password: "")
        expectBadConfiguration(server, connectHost: nil, containing: "PKCS#12")
        server.identity = .pem(
            certificatePath: fixture.path("missing.pem"), keyPath: fixture.serverKeyPath, password: nil)
        expectBadConfiguration(server, connectHost: nil, containing: "missing.pem")
        server.identity = nil
        expectBadConfiguration(server, connectHost: nil, containing: "a server needs an identity")
    }

    @Test("trust roots, versions, ciphers, ALPN and roles that cannot work")
    func badSettings() throws {
        let fixture = try TLSFixture.shared()
        var client = fixture.clientSettings()
        client.trustRoots = .only([])
        expectBadConfiguration(client, containing: "trusts nothing")
        client.trustRoots = .only([fixture.path("nowhere.pem")])
        expectBadConfiguration(client, containing: "does not exist")
        client.trustRoots = .only([fixture.path("openssl.cnf")])
        expectBadConfiguration(client, containing: "cannot load trust roots")

        client = fixture.clientSettings()
        client.minimumVersion = .tls1_3
        client.maximumVersion = .tls1_2
        expectBadConfiguration(client, containing: "maximumVersion")

        client = fixture.clientSettings()
        client.cipherList = "NO-SUCH-CIPHER"
        expectBadConfiguration(client, containing: "NO-SUCH-CIPHER")
        client = fixture.clientSettings()
        client.cipherSuites = "TLS_NO_SUCH_SUITE"
        expectBadConfiguration(client, containing: "TLS_NO_SUCH_SUITE")

        client = fixture.clientSettings()
        client.requiresALPN = true
        expectBadConfiguration(client, containing: "requiresALPN")
        client.alpnProtocols = [String(repeating: "x", count: 256)]
        expectBadConfiguration(client, containing: "1 to 255 bytes")

        var server = fixture.serverSettings()
        server.manualTrustEvaluation = true
        expectBadConfiguration(server, connectHost: nil, containing: "clients only")
    }

    @Test("a client with no host to check and no explicit peer name is refused")
    func noHostToCheck() throws {
        let fixture = try TLSFixture.shared()
        expectBadConfiguration(fixture.clientSettings(), connectHost: nil, containing: "TLSSettings.peerName")
        expectBadConfiguration(fixture.clientSettings(), connectHost: "", containing: "TLSSettings.peerName")
        var client = fixture.clientSettings()
        client.peerName = .name("")
        expectBadConfiguration(client, containing: ".none")
    }

    @Test("a failure leaves no OpenSSL error behind for the next engine on the thread")
    func errorQueueIsolation() throws {
        let fixture = try TLSFixture.shared()
        var server = fixture.serverSettings()
        server.identity = .pemData(certificate: Data("junk".utf8), key: Data("junk".utf8), password: nil)
        expectBadConfiguration(server, connectHost: nil, containing: "certificate")
        let failing = try TLSEngine(settings: fixture.clientSettings(), connectHost: "localhost", logger: nil)
        _ = failing.handshake()
        Array("junk junk junk".utf8).withUnsafeBytes { failing.feedCiphertext($0) }
        let first = failing.handshake()
        #expect(first.failureCode == .protocolError)

        let pair = try TLSEnginePair(client: fixture.clientSettings(), server: fixture.serverSettings())
        #expect(pair.handshake() == (.complete, .complete))
        // The failed engine still reports its own error, unchanged.
        #expect(failing.handshake() == first)
    }
}
