import AsyncSocketKit
import Foundation
import SocketTestSupport
import Testing

/// A RunLoopSocket client that starts TLS with a legacy dictionary once connected, sends a line and
/// logs what comes back: "secured", "read <line>", "error <domain> <code> <message>", "disconnected".
private final class LegacyDictionaryClient: RunLoopSocketDelegateBase {
    let log = CallLog()
    let settings: [String: Any]

    init(settings: [String: Any]) {
        self.settings = settings
    }

    override func onSocket(_ sock: RunLoopSocket, didConnectToHost host: String, port: UInt16) {
        sock.startTLS(settings)
        sock.write(Data("abc\n".utf8), withTimeout: 10, tag: 1)
        sock.readData(to: RunLoopSocket.lfData, withTimeout: 10, tag: 2)
    }

    override func onSocketDidSecure(_ sock: RunLoopSocket) {
        log.add("secured")
    }

    override func onSocket(_ sock: RunLoopSocket, didRead data: Data, withTag tag: Int) {
        log.add("read \(String(decoding: data, as: UTF8.self).debugDescription)")
        sock.disconnect()
    }

    override func onSocket(_ sock: RunLoopSocket, willDisconnectWithError error: (any Error)?) {
        let error = error.map { $0 as NSError }
        log.add("error \(error?.domain ?? "nil") \(error?.code ?? 0) \(error?.localizedDescription ?? "")")
    }

    override func onSocketDidDisconnect(_ sock: RunLoopSocket) {
        log.add("disconnected")
    }
}

/// The same on QueueSocket.
private final class QueueDictionaryClient: QueueSocketDelegateBase {
    let log = CallLog()
    let settings: [String: Any]

    init(settings: [String: Any]) {
        self.settings = settings
    }

    override func socket(_ sock: QueueSocket, didConnectToHost host: String, port: UInt16) {
        sock.startTLS(settings)
        sock.write(Data("abc\n".utf8), withTimeout: 10, tag: 1)
        sock.readData(to: QueueSocket.lfData, withTimeout: 10, tag: 2)
    }

    override func socketDidSecure(_ sock: QueueSocket) {
        log.add("secured")
    }

    override func socket(_ sock: QueueSocket, didRead data: Data, withTag tag: Int) {
        log.add("read \(String(decoding: data, as: UTF8.self).debugDescription)")
        sock.disconnect()
    }

    override func socketDidDisconnect(_ sock: QueueSocket, withError error: (any Error)?) {
        if let error = error.map({ $0 as NSError }) {
            log.add("error \(error.domain) \(error.code) \(error.localizedDescription)")
        }
        log.add("disconnected")
    }
}

@Suite("TLSSettings over sockets: AsyncSocketTLSTrustRoots trusts a private CA, a bad value closes naming the key")
struct TLSSettingsTrustRootsSocketTests {
    @Test(
        "RunLoopSocket: the key (a path) trusts the test CA; without it the same server is refused",
        arguments: RunLoopSocket.Engine.allCases)
    func legacy(engine: RunLoopSocket.Engine) async throws {
        let fixture = try TLSFixture.shared()
        let (server, port) = try OpenSSLPeer.server(serverArguments(fixture) + ["-rev"])
        try await onNewThread {
            let trusting = LegacyDictionaryClient(settings: [AsyncSocketTLSTrustRoots: fixture.caPath])
            let socket = RunLoopSocket(delegate: trusting, engine: engine)
            try socket.connectToHost("localhost", onPort: port, withTimeout: 10)
            #expect(runUntil { trusting.log.all.contains("disconnected") })
            #expect(trusting.log.all == ["secured", "read \"cba\\n\"", "disconnected"])

            let untrusting = LegacyDictionaryClient(settings: [kCFStreamSSLPeerName: "localhost"])
            let refused = RunLoopSocket(delegate: untrusting, engine: engine)
            try refused.connectToHost("localhost", onPort: port, withTimeout: 10)
            #expect(runUntil { untrusting.log.all.contains("disconnected") })
            let error = untrusting.log.all.first { $0.hasPrefix("error ") } ?? ""
            #expect(error.hasPrefix("error kCFStreamErrorDomainSSL -9807"), "\(untrusting.log.all)")
            #expect(!untrusting.log.all.contains("secured"))
        }
        server.stop()
    }

    @Test(
        "RunLoopSocket: a path that does not exist closes with -1 naming the key",
        arguments: RunLoopSocket.Engine.allCases)
    func legacyBadValue(engine: RunLoopSocket.Engine) async throws {
        let fixture = try TLSFixture.shared()
        let (server, port) = try OpenSSLPeer.server(serverArguments(fixture) + ["-rev"])
        try await onNewThread {
            let client = LegacyDictionaryClient(settings: [AsyncSocketTLSTrustRoots: "/nonexistent/ca.pem"])
            let socket = RunLoopSocket(delegate: client, engine: engine)
            try socket.connectToHost("localhost", onPort: port, withTimeout: 10)
            #expect(runUntil { client.log.all.contains("disconnected") })
            let log = client.log.all
            #expect(log.count == 2 && log.last == "disconnected", "\(log)")
            let error = log.first ?? ""
            #expect(error.hasPrefix("error AsyncSocketErrorDomain -1 "), "\(log)")
            #expect(error.contains("\"AsyncSocketTLSTrustRoots\""), "\(log)")
            #expect(error.contains("/nonexistent/ca.pem"), "\(log)")
        }
        server.stop()
    }

    @Test("QueueSocket: the key (an array of paths) trusts the test CA; a bad value closes with .other naming the key")
    func queue() throws {
        let fixture = try TLSFixture.shared()
        let (server, port) = try OpenSSLPeer.server(serverArguments(fixture) + ["-rev"])
        defer { server.stop() }
        let queue = DispatchQueue(label: "trust-roots-delegate")
        let trusting = QueueDictionaryClient(settings: [AsyncSocketTLSTrustRoots: [fixture.caPath]])
        let socket = QueueSocket(delegate: trusting, delegateQueue: queue)
        try socket.connect(toHost: "localhost", onPort: port, withTimeout: 10)
        #expect(trusting.log.wait(for: "disconnected"))
        #expect(trusting.log.all == ["secured", "read \"cba\\n\"", "disconnected"])

        let bad = QueueDictionaryClient(settings: [AsyncSocketTLSTrustRoots: ["/nonexistent/ca.pem"]])
        let badSocket = QueueSocket(delegate: bad, delegateQueue: queue)
        try badSocket.connect(toHost: "localhost", onPort: port, withTimeout: 10)
        #expect(bad.log.wait(for: "disconnected"))
        let log = bad.log.all
        #expect(log.count == 2 && log.last == "disconnected", "\(log)")
        let error = log.first ?? ""
        #expect(error.hasPrefix("error GCDAsyncSocketErrorDomain 8 "), "\(log)")
        #expect(error.contains("\"AsyncSocketTLSTrustRoots[0]\""), "\(log)")
        withExtendedLifetime((trusting, bad)) {}
    }
}
