import AsyncSocketKit
import Foundation
import Testing

/// What a delegate saw of its socket's getters inside one callback.
struct GetterSnapshot: Equatable, CustomStringConvertible {
    let socketFD: Int32
    let descriptorIsSocket: Bool
    let connectedHost: String?
    let connectedPort: UInt16
    let localHost: String?
    let localPort: UInt16
    let hasAddresses: Bool

    init(_ sock: RunLoopSocket) {
        socketFD = sock.socketFD
        var type: Int32 = 0
        var length = socklen_t(MemoryLayout<Int32>.size)
        descriptorIsSocket = socketFD >= 0 && getsockopt(socketFD, SOL_SOCKET, SO_TYPE, &type, &length) == 0
        connectedHost = sock.connectedHost
        connectedPort = sock.connectedPort
        localHost = sock.localHost
        localPort = sock.localPort
        hasAddresses = sock.connectedAddress != nil && sock.localAddress != nil
    }

    var description: String {
        "fd \(socketFD) (socket: \(descriptorIsSocket)) \(connectedHost ?? "nil"):\(connectedPort) "
            + "local \(localHost ?? "nil"):\(localPort) addresses: \(hasAddresses)"
    }
}

/// The ways a connection ends with willDisconnect.
enum ErrorEnding: String, CaseIterable, CustomStringConvertible, Sendable {
    case peerCloses, readTimeout, peerResets
    var description: String { rawValue }
}

@Suite("RunLoopSocket: both engines answer the same, callback by callback")
struct EngineAgreementTests {
    static let errorCases = RunLoopSocket.Engine.allCases.flatMap { engine in
        ErrorEnding.allCases.map { (engine, $0) }
    }

    @Test(
        "inside willDisconnect the socket is still open: descriptor, hosts, ports and addresses answer",
        arguments: errorCases)
    func gettersInWillDisconnect(engine: RunLoopSocket.Engine, ending: ErrorEnding) async throws {
        try await onNewThread {
            let connection = try ClientConnection(engine: engine)
            let client = connection.client
            let atConnect = GetterSnapshot(client)
            var inWillDisconnect: GetterSnapshot?
            var afterDisconnect: GetterSnapshot?
            connection.recorder.onWillDisconnect = { inWillDisconnect = GetterSnapshot($0) }
            connection.recorder.onDisconnect = { afterDisconnect = GetterSnapshot($0) }
            switch ending {
            case .peerCloses:
                client.readData(withTimeout: -1, tag: 1)
                connection.peer.shutdownWrite()
            case .readTimeout:
                client.readData(toLength: 5, withTimeout: 0.05, tag: 1)
            case .peerResets:
                client.readData(withTimeout: -1, tag: 1)
                connection.peer.reset()
            }
            #expect(runUntil { connection.events.contains(.didDisconnect) })
            #expect(atConnect.descriptorIsSocket && atConnect.hasAddresses, "\(atConnect)")
            let seen = inWillDisconnect.map { "\($0)" } ?? "not called"
            #expect(inWillDisconnect == atConnect, "at connect: \(atConnect); in willDisconnect: \(seen)")
            #expect(afterDisconnect?.socketFD == -1)
            #expect(afterDisconnect?.connectedHost == nil && afterDisconnect?.connectedPort == 0)
        }
    }

    @Test(
        "socketFD in onSocketWillConnect: the descriptor for a connect by address, -1 for one by name (no socket exists before the name is resolved)",
        arguments: RunLoopSocket.Engine.allCases)
    func socketFDInWillConnect(engine: RunLoopSocket.Engine) async throws {
        try await onNewThread {
            let listener = try RawListener()
            for byAddress in [true, false] {
                let recorder = Recorder()
                let client = RunLoopSocket(delegate: recorder, engine: engine)
                recorder.name(client, "client")
                var inWillConnect: GetterSnapshot?
                recorder.onWillConnect = { inWillConnect = GetterSnapshot($0) }
                if byAddress {
                    try client.connectToAddress(loopbackAddress(port: listener.port))
                } else {
                    try client.connectToHost("127.0.0.1", onPort: listener.port)
                }
                #expect(runUntil { client.isConnected })
                let peer = listener.accept()
                #expect(peer != nil)
                let snapshot = try #require(inWillConnect)
                if byAddress {
                    #expect(snapshot.descriptorIsSocket, "by address: \(snapshot)")
                    #expect(snapshot.socketFD == client.socketFD, "by address: \(snapshot)")
                } else {
                    #expect(snapshot.socketFD == -1, "by name: \(snapshot)")
                }
                #expect(snapshot.connectedHost == nil && snapshot.connectedPort == 0)
                client.disconnect()
            }
        }
    }
}

