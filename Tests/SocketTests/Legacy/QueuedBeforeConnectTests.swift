import AsyncSocketKit
import Foundation
import SocketTestSupport
import Testing

/// How the connect is made. The original dequeued work queued meanwhile differently for each (a
/// connect by name had its streams at once, so a read's timeout started while still connecting);
/// both engines start it once connected, for both — a deliberate difference, in Migration/README.md.
enum PendingConnect: String, CaseIterable, CustomStringConvertible, Sendable {
    /// By name, the name server never answering.
    case byNameUnanswered
    /// By address, to a full backlog (the SYN is dropped).
    case byAddressFullBacklog
    var description: String { rawValue }
}

@Suite("RunLoopSocket: reads, writes and startTLS queued while the connect is under way")
struct QueuedBeforeConnectTests {
    static let cases = RunLoopSocket.Engine.allCases.flatMap { engine in
        PendingConnect.allCases.map { (engine, $0) }
    }

    @Test(
        "a read queued while connecting starts its timeout once connected: the connect timeout (code 2) fires first",
        arguments: cases)
    func timeoutStarts(engine: RunLoopSocket.Engine, connect: PendingConnect) async throws {
        let dns = ScriptedDNSServer(silent: true)
        defer { dns.stop() }
        let resolver = HostResolver(nameservers: [dns.address], timeout: 5)
        let backlog = try FullBacklog()
        try await onNewThread {
            let recorder = Recorder()
            let client = RunLoopSocket(delegate: recorder, engine: engine, resolver: resolver)
            recorder.name(client, "client")
            switch connect {
            case .byNameUnanswered:
                try client.connectToHost("never.test", onPort: 80, withTimeout: 0.5)
            case .byAddressFullBacklog:
                try client.connectToAddress(loopbackAddress(port: backlog.listener.port), withTimeout: 0.5)
            }
            client.readData(toLength: 4, withTimeout: 0.1, tag: 1)
            #expect(runUntil { recorder.events("client").contains(.didDisconnect) })
            let expectedCode = AsyncSocketError.Code.connectTimeout
            #expect(
                recorder.events("client") == [
                    .willConnect, .willDisconnect(domain: AsyncSocketError.errorDomain, code: expectedCode.rawValue),
                    .didDisconnect,
                ], "\(recorder.events("client"))")
        }
    }

    @Test(
        "a refused connect with a read, a write and a TLS marker queued: no callback for any of them",
        arguments: RunLoopSocket.Engine.allCases)
    func refusedDropsQueued(engine: RunLoopSocket.Engine) async throws {
        try await onNewThread {
            for byName in [true, false] {
                let recorder = Recorder()
                let client = RunLoopSocket(delegate: recorder, engine: engine)
                recorder.name(client, "client")
                if byName {
                    try client.connectToHost("127.0.0.1", onPort: unusedPort(), withTimeout: 5)
                } else {
                    try client.connectToAddress(loopbackAddress(port: unusedPort()), withTimeout: 5)
                }
                client.readData(toLength: 4, withTimeout: 5, tag: 1)
                client.write(Data("hello".utf8), withTimeout: 5, tag: 2)
                client.startTLS([kCFStreamSSLPeerName: "localhost"])
                #expect(runUntil { recorder.events("client").contains(.didDisconnect) })
                let events = recorder.events("client")
                #expect(events.count == 3 && events.first == .willConnect && events.last == .didDisconnect, "\(events)")
                if case .willDisconnect(let domain, _) = events[1] {
                    #expect(domain == (byName ? NSPOSIXErrorDomain : AsyncSocketError.errorDomain), "\(events)")
                } else {
                    Issue.record("\(events)")
                }
            }
        }
    }

    @Test(
        "work queued while connecting runs after didConnectToHost, in order: write, then the read it answers",
        arguments: RunLoopSocket.Engine.allCases)
    func orderAfterConnect(engine: RunLoopSocket.Engine) async throws {
        try await onNewThread {
            let recorder = Recorder()
            let server = RunLoopSocket(delegate: recorder, engine: engine)
            recorder.name(server, "server")
            try server.acceptOnInterface("127.0.0.1", port: 0)
            recorder.onConnect = { sock in
                guard sock !== server, recorder.label(sock).hasPrefix("child") else { return }
                sock.readData(to: RunLoopSocket.lfData, withTimeout: 5, tag: 9)
            }
            recorder.onRead = { sock, data, tag in
                if tag == 9 { sock.write(data, withTimeout: 5, tag: 10) }
            }
            let client = RunLoopSocket(delegate: recorder, engine: engine)
            recorder.name(client, "client")
            try client.connectToHost("127.0.0.1", onPort: server.localPort, withTimeout: 5)
            client.write(Data("ping\n".utf8), withTimeout: 5, tag: 1)
            client.readData(to: RunLoopSocket.lfData, withTimeout: 5, tag: 2)
            #expect(runUntil { recorder.events("client").contains(.read(Data("ping\n".utf8), tag: 2)) })
            let events = recorder.events("client")
            let connected = try #require(events.firstIndex { if case .connected = $0 { true } else { false } })
            let wrote = try #require(events.firstIndex(of: .wrote(tag: 1)))
            #expect(connected < wrote, "\(events)")
            client.disconnect()
            server.disconnect()
            for socket in recorder.accepted { socket.disconnect() }
        }
    }
}
