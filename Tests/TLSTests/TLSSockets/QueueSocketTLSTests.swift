import AsyncSocketKit
import Foundation
import SocketTestSupport
import Testing

@Suite("TLS on QueueSocket against openssl s_server and s_client")
struct QueueSocketTLSTests {
    @Test(
        "client role: TLS 1.2 and 1.3 with ALPN and a client certificate",
        arguments: [TLSSettings.Version.tls1_2, .tls1_3])
    func clientRole(version: TLSSettings.Version) throws {
        let fixture = try TLSFixture.shared()
        let (server, port) = try OpenSSLPeer.server(
            serverArguments(fixture) + [
                "-rev", versionFlag(version), "-alpn", "asyncsocket", "-Verify", "1", "-CAfile", fixture.caPath,
            ])
        let recorder = QueueRecorder()
        let client = QueueSocket(delegate: recorder, delegateQueue: recorder.queue)
        recorder.name(client, "client")
        var settings = fixture.clientSettings()
        settings.minimumVersion = version
        settings.maximumVersion = version
        settings.alpnProtocols = ["asyncsocket"]
        settings.identity = fixture.clientIdentity
        try client.connect(toHost: "localhost", onPort: port, withTimeout: 10)
        client.startTLS(settings)
        client.startTLS(settings)
        client.write(Data("hello\n".utf8), withTimeout: 10, tag: 1)
        client.readData(to: QueueSocket.lfData, withTimeout: 10, tag: 2)
        #expect(recorder.wait { recorder.events("client").contains(.read(Data("olleh\n".utf8), tag: 2)) })
        let events = recorder.events("client")
        #expect(events.firstIndex(of: .secured)! < events.firstIndex(of: .wrote(tag: 1))!)
        #expect(events.filter { $0 == .secured }.count == 1)
        #expect(client.isSecure)
        #expect(client.negotiatedALPN == "asyncsocket")
        client.disconnect()
        #expect(server.wait(for: "Protocol version: \(version == .tls1_2 ? "TLSv1.2" : "TLSv1.3")"))
        server.stop()
    }

    @Test("server role and STARTTLS: s_client -starttls smtp, plaintext first, then encrypted lines")
    func serverRoleStartTLS() throws {
        let fixture = try TLSFixture.shared()
        let recorder = QueueRecorder()
        let server = QueueSocket(delegate: recorder, delegateQueue: recorder.queue)
        recorder.onAccept = { sock in
            sock.write(Data("220 test ESMTP\r\n".utf8), withTimeout: 10, tag: 0)
            sock.readData(to: QueueSocket.crlfData, withTimeout: 10, tag: 1)
        }
        recorder.onRead = { sock, data, tag in
            switch tag {
            case 1:
                sock.write(Data("250-test\r\n250 STARTTLS\r\n".utf8), withTimeout: 10, tag: 0)
                sock.readData(to: QueueSocket.crlfData, withTimeout: 10, tag: 2)
            case 2:
                sock.write(Data("220 go ahead\r\n".utf8), withTimeout: 10, tag: 3)
                sock.startTLS(fixture.serverSettings())
                sock.readData(to: QueueSocket.lfData, withTimeout: 10, tag: 4)
            default:
                sock.write(Data("secret: ".utf8) + data, withTimeout: 10, tag: 5)
            }
        }
        try server.accept(onInterface: "127.0.0.1", port: 0)
        let client = try OpenSSLPeer([
            "s_client", "-connect", "127.0.0.1:\(server.localPort)", "-starttls", "smtp", "-CAfile", fixture.caPath,
            "-verify_return_error", "-verify_hostname", "localhost", "-quiet",
        ])
        #expect(recorder.wait { recorder.events("child1").contains(.secured) })
        client.send("hello encrypted\n")
        #expect(client.wait(for: "secret: hello encrypted"))
        let events = recorder.events("child1")
        #expect(events.firstIndex(of: .wrote(tag: 3))! < events.firstIndex(of: .secured)!)
        recorder.accepted.first?.disconnect()
        server.disconnect()
        client.finish()
    }

    @Test(
        "manual trust: the delegate sees the chain; accepting completes, refusing fails with -9825",
        arguments: [true, false])
    func manualTrust(accept: Bool) throws {
        let fixture = try TLSFixture.shared()
        let (server, port) = try OpenSSLPeer.server(serverArguments(fixture) + ["-rev"])
        let delegate = QueueRecorder()
        delegate.trustAnswer = accept
        let client = QueueSocket(delegate: delegate, delegateQueue: delegate.queue)
        delegate.name(client, "client")
        var settings = TLSSettings(role: .client)
        settings.manualTrustEvaluation = true
        settings.trustRoots = .only([fixture.otherCAPath])
        try client.connect(toHost: "localhost", onPort: port)
        client.startTLS(settings)
        client.write(Data("abc\n".utf8), withTimeout: 10, tag: 1)
        client.readData(to: QueueSocket.lfData, withTimeout: 10, tag: 2)
        if accept {
            #expect(delegate.wait { delegate.events("client").contains(.read(Data("cba\n".utf8), tag: 2)) })
        } else {
            #expect(
                delegate.wait {
                    delegate.events("client").contains { if case .disconnected = $0 { true } else { false } }
                })
            #expect(delegate.events("client").last == .disconnected(domain: "kCFStreamErrorDomainSSL", code: -9825))
        }
        #expect(delegate.trustChains.count == 1)
        #expect(delegate.trustChains.first?.certificates.isEmpty == false)
        #expect(delegate.trustChains.first?.verifyResult != 0)
        client.disconnect()
        server.stop()
    }

    @Test("50 KiB written twice over TLS, one 100 KiB read with a 0.1 s timeout gets exactly 102 400 bytes")
    func readToLengthOverTLS() throws {
        let fixture = try TLSFixture.shared()
        let pair = try QueuePair()
        pair.child.startTLS(fixture.serverSettings())
        pair.client.startTLS(fixture.clientSettings())
        #expect(
            pair.recorder.wait {
                pair.recorder.events("client").contains(.secured) && pair.recorder.events("child1").contains(.secured)
            })
        pair.child.write(Data(count: 50 * 1024), withTimeout: 0.1, tag: 1)
        #expect(pair.recorder.wait { pair.recorder.events("child1").contains(.wrote(tag: 1)) })
        pair.child.write(Data(count: 50 * 1024), withTimeout: 0.1, tag: 2)
        #expect(pair.recorder.wait { pair.recorder.events("child1").contains(.wrote(tag: 2)) })
        pair.client.readData(toLength: 102_400, withTimeout: 0.1, tag: 3)
        #expect(
            pair.recorder.wait {
                pair.recorder.events("client").contains { if case .read = $0 { true } else { false } }
            })
        #expect(pair.recorder.events("client").contains(.read(Data(count: 102_400), tag: 3)))
        #expect(pair.client.isConnected)
        pair.tearDown()
    }
}