@Suite("RunLoopSocket: both engines refuse the same calls the same way")
struct EngineRefusalTests {
    @Test(
        "a read or write queued inside willDisconnect is refused: no callback for it, a debug line says why",
        arguments: RunLoopSocket.Engine.allCases)
    func queuedInWillDisconnect(engine: RunLoopSocket.Engine) async throws {
        let capture = LogCapture()
        try await onNewThread {
            let recorder = Recorder()
            let listener = try RawListener()
            let client = RunLoopSocket(delegate: recorder, engine: engine, logger: capture.logger)
            recorder.name(client, "client")
            try client.connectToAddress(loopbackAddress(port: listener.port))
            #expect(runUntil { client.isConnected })
            let peer = try #require(listener.accept())
            recorder.onWillDisconnect = { sock in
                sock.readData(toLength: 1, withTimeout: 1, tag: 7)
                sock.write(Data("late".utf8), withTimeout: 1, tag: 8)
            }
            client.readData(toLength: 10, withTimeout: -1, tag: 1)
            peer.send("ab")
            peer.shutdownWrite()
            #expect(runUntil { recorder.events("client").contains(.didDisconnect) })
            // A new connection of the same socket starts with empty queues.
            let listener2 = try RawListener()
            try client.connectToAddress(loopbackAddress(port: listener2.port))
            #expect(runUntil { client.isConnected })
            let peer2 = try #require(listener2.accept())
            peer2.send("x")
            #expect(peer2.receive(count: 4, timeout: 0.2).isEmpty)
            let events = recorder.events("client").filter { event in
                switch event {
                case .read(_, 7), .wrote(8), .partialRead(_, 7), .partialWrite(_, 8): return true
                default: return false
                }
            }
            #expect(events.isEmpty, "\(recorder.events("client"))")
            client.disconnect()
        }
        let refusals = capture.messages(at: .debug).filter { $0.contains("willDisconnect") }
        #expect(refusals.count == 2, "\(capture.lines)")
    }
}

@Suite("RunLoopSocket: the accept sequence, the same on both engines")
struct AcceptSequenceAgreementTests {
    @Test(
        "a child disconnected inside didAcceptNewSocket is closed there and never reports a connect",
        arguments: RunLoopSocket.Engine.allCases)
    func childDisconnectedInDidAccept(engine: RunLoopSocket.Engine) async throws {
        try await onNewThread {
            let recorder = Recorder()
            let server = RunLoopSocket(delegate: recorder, engine: engine)
            recorder.name(server, "server")
            try server.acceptOnInterface("127.0.0.1", port: 0)
            var closedInCallback = false
            recorder.onAccept = { _, child in
                guard recorder.label(child) == "child1" else { return }
                child.disconnect()
                closedInCallback = !child.isConnected && child.socketFD == -1
            }
            let peer = try RawPeer(port: server.localPort)
            #expect(runUntil { peer.sawClose(timeout: 0.01) })
            #expect(closedInCallback)
            // The listener goes on: the next child connects as usual.
            let second = try RawPeer(port: server.localPort)
            #expect(runUntil { recorder.events("child2").contains { if case .connected = $0 { true } else { false } } })
            #expect(
                !recorder.events("child1").contains { event in
                    if case .connected = event { return true }
                    return event == .willConnect || event == .wantsRunLoop("child1")
                }, "\(recorder.events("child1"))")
            #expect(recorder.events("child1") == [.didDisconnect], "\(recorder.trace)")
            withExtendedLifetime(second) {}
            server.disconnect()
            for socket in recorder.accepted { socket.disconnect() }
        }
    }
}
