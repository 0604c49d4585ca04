import AsyncSocketKit
import Foundation
import SocketTestSupport
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
            var connectedInWillDisconnect: Bool?
            connection.recorder.onWillDisconnect = {
                inWillDisconnect = GetterSnapshot($0)
                connectedInWillDisconnect = $0.isConnected
            }
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
            // The original's isConnected: both streams there and not at their end (a clean close is).
            #expect(connectedInWillDisconnect == (ending != .peerCloses), "\(ending)")
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

/// The getters in one callback, with descriptors reduced to what they name (so two engines' runs
/// compare): the connection's descriptor, another socket, or none.
struct NormalizedGetters: Equatable, CustomStringConvertible {
    let callback: String
    let fd: String
    let fd4: String
    let fd6: String
    let isIPv4: Bool
    let isIPv6: Bool
    let connected: Bool
    let peer: String
    let local: Bool

    init(_ callback: String, _ sock: RunLoopSocket, connectionFD: Int32) {
        func name(_ fd: Int32) -> String { fd < 0 ? "none" : fd == connectionFD ? "connection" : "other" }
        self.callback = callback
        fd = name(sock.socketFD)
        fd4 = name(sock.socket4FD)
        fd6 = name(sock.socket6FD)
        isIPv4 = sock.isIPv4
        isIPv6 = sock.isIPv6
        connected = sock.isConnected
        peer = sock.connectedHost.map { "\($0):\(sock.connectedPort == 0 ? "0" : "port")" } ?? "nil"
        local = sock.localAddress != nil
    }

    var description: String {
        "\(callback): fd \(fd) v4 \(fd4) v6 \(fd6) isIPv4 \(isIPv4) isIPv6 \(isIPv6) connected \(connected) "
            + "peer \(peer) local \(local)"
    }
}

@Suite("RunLoopSocket: the getters in every callback, the same on both engines")
struct GettersInEveryCallbackTests {
    /// A connect by address, a line read, the peer's close; the getters in each callback.
    private func trace(_ engine: RunLoopSocket.Engine) throws -> [NormalizedGetters] {
        let recorder = Recorder()
        let listener = try RawListener()
        let client = RunLoopSocket(delegate: recorder, engine: engine)
        recorder.name(client, "client")
        var seen: [(String, RunLoopSocket)] = []
        var snapshots: [NormalizedGetters] = []
        var connectionFD: Int32 = -1
        func take(_ callback: String, _ sock: RunLoopSocket) {
            if connectionFD < 0, sock.socketFD >= 0 { connectionFD = sock.socketFD }
            snapshots.append(NormalizedGetters(callback, sock, connectionFD: connectionFD))
            seen.append((callback, sock))
        }
        recorder.onWillConnect = { take("willConnect", $0) }
        recorder.onConnect = { sock in
            take("didConnect", sock)
            sock.readData(to: RunLoopSocket.lfData, withTimeout: 10, tag: 1)
        }
        recorder.onRead = { sock, _, _ in
            take("didRead", sock)
            sock.readData(withTimeout: -1, tag: 2)
        }
        recorder.onWillDisconnect = { take("willDisconnect", $0) }
        recorder.onDisconnect = { take("didDisconnect", $0) }
        try client.connectToAddress(loopbackAddress(port: listener.port))
        let peer = try #require(listener.accept())
        peer.send("line\n")
        #expect(runUntil { snapshots.contains { $0.callback == "didRead" } })
        peer.shutdownWrite()
        #expect(runUntil { snapshots.contains { $0.callback == "didDisconnect" } })
        return snapshots
    }

    @Test("connect by address, read, the peer's close: socketFD, socket4FD/6FD, isIPv4/6, hosts agree")
    func sameOnBothEngines() async throws {
        try await onNewThread {
            let native = try trace(.native)
            let queueCore = try trace(.queueCore)
            #expect(
                native.map(\.callback) == ["willConnect", "didConnect", "didRead", "willDisconnect", "didDisconnect"])
            #expect(
                native == queueCore,
                "native:\n\(native.map(\.description).joined(separator: "\n"))\nqueue core:\n\(queueCore.map(\.description).joined(separator: "\n"))"
            )
            #expect(native.first?.fd == "connection" && native.last?.fd == "none")
        }
    }
}

@Suite("RunLoopSocket: both engines refuse the same calls the same way")
struct EngineRefusalTests {
    @Test(
        "a read or write queued inside willDisconnect is refused: no callback for it, a warning says why",
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
        let refusals = capture.lines.filter { $0.level == .warning && $0.message.contains("willDisconnect") }
        #expect(refusals.count == 2, "\(capture.lines)")
        #expect(refusals.allSatisfy { $0.metadata["face"] == "RunLoopSocket" && $0.metadata["socket"] != nil })
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
