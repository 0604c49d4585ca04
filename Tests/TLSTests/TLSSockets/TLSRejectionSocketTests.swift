import AsyncSocketKit
import Foundation
import SocketTestSupport
import Testing

/// How the other end of a rejection test behaves.
enum RejectingPeer: CustomTestStringConvertible, Sendable {
    case untrustedRoot
    case expiredCertificate
    case wrongHost
    case wrongALPN
    case closesMidHandshake
    case garbage

    var testDescription: String { "\(self)" }

    /// The SecureTransport-style code the client must report.
    var expectedCode: Int {
        switch self {
        case .untrustedRoot: return -9807
        case .expiredCertificate: return -9814
        case .wrongHost: return -9843
        case .wrongALPN: return -9858
        case .closesMidHandshake: return -9806
        case .garbage: return -9800
        }
    }

    /// The client's settings for this case.
    func clientSettings(_ fixture: TLSFixture) -> TLSSettings {
        var settings = fixture.clientSettings()
        if case .untrustedRoot = self {
            settings.trustRoots = .only([fixture.otherCAPath])
        }
        if case .wrongALPN = self {
            settings.alpnProtocols = ["asyncsocket"]
            settings.requiresALPN = true
        }
        return settings
    }

    /// Starts the peer; returns its port and what keeps it alive.
    func start(_ fixture: TLSFixture) throws -> (UInt16, Any) {
        switch self {
        case .untrustedRoot:
            let (peer, port) = try OpenSSLPeer.server(serverArguments(fixture))
            return (port, peer)
        case .expiredCertificate:
            let (peer, port) = try OpenSSLPeer.server(
                serverArguments(fixture, certificate: fixture.expiredServerCertificatePath))
            return (port, peer)
        case .wrongHost:
            let (peer, port) = try OpenSSLPeer.server(
                serverArguments(fixture, certificate: fixture.wrongHostCertificatePath))
            return (port, peer)
        case .wrongALPN:
            let (peer, port) = try OpenSSLPeer.server(serverArguments(fixture) + ["-alpn", "something-else"])
            return (port, peer)
        case .closesMidHandshake, .garbage:
            let listener = try RawListener()
            let garbage = self == .garbage
            Thread.detachNewThread {
                guard let peer = listener.accept() else { return }
                _ = peer.receive(count: 1, timeout: 10)
                if garbage {
                    peer.send("HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\n\r\n")
                    _ = peer.sawClose(timeout: 10)
                }
            }
            return (listener.port, listener)
        }
    }
}

extension RejectingPeer: Equatable {}

@Suite("TLS rejections on both sockets: the right error, and no data delivered")
struct TLSRejectionSocketTests {
    static let cases: [RejectingPeer] = [
        .untrustedRoot, .expiredCertificate, .wrongHost, .wrongALPN, .closesMidHandshake, .garbage,
    ]

    @Test("RunLoopSocket client", arguments: cases, RunLoopSocket.Engine.allCases)
    func runLoopSocket(_ peer: RejectingPeer, engine: RunLoopSocket.Engine) async throws {
        let fixture = try TLSFixture.shared()
        let (port, keep) = try peer.start(fixture)
        try await onNewThread {
            let recorder = Recorder()
            let client = RunLoopSocket(delegate: recorder, engine: engine)
            recorder.name(client, "client")
            let settings = peer.clientSettings(fixture)
            recorder.onConnect = { sock in
                sock.startTLS(settings)
                sock.readData(withTimeout: 10, tag: 1)
                sock.write(Data("must not be sent\n".utf8), withTimeout: 10, tag: 2)
            }
            try client.connectToHost("localhost", onPort: port, withTimeout: 10)
            #expect(runUntil { recorder.events("client").contains(.didDisconnect) })
            let events = recorder.events("client")
            #expect(
                Array(events.suffix(2)) == [
                    .willDisconnect(domain: "kCFStreamErrorDomainSSL", code: peer.expectedCode), .didDisconnect,
                ])
            #expect(!events.contains(.secured))
            #expect(!events.contains { if case .read = $0 { true } else { false } })
            #expect(!events.contains(.wrote(tag: 2)))
        }
        withExtendedLifetime(keep) {}
    }

    @Test("QueueSocket client", arguments: cases)
    func queueSocket(_ peer: RejectingPeer) throws {
        let fixture = try TLSFixture.shared()
        let (port, keep) = try peer.start(fixture)
        let recorder = QueueRecorder()
        let client = QueueSocket(delegate: recorder, delegateQueue: recorder.queue)
        recorder.name(client, "client")
        try client.connect(toHost: "localhost", onPort: port, withTimeout: 10)
        client.startTLS(peer.clientSettings(fixture))
        client.readData(withTimeout: 10, tag: 1)
        client.write(Data("must not be sent\n".utf8), withTimeout: 10, tag: 2)
        #expect(
            recorder.wait { recorder.events("client").contains { if case .disconnected = $0 { true } else { false } } })
        let events = recorder.events("client")
        #expect(events.last == .disconnected(domain: "kCFStreamErrorDomainSSL", code: peer.expectedCode))
        #expect(!events.contains(.secured))
        #expect(!events.contains { if case .read = $0 { true } else { false } })
        #expect(!events.contains(.wrote(tag: 2)))
        withExtendedLifetime(keep) {}
    }
}
