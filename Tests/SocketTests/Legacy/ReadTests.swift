import AsyncSocketKit
import Foundation
import SocketTestSupport
import Testing

@Suite("RunLoopSocket: reads over loopback")
struct SocketReadTests {
    @Test(
        "a read never completes inside the call that queued it, even with the bytes already there",
        arguments: RunLoopSocket.Engine.allCases)
    func neverInline(engine: RunLoopSocket.Engine) async throws {
        try await onNewThread {
            let connection = try ClientConnection(engine: engine)
            connection.peer.send("ready")
            // The bytes are in the client's kernel buffer before the read is queued (no read takes them).
            #expect(runUntil { kernelPending(connection.client.socketFD) == bytes("ready") })
            connection.client.readData(toLength: 5, withTimeout: -1, tag: 1)
            #expect(connection.events.isEmpty)
            #expect(runUntil { !connection.events.isEmpty })
            #expect(connection.events == [.read(Data("ready".utf8), tag: 1)])
            connection.client.disconnect()
        }
    }

    @Test(
        "reads queued before connect are dropped; those queued after it are kept",
        arguments: RunLoopSocket.Engine.allCases)
    func queuedBeforeConnect(engine: RunLoopSocket.Engine) async throws {
        try await onNewThread {
            let recorder = Recorder()
            let listener = try RawListener()
            let client = RunLoopSocket(delegate: recorder, engine: engine)
            recorder.name(client, "client")
            client.readData(toLength: 1, withTimeout: -1, tag: 1)
            client.write(Data("lost".utf8), withTimeout: -1, tag: 2)
            try client.connectToAddress(loopbackAddress(port: listener.port))
            client.readData(toLength: 2, withTimeout: -1, tag: 3)
            let peer = try #require(listener.accept())
            peer.send("ab")
            #expect(runUntil { recorder.events("client").contains(.read(Data("ab".utf8), tag: 3)) })
            #expect(
                recorder.events("client").filter { if case .read = $0 { return true } else { return false } }.count == 1
            )
            #expect(peer.receive(count: 4, timeout: 0.2).isEmpty)
            client.disconnect()
        }
    }

    @Test(
        "read-to-data without prebuffering leaves the following bytes in the kernel; with it they are read ahead",
        arguments: RunLoopSocket.Engine.allCases)
    func prebufferingOnAndOff(engine: RunLoopSocket.Engine) async throws {
        try await onNewThread {
            for preBuffering in [false, true] {
                let connection = try ClientConnection(preBuffering: preBuffering, engine: engine)
                connection.peer.send("line\nrest of the stream")
                connection.client.readData(to: RunLoopSocket.lfData, withTimeout: -1, tag: 1)
                #expect(runUntil { !connection.events.isEmpty })
                #expect(connection.events == [.read(Data("line\n".utf8), tag: 1)])
                let pending = kernelPending(connection.client.socketFD)
                #expect(pending == (preBuffering ? [] : bytes("rest of the stream")))
                connection.client.readData(withTimeout: -1, tag: 2)
                #expect(runUntil { connection.events.count == 2 })
                #expect(connection.events.last == .read(Data("rest of the stream".utf8), tag: 2))
                connection.client.disconnect()
            }
        }
    }

    @Test(
        "a separator straddling 256-byte boundaries and separate packets is found",
        arguments: RunLoopSocket.Engine.allCases)
    func straddlingSeparator(engine: RunLoopSocket.Engine) async throws {
        try await onNewThread {
            let connection = try ClientConnection(engine: engine)
            let line = Array(repeating: UInt8(ascii: "x"), count: 255) + bytes("\r\n")
            connection.client.readData(to: RunLoopSocket.crlfData, withTimeout: -1, tag: 1)
            connection.peer.send(Array(line[0..<256]))
            #expect(runUntil { connection.events == [.partialRead(256, tag: 1)] })
            connection.peer.send(Array(line[256...]))
            #expect(runUntil { connection.events.count == 2 })
            #expect(connection.events == [.partialRead(256, tag: 1), .read(Data(line), tag: 1)])
            connection.client.disconnect()
        }
    }

    @Test(
        "maxLength: an exact hit succeeds; otherwise the partial report, then willDisconnect(3), with unreadData",
        arguments: RunLoopSocket.Engine.allCases)
    func maxLength(engine: RunLoopSocket.Engine) async throws {
        try await onNewThread {
            let connection = try ClientConnection(engine: engine)
            connection.client.readData(to: RunLoopSocket.lfData, withTimeout: -1, maxLength: 4, tag: 1)
            connection.client.readData(to: RunLoopSocket.lfData, withTimeout: -1, maxLength: 4, tag: 2)
            connection.peer.send("abc\nlonger than four\n")
            #expect(runUntil { connection.events.contains(.didDisconnect) })
            #expect(
                connection.events == [
                    .read(Data("abc\n".utf8), tag: 1), .partialRead(4, tag: 2),
                    .willDisconnect(domain: "AsyncSocketErrorDomain", code: 3), .didDisconnect,
                ])
            #expect(connection.recorder.unread["client"] == Data("longer than four\n".utf8))
        }
    }

    @Test(
        "reads of every kind are served FIFO; partial reports count this pass's bytes",
        arguments: RunLoopSocket.Engine.allCases)
    func mixedKinds(engine: RunLoopSocket.Engine) async throws {
        try await onNewThread {
            let connection = try ClientConnection(engine: engine)
            let client = connection.client
            client.readData(toLength: 4, withTimeout: -1, tag: 1)
            client.readData(to: Data(";".utf8), withTimeout: -1, tag: 2)
            client.readData(withTimeout: -1, tag: 3)
            connection.peer.send("AB")
            #expect(runUntil { connection.events.count == 1 })
            connection.peer.send("CDef;ghi")
            #expect(runUntil { connection.events.count == 4 })
            #expect(
                connection.events == [
                    .partialRead(2, tag: 1), .read(Data("ABCD".utf8), tag: 1), .read(Data("ef;".utf8), tag: 2),
                    .read(Data("ghi".utf8), tag: 3),
                ])
            client.disconnect()
        }
    }

    @Test(
        "a caller buffer gets the bytes at its offset and is trimmed back; progress values while reading",
        arguments: RunLoopSocket.Engine.allCases)
    func callerBufferAndProgress(engine: RunLoopSocket.Engine) async throws {
        try await onNewThread {
            let connection = try ClientConnection(engine: engine)
            let client = connection.client
            #expect(client.readProgress.fraction.isNaN)
            let buffer = NSMutableData(data: Data("head:".utf8))
            client.readData(toLength: 8, withTimeout: -1, buffer: buffer, bufferOffset: 5, tag: 4)
            connection.peer.send("1234")
            #expect(runUntil { !connection.events.isEmpty })
            var tag = 0
            var done = 0
            var total = 0
            #expect(client.progressOfRead(returningTag: &tag, bytesDone: &done, total: &total) == 0.5)
            #expect((tag, done, total) == (4, 4, 8))
            connection.peer.send("5678")
            #expect(runUntil { connection.events.count == 2 })
            #expect(Data(buffer) == Data("head:12345678".utf8))
            #expect(connection.events.last == .read(Data("12345678".utf8), tag: 4))
            client.readData(to: Data(";".utf8), withTimeout: -1, tag: 5)
            // It becomes the current read on a later pass: then its progress (no length) is 1.0.
            #expect(runUntil { client.readProgress.fraction == 1.0 })
            client.disconnect()
        }
    }
}
