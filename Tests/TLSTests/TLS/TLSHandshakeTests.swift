import AsyncSocketCore
import Foundation
import SocketTestSupport
import Testing

@Suite("TLS engine: handshakes that succeed")
struct TLSHandshakeTests {
    @Test("the default handshake is TLS 1.3 and reports the server's chain")
    func defaultTLS13() throws {
        let fixture = try TLSFixture.shared()
        let pair = try TLSEnginePair(client: fixture.clientSettings(), server: fixture.serverSettings())
        let (client, server) = pair.handshake()
        #expect(client == .complete)
        #expect(server == .complete)
        #expect(pair.client.isHandshakeComplete && pair.server.isHandshakeComplete)
        #expect(pair.client.negotiatedVersion == "TLSv1.3")
        #expect(pair.server.negotiatedVersion == "TLSv1.3")
        let chain = try #require(pair.client.peerCertificateChain)
        #expect(chain.subjectSummaries.first == "O=AsyncSocketKit Tests,CN=localhost")
        #expect(chain.certificates.count == chain.subjectSummaries.count)
        #expect(chain.certificates.first?.first == 0x30)  // DER: a SEQUENCE
        #expect(chain.verifyResult == 0)
        #expect(chain.verifyResultDescription == "ok")
        #expect(pair.server.peerCertificateChain == nil)
    }

    @Test("a maximum of TLS 1.2 negotiates TLS 1.2, with a TLS 1.2 cipher list")
    func forcedTLS12() throws {
        let fixture = try TLSFixture.shared()
        var client = fixture.clientSettings()
        client.maximumVersion = .tls1_2
        client.cipherList = "ECDHE-ECDSA-AES128-GCM-SHA256"
        let pair = try TLSEnginePair(client: client, server: fixture.serverSettings())
        #expect(pair.handshake() == (.complete, .complete))
        #expect(pair.client.negotiatedVersion == "TLSv1.2")
        #expect(pair.server.negotiatedVersion == "TLSv1.2")
    }

    @Test("a minimum of TLS 1.3 negotiates TLS 1.3, with a TLS 1.3 suite list")
    func forcedTLS13() throws {
        let fixture = try TLSFixture.shared()
        var client = fixture.clientSettings()
        client.minimumVersion = .tls1_3
        client.cipherSuites = "TLS_CHACHA20_POLY1305_SHA256"
        var server = fixture.serverSettings()
        server.minimumVersion = .tls1_3
        let pair = try TLSEnginePair(client: client, server: server)
        #expect(pair.handshake() == (.complete, .complete))
        #expect(pair.client.negotiatedVersion == "TLSv1.3")
    }

    @Test("ALPN: the server picks the first of the client's offers that it supports", arguments: [false, true])
    func alpnMatch(tls12: Bool) throws {
        let fixture = try TLSFixture.shared()
        var client = fixture.clientSettings()
        client.alpnProtocols = ["spdy/3", "h2", "http/1.1"]
        client.requiresALPN = true
        client.maximumVersion = tls12 ? .tls1_2 : nil
        var server = fixture.serverSettings()
        server.alpnProtocols = ["http/1.1", "h2"]
        let pair = try TLSEnginePair(client: client, server: server)
        #expect(pair.handshake() == (.complete, .complete))
        #expect(pair.client.negotiatedALPN == "h2")
        #expect(pair.server.negotiatedALPN == "h2")
    }

    @Test("ALPN without overlap completes when nobody requires it")
    func alpnOptional() throws {
        let fixture = try TLSFixture.shared()
        var client = fixture.clientSettings()
        client.alpnProtocols = ["h2"]
        var server = fixture.serverSettings()
        server.alpnProtocols = ["imap"]
        let pair = try TLSEnginePair(client: client, server: server)
        #expect(pair.handshake() == (.complete, .complete))
        #expect(pair.client.negotiatedALPN == nil)
        #expect(pair.server.negotiatedALPN == nil)
    }

    @Test("a server that requires a client certificate gets one", arguments: [false, true])
    func clientCertificate(tls12: Bool) throws {
        let fixture = try TLSFixture.shared()
        var client = fixture.clientSettings()
        client.identity = fixture.clientIdentity
        client.maximumVersion = tls12 ? .tls1_2 : nil
        var server = fixture.serverSettings()
        server.clientAuthentication = .require
        let pair = try TLSEnginePair(client: client, server: server)
        #expect(pair.handshake() == (.complete, .complete))
        let chain = try #require(pair.server.peerCertificateChain)
        #expect(chain.subjectSummaries.first == "CN=Test Client")
        #expect(chain.verifyResult == 0)
    }

    @Test("a server that only requests a client certificate accepts a client without one")
    func clientCertificateRequested() throws {
        let fixture = try TLSFixture.shared()
        var server = fixture.serverSettings()
        server.clientAuthentication = .request
        let pair = try TLSEnginePair(client: fixture.clientSettings(), server: server)
        #expect(pair.handshake() == (.complete, .complete))
        #expect(pair.server.peerCertificateChain == nil)
    }

    @Test(
        "the host name or address the client connected to is checked and passes",
        arguments: ["localhost", "localhost.", "127.0.0.1", "::1", "[::1]"])
    func hostNameChecked(host: String) throws {
        let fixture = try TLSFixture.shared()
        let pair = try TLSEnginePair(
            client: fixture.clientSettings(), server: fixture.serverSettings(), connectHost: host)
        #expect(pair.handshake() == (.complete, .complete))
    }

    @Test("an explicit peer name replaces the host the client connected to")
    func explicitPeerName() throws {
        let fixture = try TLSFixture.shared()
        var client = fixture.clientSettings()
        client.peerName = .name("localhost")
        let pair = try TLSEnginePair(client: client, server: fixture.serverSettings(), connectHost: "10.9.8.7")
        #expect(pair.handshake() == (.complete, .complete))
    }

    @Test("identities load from PEM data, PKCS#12 and encrypted keys")
    func identityForms() throws {
        let fixture = try TLSFixture.shared()
        var client = fixture.clientSettings()
        client.identity = .pem(
            certificatePath: fixture.clientCertificatePath, keyPath: fixture.encryptedClientKeyPath,
            password: TLSFixture.keyPassword)
        var server = fixture.serverSettings()
        server.identity = .pkcs12(
            try fixture.contents(fixture.serverPKCS12Path), password: TLSFixture.p12Password)
        server.clientAuthentication = .require
        let pair = try TLSEnginePair(client: client, server: server)
        #expect(pair.handshake() == (.complete, .complete))

        server.identity = .pemData(
            certificate: try fixture.contents(fixture.serverCertificatePath),
            key: try fixture.contents(fixture.serverKeyPath), password: nil)
        let second = try TLSEnginePair(client: client, server: server)
        #expect(second.handshake() == (.complete, .complete))
    }

    @Test("trust roots may add to the system store")
    func systemAndExtraRoots() throws {
        let fixture = try TLSFixture.shared()
        var client = fixture.clientSettings()
        client.trustRoots = .systemAnd([fixture.caPath])
        let pair = try TLSEnginePair(client: client, server: fixture.serverSettings())
        #expect(pair.handshake() == (.complete, .complete))
    }
}
