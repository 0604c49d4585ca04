import AsyncSocketKit
import AsyncSocketTesting
import Foundation
import SocketTestSupport
import Testing

// AsyncSocketTesting's embedded connection drives a real RunLoopSocket (its public API, a real
// delegate) through the connection driver, with the peer and the clock played by the test. These
// tests check what it promises: the delegate's calls and their order, virtual time, back-pressure,
// TLS played by the peer, misuse answered with errors, and — side by side with a loopback
// connection — the same trace as the native engine for the same script.

/// A recorder (given `script` before the connect) and an embedded connection to 127.0.0.1:7,
/// connected (its connect passes have run).
private func connectedClient(script: (Recorder) -> Void = { _ in }) throws -> (Recorder, EmbeddedConnection) {
    let recorder = Recorder()
    script(recorder)
    let connection = EmbeddedConnection(delegate: recorder)
    recorder.name(connection.socket, "client")
    try connection.socket.connectToHost("127.0.0.1", onPort: 7)
    connection.runPendingPasses()
    return (recorder, connection)
}

/// A line-echo delegate script: read a line, answer it with "<line>!", read the next.
private func echoLines(_ recorder: Recorder) {
    recorder.onConnect = { socket in
        socket.readData(to: RunLoopSocket.crlfData, withTimeout: -1, tag: 0)
    }
    recorder.onRead = { socket, data, tag in
        socket.write(data.dropLast(2) + Data("!\r\n".utf8), withTimeout: -1, tag: tag)
        socket.readData(to: RunLoopSocket.crlfData, withTimeout: -1, tag: tag + 1)
    }
}

@Suite("AsyncSocketTesting: EmbeddedConnection")
struct EmbeddedConnectionTests {
    @Test("connect: willConnect inside the call, didConnectToHost on the next pass")
    func connectSequence() throws {
        let recorder = Recorder()
        let connection = EmbeddedConnection(delegate: recorder)
        recorder.name(connection.socket, "client")
        try connection.socket.connectToHost("example.com", onPort: 7)
        #expect(recorder.events("client") == [.willConnect])
        #expect(!connection.socket.isConnected)
        connection.runPendingPasses()
        #expect(recorder.events("client") == [.willConnect, .connected(host: "example.com", port: 7)])
        #expect(connection.socket.isConnected)
        #expect(connection.socket.socketFD == -1)
    }

