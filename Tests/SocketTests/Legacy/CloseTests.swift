import AsyncSocketKit
import Foundation
import SocketTestSupport
import Testing

@Suite("RunLoopSocket: close paths")
struct CloseTests {
    @Test(
        "disconnect() reports didDisconnect before it returns, never willDisconnect; twice reports once",
        arguments: RunLoopSocket.Engine.allCases)
    func userDisconnect(engine: RunLoopSocket.Engine) async throws {
        try await onNewThread {
            let connection = try ClientConnection(engine: engine)
            connection.client.readData(toLength: 10, withTimeout: -1, tag: 1)
            connection.client.disconnect()
            #expect(connection.events == [.didDisconnect])
            connection.client.disconnect()
            #expect(connection.events == [.didDisconnect])
            #expect(connection.peer.sawClose())
            let neverStarted = RunLoopSocket(delegate: connection.recorder, engine: engine)
            connection.recorder.name(neverStarted, "idle")
            neverStarted.disconnect()
            #expect(connection.recorder.events("idle").isEmpty)
        }
    }

    @Test(
        "the peer's clean close: willDisconnect(nil), then didDisconnect; unreadData has the peer's last bytes",
        arguments: RunLoopSocket.Engine.allCases)
    func remoteCleanClose(engine: RunLoopSocket.Engine) async throws {
        try await onNewThread {
            let connection = try ClientConnection(engine: engine)
            connection.client.readData(toLength: 100, withTimeout: -1, tag: 1)
            connection.peer.send("last words")
            connection.peer.shutdownWrite()
            #expect(runUntil { connection.events.contains(.didDisconnect) })
            #expect(
                connection.events == [
                    .partialRead(10, tag: 1), .willDisconnect(domain: nil, code: nil), .didDisconnect,
                ])
            #expect(connection.recorder.unread["client"] == Data("last words".utf8))
        }
    }

    @Test(
        "the peer's close is noticed with no read queued, and its unread bytes are not lost",
        arguments: RunLoopSocket.Engine.allCases)
    func remoteCloseWithoutRead(engine: RunLoopSocket.Engine) async throws {
        try await onNewThread {
            let connection = try ClientConnection(engine: engine)
            connection.peer.send("unasked")
            connection.peer.shutdownWrite()
            #expect(runUntil { connection.events.contains(.didDisconnect) })
            #expect(connection.events == [.willDisconnect(domain: nil, code: nil), .didDisconnect])
            #expect(connection.recorder.unread["client"] == Data("unasked".utf8))
        }
    }

    @Test(
        "a peer reset mid-read: willDisconnect with the POSIX error, then didDisconnect",
        arguments: RunLoopSocket.Engine.allCases)
    func peerReset(engine: RunLoopSocket.Engine) async throws {
        try await onNewThread {
            let connection = try ClientConnection(engine: engine)
            connection.client.readData(toLength: 100, withTimeout: -1, tag: 1)
            connection.peer.reset()
            #expect(runUntil { connection.events.contains(.didDisconnect) })
            #expect(
                connection.events == [
                    .willDisconnect(domain: NSPOSIXErrorDomain, code: Int(ECONNRESET)), .didDisconnect,
                ])
        }
    }

    @Test(
        "bytes, then a reset, while a read waits: the bytes are the read's (unreadData), then ECONNRESET",
        arguments: RunLoopSocket.Engine.allCases)
    func bytesThenReset(engine: RunLoopSocket.Engine) async throws {
        try await onNewThread {
            let connection = try ClientConnection(engine: engine)
            connection.client.readData(to: RunLoopSocket.crlfData, withTimeout: 5, tag: 1)
            connection.peer.send("PO")
            connection.peer.reset()
            #expect(runUntil { connection.events.contains(.didDisconnect) })
            #expect(
                Array(connection.events.suffix(2)) == [
                    .willDisconnect(domain: NSPOSIXErrorDomain, code: Int(ECONNRESET)), .didDisconnect,
                ])
            #expect(connection.recorder.unread["client"] == Data("PO".utf8))
        }
    }

    // `copied`: another descriptor refers to the listening socket meanwhile, as a child process this
    // one starts holds one until its exec (in CI, a test starting programs alongside made the re-bind
    // fail with EADDRINUSE).
    @Test(
        "the listening port is free when the listener's didDisconnect runs, even while another descriptor refers to the listening socket",
        arguments: RunLoopSocket.Engine.allCases, [false, true])
    func listenerPortReleased(engine: RunLoopSocket.Engine, copied: Bool) async throws {
        try await onNewThread {
            let recorder = Recorder()
            let server = RunLoopSocket(delegate: recorder, engine: engine)
            let port = try listenBelowEphemeralRange { try server.acceptOnInterface("127.0.0.1", port: $0) }
            let copy = copied ? dup(server.socket4FD) : -1
            defer {
                if copy >= 0 { close(copy) }
            }
            #expect(!copied || copy >= 0)
            var rebindFailure: String? = "didDisconnect did not run"
            recorder.onDisconnect = { sock in
                guard sock === server else { return }
                let again = RunLoopSocket(delegate: recorder, engine: engine)
                do {
                    try again.acceptOnInterface("127.0.0.1", port: port)
                    rebindFailure = nil
                } catch {
                    rebindFailure = "\(error)"
                }
                again.disconnect()
            }
            server.disconnect()
            #expect(rebindFailure == nil)
        }
    }

    @Test(
        "disconnectAfterReading: waits for the reads, drops the writes; later reads are ignored",
        arguments: RunLoopSocket.Engine.allCases)
    func afterReading(engine: RunLoopSocket.Engine) async throws {
        try await onNewThread {
            let connection = try ClientConnection(engine: engine)
            let client = connection.client
            client.readData(toLength: 3, withTimeout: -1, tag: 1)
            client.disconnectAfterReading()
            client.readData(toLength: 1, withTimeout: -1, tag: 2)
            client.write(Data("ignored".utf8), withTimeout: -1, tag: 3)
            #expect(client.isConnected)
            connection.peer.send("abcd")
            #expect(runUntil { connection.events.contains(.didDisconnect) })
            #expect(connection.events == [.read(Data("abc".utf8), tag: 1), .didDisconnect])
        }
    }

    @Test("disconnectAfterWriting: waits for the writes, drops pending reads", arguments: RunLoopSocket.Engine.allCases)
    func afterWriting(engine: RunLoopSocket.Engine) async throws {
        try await onNewThread {
            let connection = try ClientConnection(engine: engine)
            let client = connection.client
            client.readData(toLength: 3, withTimeout: -1, tag: 1)
            client.write(Data("bye".utf8), withTimeout: -1, tag: 2)
            client.disconnectAfterWriting()
            #expect(runUntil { connection.events.contains(.didDisconnect) })
            #expect(connection.events == [.wrote(tag: 2), .didDisconnect])
            #expect(connection.peer.receive(count: 3) == bytes("bye"))
        }
    }

    @Test(
        "several writes of one pass, then disconnectAfterWriting: all go out in order before the close",
        arguments: RunLoopSocket.Engine.allCases)
    func afterWritingSeveral(engine: RunLoopSocket.Engine) async throws {
        try await onNewThread {
            let connection = try ClientConnection(engine: engine)
            let client = connection.client
            for (tag, word) in ["one ", "two ", "three"].enumerated() {
                client.write(Data(word.utf8), withTimeout: -1, tag: tag)
            }
            // The writes after the first of a pass may still wait on the loop (queue core): the
            // disconnect-after rule must count them all the same.
            client.disconnectAfterWriting()
            client.write(Data("ignored".utf8), withTimeout: -1, tag: 9)
            #expect(runUntil { connection.events.contains(.didDisconnect) })
            #expect(connection.events == [.wrote(tag: 0), .wrote(tag: 1), .wrote(tag: 2), .didDisconnect])
            #expect(connection.peer.receive(count: 13) == bytes("one two three"))
            #expect(connection.peer.receive(count: 1).isEmpty)
        }
    }

    @Test(
        "writes of one pass that have not gone out yet make canSafelySetDelegate false",
        arguments: RunLoopSocket.Engine.allCases)
    func writesOfOnePassCount(engine: RunLoopSocket.Engine) async throws {
        try await onNewThread {
            let connection = try ClientConnection(engine: engine)
            let client = connection.client
            client.write(Data("one ".utf8), withTimeout: -1, tag: 0)
            #expect(runUntil { connection.events == [.wrote(tag: 0)] })
            #expect(client.canSafelySetDelegate)
            client.write(Data("two ".utf8), withTimeout: -1, tag: 1)
            client.write(Data("three".utf8), withTimeout: -1, tag: 2)
            #expect(!client.canSafelySetDelegate)
            #expect(runUntil { connection.events.count == 3 })
            #expect(connection.events == [.wrote(tag: 0), .wrote(tag: 1), .wrote(tag: 2)])
            #expect(connection.peer.receive(count: 13) == bytes("one two three"))
        }
    }

    @Test(
        "disconnectAfterReadingAndWriting waits for both; when idle it disconnects on the next pass, not inline",
        arguments: RunLoopSocket.Engine.allCases)
    func afterBoth(engine: RunLoopSocket.Engine) async throws {
        try await onNewThread {
            let connection = try ClientConnection(engine: engine)
            let client = connection.client
            client.disconnectAfterReadingAndWriting()
            #expect(connection.events.isEmpty)
            #expect(runUntil { connection.events == [.didDisconnect] })

            let second = try ClientConnection(engine: engine)
            second.client.readData(toLength: 2, withTimeout: -1, tag: 1)
            second.client.write(Data("xy".utf8), withTimeout: -1, tag: 2)
            second.client.disconnectAfterReadingAndWriting()
            #expect(runUntil { second.events.contains(.wrote(tag: 2)) })
            #expect(second.client.isConnected)
            second.peer.send("ab")
            #expect(runUntil { second.events.contains(.didDisconnect) })
            #expect(second.events == [.wrote(tag: 2), .read(Data("ab".utf8), tag: 1), .didDisconnect])
        }
    }

    @Test("unreadData is nil outside willDisconnect", arguments: RunLoopSocket.Engine.allCases)
    func unreadDataOutside(engine: RunLoopSocket.Engine) async throws {
        try await onNewThread {
            let connection = try ClientConnection(engine: engine)
            #expect(connection.client.unreadData() == nil)
            connection.client.disconnect()
            #expect(connection.client.unreadData() == nil)
        }
    }
}
