import AsyncSocketKit
import Foundation
import SocketTestSupport
import Testing

/// How the raw peer goes away after its partial handshake message.
enum Vanish: String, CaseIterable, CustomStringConvertible, Sendable {
    case close
    case reset

    var description: String { rawValue }

    func apply(to peer: RawPeer) {
        switch self {
        case .close: peer.shutdownWrite()
        case .reset: peer.reset()
        }
    }
}

/// The start of a TLS record that announces 64 bytes of a ServerHello and brings 6.
let partialServerHello: [UInt8] = [0x16, 0x03, 0x03, 0x00, 0x40, 0x02, 0x00, 0x00, 0x3C, 0x03, 0x03]
/// The start of a TLS record that announces 128 bytes of a ClientHello and brings 6.
let partialClientHello: [UInt8] = [0x16, 0x03, 0x01, 0x00, 0x80, 0x01, 0x00, 0x00, 0x7C, 0x03, 0x03]

/// The error domains a peer vanishing mid-handshake may be reported with.
let vanishDomains: Set<String?> = ["kCFStreamErrorDomainSSL", NSPOSIXErrorDomain]

@Suite("Faults: a TLS peer vanishes mid-handshake")
struct TLSVanishFaultTests {
    @Test(
        "RunLoopSocket client: a partial ServerHello, then the peer is gone: an error close, never secured",
        arguments: RunLoopSocket.Engine.allCases, Vanish.allCases)
    func clientHandshake(engine: RunLoopSocket.Engine, vanish: Vanish) async throws {
        let fixture = try TLSFixture.shared()
        try await onNewThread {
            let connection = try ClientConnection(engine: engine)
            connection.client.startTLS(fixture.clientSettings())
            connection.client.readData(withTimeout: 10, tag: 1)
            let peer = connection.peer
            #expect(waitUntil { kernelPending(peer.fd).count >= 5 })
            #expect(peer.receive(count: 5).first == 0x16)
            peer.send(partialServerHello)
            vanish.apply(to: peer)
            #expect(runUntil { connection.recorder.closed("client") })
            Self.expectErrorClose(connection.events)
            expectFreshRunLoopConnection(engine: engine)
        }
    }

    @Test(
        "RunLoopSocket server: a partial ClientHello, then the peer is gone: an error close, never secured",
        arguments: RunLoopSocket.Engine.allCases, Vanish.allCases)
    func serverHandshake(engine: RunLoopSocket.Engine, vanish: Vanish) async throws {
        let fixture = try TLSFixture.shared()
        try await onNewThread {
            let connection = try AcceptedConnection(engine: engine)
            connection.child.startTLS(fixture.serverSettings())
            connection.child.readData(withTimeout: 10, tag: 1)
            connection.peer.send(partialClientHello)
            vanish.apply(to: connection.peer)
            #expect(runUntil { connection.recorder.closed("child1") })
            Self.expectErrorClose(connection.recorder.childEvents)
            connection.tearDown()
            expectFreshRunLoopConnection(engine: engine)
        }
    }

    @Test(
        "QueueSocket client: a partial ServerHello, then the peer is gone: an error close, never secured",
        arguments: Vanish.allCases)
    func queueClientHandshake(vanish: Vanish) throws {
        let fixture = try TLSFixture.shared()
        let connection = try QueueClientConnection()
        let recorder = connection.recorder
        connection.client.startTLS(fixture.clientSettings())
        connection.client.readData(withTimeout: 10, tag: 1)
        #expect(connection.peer.receive(count: 5).first == 0x16)
        connection.peer.send(partialServerHello)
        vanish.apply(to: connection.peer)
        #expect(recorder.wait { recorder.closed("client") })
        Self.expectErrorClose(recorder.events("client"))
        expectFreshQueueConnection()
    }

    @Test(
        "QueueSocket server: a partial ClientHello, then the peer is gone: an error close, never secured",
        arguments: Vanish.allCases)
    func queueServerHandshake(vanish: Vanish) throws {
        let fixture = try TLSFixture.shared()
        let server = try QueueServer()
        let recorder = server.recorder
        recorder.onAccept = { child in
            child.startTLS(fixture.serverSettings())
            child.readData(withTimeout: 10, tag: 1)
        }
        let peer = try RawPeer(port: server.port)
        #expect(recorder.wait { recorder.accepted.count == 1 })
        peer.send(partialClientHello)
        vanish.apply(to: peer)
        #expect(recorder.wait { recorder.closed("child1") })
        Self.expectErrorClose(recorder.events("child1"))
        server.socket.disconnect()
        expectFreshQueueConnection()
    }

    private static func expectErrorClose(
        _ events: [Recorder.Event], sourceLocation: SourceLocation = #_sourceLocation
    ) {
        #expect(!events.contains(.secured), sourceLocation: sourceLocation)
        guard events.count >= 2, case .willDisconnect(let domain, let code) = events[events.count - 2] else {
            Issue.record("no error close: \(events)", sourceLocation: sourceLocation)
            return
        }
        #expect(vanishDomains.contains(domain) && code != nil, "\(events)", sourceLocation: sourceLocation)
        #expect(events.last == .didDisconnect, sourceLocation: sourceLocation)
    }

    private static func expectErrorClose(
        _ events: [QueueRecorder.Event], sourceLocation: SourceLocation = #_sourceLocation
    ) {
        #expect(!events.contains(.secured), sourceLocation: sourceLocation)
        guard case .disconnected(let domain, let code)? = events.last else {
            Issue.record("no close: \(events)", sourceLocation: sourceLocation)
            return
        }
        #expect(
            (vanishDomains.contains(domain) || domain == "GCDAsyncSocketErrorDomain") && code != nil, "\(events)",
            sourceLocation: sourceLocation)
    }
}