    @Test("a line protocol: reads to CRLF, replies, and the peer's close with unread bytes")
    func lineEcho() throws {
        let (recorder, connection) = try connectedClient(script: echoLines)
        try connection.send("one\r\ntwo\r\nthr")
        #expect(try connection.takeReceived() == Data("one!\r\ntwo!\r\n".utf8))
        try connection.closeFromPeer()
        #expect(
            recorder.events("client").dropFirst(2) == [
                .read(Data("one\r\n".utf8), tag: 0), .read(Data("two\r\n".utf8), tag: 1), .partialRead(3, tag: 2),
                .wrote(tag: 0), .wrote(tag: 1), .willDisconnect(domain: nil, code: nil), .didDisconnect,
            ])
        #expect(recorder.unread["client"] == Data("thr".utf8))
        #expect(!connection.socket.isConnected)
    }

    @Test(
        "the same script gives the same trace as a loopback connection on the native engine",
        arguments: [["one\r\n", "two\r\nthr"], ["one\r\ntwo\r\nthr"], ["o", "ne\r\ntw", "o\r\n", "thr"]])
    func agreesWithLoopback(script: [String]) async throws {
        // The embedded run first; how many events each chunk led to tells the loopback run when a
        // chunk has been taken in full before the next is sent (so the kernel does not merge them).
        let (embedded, checkpoints) = try await onNewThread { () -> ([Recorder.Event], [Int]) in
            let (recorder, connection) = try connectedClient(script: echoLines)
            var checkpoints: [Int] = []
            for chunk in script {
                try connection.send(chunk)
                checkpoints.append(recorder.events("client").count - 2)
            }
            try connection.closeFromPeer()
            return (Array(recorder.events("client").dropFirst(2)), checkpoints)
        }
        let loopback = try await onNewThread { () -> [Recorder.Event] in
            let recorder = Recorder()
            echoLines(recorder)
            // onConnect queues the first read while the connection comes up.
            let connection = try ClientConnection(recorder: recorder)
            for (chunk, checkpoint) in zip(script, checkpoints) {
                connection.peer.send(chunk)
                #expect(runUntil { connection.events.count >= checkpoint })
            }
            connection.peer.shutdownWrite()
            #expect(runUntil { connection.events.last == .didDisconnect })
            return connection.events
        }
        #expect(embedded == loopback)
    }

    @Test("read timeouts run on the virtual clock; an extension moves the deadline")
    func readTimeout() throws {
        let (recorder, connection) = try connectedClient()
        recorder.readTimeoutAnswers = [3]
        connection.socket.readData(toLength: 4, withTimeout: 5, tag: 9)
        connection.runPendingPasses()
        try connection.send("ab")
        connection.advance(by: 4.9)
        #expect(recorder.events("client").last == .partialRead(2, tag: 9))
        connection.advance(by: 0.1)
        #expect(recorder.events("client").last == .readTimeout(tag: 9, elapsed: 5, bytesDone: 2))
        connection.advance(by: 2.9)
        #expect(recorder.events("client").last == .readTimeout(tag: 9, elapsed: 5, bytesDone: 2))
        connection.advance(by: 0.1)
        let timedOut = AsyncSocketError(.readTimeout) as NSError
        #expect(
            recorder.events("client").suffix(3) == [
                .readTimeout(tag: 9, elapsed: 8, bytesDone: 2),
                .willDisconnect(domain: timedOut.domain, code: timedOut.code), .didDisconnect,
            ])
        #expect(recorder.unread["client"] == Data("ab".utf8))
        #expect(connection.now == 8)
    }

    @Test("a reset closes with the POSIX error")
    func reset() throws {
        let (recorder, connection) = try connectedClient()
        try connection.resetFromPeer()
        #expect(
            recorder.events("client").suffix(2) == [
                .willDisconnect(domain: NSPOSIXErrorDomain, code: Int(ECONNRESET)), .didDisconnect,
            ])
    }

    @Test("a limited send buffer: a partial write, then its completion once the peer reads")
    func backPressure() throws {
        let (recorder, connection) = try connectedClient()
        try connection.limitSending(to: 2)
        connection.socket.write(Data("hello".utf8), withTimeout: -1, tag: 1)
        connection.runPendingPasses()
        #expect(recorder.events("client").last == .partialWrite(2, tag: 1))
        #expect(try connection.takeReceived() == Data("he".utf8))
        try connection.peerReads(3)
        #expect(recorder.events("client").last == .wrote(tag: 1))
        #expect(try connection.takeReceived() == Data("llo".utf8))
    }

    @Test("startTLS waits for the peer's handshake; reads behind the marker run after didSecure")
    func tlsPlayedByThePeer() throws {
        let (recorder, connection) = try connectedClient()
        connection.socket.startTLS(nil)
        connection.socket.readData(toLength: 2, withTimeout: -1, tag: 4)
        try connection.send("ok")
        #expect(!connection.socket.isSecure)
        #expect(recorder.events("client").last == .connected(host: "127.0.0.1", port: 7))
        try connection.finishHandshake()
        #expect(connection.socket.isSecure)
        #expect(recorder.events("client").suffix(2) == [.secured, .read(Data("ok".utf8), tag: 4)])
    }

    @Test("disconnectAfterWriting closes once the writes are out; a reconnect from didDisconnect works")
    func disconnectAfterAndReconnect() throws {
        let (recorder, connection) = try connectedClient()
        var reconnected = false
        recorder.onDisconnect = { socket in
            guard !reconnected else { return }
            reconnected = true
            #expect(throws: Never.self) { try socket.connectToHost("127.0.0.2", onPort: 8) }
        }
        connection.socket.write(Data("bye".utf8), withTimeout: -1, tag: 1)
        connection.socket.disconnectAfterWriting()
        connection.runPendingPasses()
        #expect(
            recorder.events("client").suffix(4) == [
                .wrote(tag: 1), .didDisconnect, .willConnect, .connected(host: "127.0.0.2", port: 8),
            ])
        #expect(connection.socket.isConnected)
    }

    @Test("misuse: listening, peer actions before a connect, a connect without a delegate or refused")
    func misuse() throws {
        let recorder = Recorder()
        let connection = EmbeddedConnection(delegate: recorder)
        recorder.name(connection.socket, "client")
        #expect(throws: AsyncSocketUsageError.self) { try connection.socket.acceptOnPort(0) }
        #expect(throws: EmbeddedConnection.PeerError.notConnected) { try connection.send("x") }
        #expect(throws: EmbeddedConnection.PeerError.notConnected) { try connection.takeReceived() }
        #expect(!connection.socket.moveToRunLoop(EventRunLoop.current))

        recorder.willConnectAnswer = false
        #expect(throws: AsyncSocketError(.canceled)) { try connection.socket.connectToHost("a", onPort: 1) }

        let orphan = EmbeddedConnection(delegate: nil)
        #expect(throws: AsyncSocketUsageError.self) { try orphan.socket.connectToHost("a", onPort: 1) }
    }
}
