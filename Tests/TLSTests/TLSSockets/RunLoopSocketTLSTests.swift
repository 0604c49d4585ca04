import AsyncSocketKit
import Foundation
import SocketTestSupport
import Testing

func versionFlag(_ version: TLSSettings.Version) -> String {
    version == .tls1_2 ? "-tls1_2" : "-tls1_3"
}

@Suite("TLS on RunLoopSocket against openssl s_server and s_client")
struct RunLoopSocketTLSTests {
    @Test(
        "client role: TLS 1.2 and 1.3 with ALPN, and a client certificate the server requires",
        arguments: [TLSSettings.Version.tls1_2, .tls1_3], RunLoopSocket.Engine.allCases)
    func clientRole(version: TLSSettings.Version, engine: RunLoopSocket.Engine) async throws {
        let fixture = try TLSFixture.shared()
        let (server, port) = try OpenSSLPeer.server(
            serverArguments(fixture) + [
                "-rev", versionFlag(version), "-alpn", "asyncsocket", "-Verify", "1", "-CAfile", fixture.caPath,
            ])
        let capture = LogCapture()
        try await onNewThread {
            let recorder = Recorder()
            let client = RunLoopSocket(delegate: recorder, engine: engine, logger: capture.logger)
            recorder.name(client, "client")
            var settings = fixture.clientSettings()
            settings.minimumVersion = version
            settings.maximumVersion = version
            settings.alpnProtocols = ["asyncsocket"]
            settings.identity = fixture.clientIdentity
            recorder.onConnect = { sock in
                sock.startTLS(settings)
                sock.write(Data("hello\n".utf8), withTimeout: 10, tag: 1)
                sock.readData(to: RunLoopSocket.lfData, withTimeout: 10, tag: 2)
            }
            try client.connectToHost("localhost", onPort: port, withTimeout: 10)
            #expect(runUntil { recorder.events("client").count >= 5 })
            #expect(
                recorder.events("client") == [
                    .willConnect, .connected(host: client.connectedHost ?? "", port: port), .secured, .wrote(tag: 1),
                    .read(Data("olleh\n".utf8), tag: 2),
                ])
            #expect(client.isSecure)
            #expect(client.negotiatedALPN == "asyncsocket")
            client.disconnect()
        }
        // The handshake's end is a debug line with the socket's metadata and the protocol agreed.
        let secured = capture.lines.filter { $0.level == .debug && $0.message == "TLS secured" }
        #expect(secured.count == 1, "\(capture.lines)")
        #expect(secured.first?.metadata["alpn"] == "asyncsocket")
        #expect(secured.first?.metadata["face"] == "RunLoopSocket" && secured.first?.metadata["peer"] != nil)
        #expect(server.wait(for: "Protocol version: \(version == .tls1_2 ? "TLSv1.2" : "TLSv1.3")"))
        server.stop()
    }

    @Test(
        "server role: openssl s_client connects, verifies us, and gets its line back",
        arguments: [TLSSettings.Version.tls1_2, .tls1_3], RunLoopSocket.Engine.allCases)
    func serverRole(version: TLSSettings.Version, engine: RunLoopSocket.Engine) async throws {
        let fixture = try TLSFixture.shared()
        try await onNewThread {
            let recorder = Recorder()
            let server = RunLoopSocket(delegate: recorder, engine: engine)
            var settings = fixture.serverSettings()
            settings.alpnProtocols = ["asyncsocket"]
            settings.clientAuthentication = .require
            recorder.onConnect = { sock in
                sock.startTLS(settings)
                sock.readData(to: RunLoopSocket.lfData, withTimeout: 10, tag: 1)
            }
            recorder.onRead = { sock, data, _ in sock.write(data, withTimeout: 10, tag: 2) }
            try server.acceptOnInterface("127.0.0.1", port: 0)
            let client = try OpenSSLPeer([
                "s_client", "-connect", "127.0.0.1:\(server.localPort)", "-servername", "localhost", "-CAfile",
                fixture.caPath,
                "-verify_return_error", "-verify_hostname", "localhost", versionFlag(version), "-alpn", "asyncsocket",
                "-cert", fixture.clientCertificatePath, "-key", fixture.clientKeyPath,
            ])
            #expect(runUntil { recorder.events("child1").contains(.secured) })
            client.send("ping over tls\n")
            #expect(runUntil { recorder.events("child1").contains(.wrote(tag: 2)) })
            #expect(client.wait(for: "ping over tls"))
            #expect(client.text.contains("Verification: OK") || client.text.contains("Verify return code: 0"))
            #expect(client.text.contains("ALPN protocol: asyncsocket"))
            #expect(recorder.accepted.first?.isSecure == true)
            recorder.accepted.first?.disconnect()
            server.disconnect()
            client.finish()
        }
    }

    @Test(
        "STARTTLS: plaintext lines, startTLS queued behind a write, then encrypted lines (s_client -starttls smtp)",
        arguments: RunLoopSocket.Engine.allCases)
    func startTLS(engine: RunLoopSocket.Engine) async throws {
        let fixture = try TLSFixture.shared()
        try await onNewThread {
            let recorder = Recorder()
            let server = RunLoopSocket(delegate: recorder, engine: engine)
            recorder.onConnect = { sock in
                sock.write(Data("220 test ESMTP\r\n".utf8), withTimeout: 10, tag: 0)
                sock.readData(to: RunLoopSocket.crlfData, withTimeout: 10, tag: 1)
            }
            recorder.onRead = { sock, data, tag in
                let line = String(decoding: data, as: UTF8.self)
                switch tag {
                case 1:
                    sock.write(Data("250-test\r\n250 STARTTLS\r\n".utf8), withTimeout: 10, tag: 0)
                    sock.readData(to: RunLoopSocket.crlfData, withTimeout: 10, tag: 2)
                case 2:
                    #expect(line.uppercased().hasPrefix("STARTTLS"))
                    sock.write(Data("220 go ahead\r\n".utf8), withTimeout: 10, tag: 3)
                    sock.startTLS(fixture.serverSettings())
                    sock.readData(to: RunLoopSocket.lfData, withTimeout: 10, tag: 4)
                default:
                    sock.write(Data("secret: \(line)".utf8), withTimeout: 10, tag: 5)
                }
            }
            try server.acceptOnInterface("127.0.0.1", port: 0)
            let client = try OpenSSLPeer([
                "s_client", "-connect", "127.0.0.1:\(server.localPort)", "-starttls", "smtp", "-CAfile", fixture.caPath,
                "-verify_return_error", "-verify_hostname", "localhost", "-quiet",
            ])
            #expect(runUntil { recorder.events("child1").contains(.secured) })
            client.send("hello encrypted\n")
            #expect(runUntil { recorder.events("child1").contains(.wrote(tag: 5)) })
            #expect(client.wait(for: "secret: hello encrypted"))
            let events = recorder.events("child1")
            let securedAt = events.firstIndex(of: .secured)!
            #expect(events.firstIndex(of: .wrote(tag: 3))! < securedAt)
            #expect(events.firstIndex(of: .read(Data("hello encrypted\n".utf8), tag: 4))! > securedAt)
            recorder.accepted.first?.disconnect()
            server.disconnect()
            client.finish()
        }
    }

    @Test(
        "a legacy dictionary works end to end; an unknown key closes with -1 naming the key",
        arguments: RunLoopSocket.Engine.allCases)
    func legacyDictionary(engine: RunLoopSocket.Engine) async throws {
        let fixture = try TLSFixture.shared()
        let (server, port) = try OpenSSLPeer.server(serverArguments(fixture) + ["-rev"])
        try await onNewThread {
            let recorder = Recorder()
            let good = RunLoopSocket(delegate: recorder, engine: engine)
            recorder.name(good, "good")
            let bad = RunLoopSocket(delegate: recorder, engine: engine)
            recorder.name(bad, "bad")
            recorder.onConnect = { sock in
                if sock === good {
                    // The test CA is not in the system store: the legacy way to accept it.
                    sock.startTLS([kCFStreamSSLPeerName: "localhost", kCFStreamSSLAllowsAnyRoot: true])
                } else {
                    sock.startTLS([kCFStreamSSLPeerName: "localhost", "kCFStreamSSLNoSuchKey": 1])
                }
                sock.write(Data("abc\n".utf8), withTimeout: 10, tag: 1)
                sock.readData(to: RunLoopSocket.lfData, withTimeout: 10, tag: 2)
            }
            var messages: [String] = []
            recorder.onWillDisconnect = { sock in
                messages.append(String(describing: recorder.unread[recorder.label(sock)]))
            }
            try good.connectToHost("localhost", onPort: port)
            #expect(
                runUntil { recorder.events("good").contains(.read(Data("cba\n".utf8), tag: 2)) }, "\(recorder.trace)")
            good.disconnect()
            try bad.connectToHost("localhost", onPort: port)
            #expect(runUntil { recorder.events("bad").contains(.didDisconnect) })
            #expect(recorder.events("bad").contains(.willDisconnect(domain: "AsyncSocketErrorDomain", code: -1)))
            #expect(!recorder.events("bad").contains(.secured))
        }
        server.stop()
    }

    @Test(
        "50 KiB written twice over TLS, one 100 KiB read with a 0.1 s timeout gets exactly 102 400 bytes",
        arguments: RunLoopSocket.Engine.allCases)
    func readToLengthOverTLS(engine: RunLoopSocket.Engine) async throws {
        let fixture = try TLSFixture.shared()
        try await onNewThread {
            let recorder = Recorder()
            let server = RunLoopSocket(delegate: recorder, engine: engine)
            recorder.onConnect = { sock in
                if recorder.label(sock) == "child1" {
                    sock.startTLS(fixture.serverSettings())
                } else {
                    sock.startTLS(fixture.clientSettings())
                }
            }
            try server.acceptOnInterface("127.0.0.1", port: 0)
            let client = RunLoopSocket(delegate: recorder, engine: engine)
            recorder.name(client, "client")
            try client.connectToHost("localhost", onPort: server.localPort)
            #expect(
                runUntil {
                    recorder.events("client").contains(.secured) && recorder.events("child1").contains(.secured)
                })
            let child = recorder.accepted[0]
            child.write(Data(count: 50 * 1024), withTimeout: 0.1, tag: 1)
            #expect(runUntil { recorder.events("child1").contains(.wrote(tag: 1)) })
            child.write(Data(count: 50 * 1024), withTimeout: 0.1, tag: 2)
            #expect(runUntil { recorder.events("child1").contains(.wrote(tag: 2)) })
            client.readData(toLength: 102_400, withTimeout: 0.1, tag: 3)
            #expect(runUntil { recorder.events("client").contains { if case .read = $0 { true } else { false } } })
            #expect(recorder.events("client").contains(.read(Data(count: 102_400), tag: 3)))
            #expect(client.isConnected)
            client.disconnect()
            child.disconnect()
            server.disconnect()
        }
    }
}
