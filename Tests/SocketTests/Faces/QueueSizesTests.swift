import AsyncSocketKit
import Foundation
import SocketTestSupport
import Testing

// What a socket holds, read on every face: the peer's three lines wait in the kernel before the first
// read to a newline is queued, so that read takes them all into the prebuffer and leaves the last two
// there; two more reads (of a length nothing will complete) are then the current one and one queued.

private let lines = "one\ntwo\nthree\n"
/// What the first read to a newline leaves in the prebuffer.
private let leftOver = "two\nthree\n".utf8.count

/// The bytes waiting in the receive queue of the connected socket `fd`.
private func waiting(_ fd: Int32) -> Int {
    var count: Int32 = 0
    return ioctl(fd, UInt(FIONREAD), &count) == 0 ? Int(count) : -1
}

/// The bytes waiting in the receive queue of `socket`'s descriptor (read inside `perform`, where it answers).
private func waiting(_ socket: QueueSocket) -> Int {
    var count = -1
    socket.perform { count = waiting(socket.socketFD) }
    return count
}

@Suite("Queue sizes: the prebuffer and the read queue, as every face reports them")
struct QueueSizesTests {
    @Test(
        "RunLoopSocket: after a read to a newline, the rest waits in the prebuffer; reads current and queued are counted",
        arguments: RunLoopSocket.Engine.allCases)
    func runLoopSocket(engine: RunLoopSocket.Engine) async throws {
        try await onNewThread {
            let connection = try AcceptedConnection(engine: engine)
            defer { connection.tearDown() }
            let socket = connection.child
            #expect(socket.prebufferedBytes == 0 && socket.queuedReadCount == 0 && socket.queuedWriteCount == 0)
            connection.peer.send(lines)
            #expect(waitUntil { waiting(socket.socketFD) == lines.utf8.count })
            socket.readData(to: RunLoopSocket.lfData, withTimeout: -1, tag: 1)
            #expect(runUntil { connection.recorder.childEvents.contains(.read(Data("one\n".utf8), tag: 1)) })
            #expect(socket.prebufferedBytes == leftOver)
            socket.readData(toLength: 100, withTimeout: -1, tag: 2)
            socket.readData(toLength: 100, withTimeout: -1, tag: 3)
            #expect(socket.queuedReadCount == 2)
        }
    }

    @Test(
        "QueueSocket: after a read to a newline, the rest waits in the prebuffer; reads current and queued are counted")
    func queueSocket() throws {
        let pair = try QueuePair()
        defer { pair.tearDown() }
        #expect(pair.child.prebufferedBytes == 0 && pair.child.queuedReadCount == 0)
        pair.client.write(Data(lines.utf8), withTimeout: -1, tag: 9)
        #expect(waitUntil { waiting(pair.child) == lines.utf8.count })
        pair.child.readData(to: Data("\n".utf8), withTimeout: -1, tag: 1)
        #expect(pair.recorder.wait { pair.recorder.events("child1").contains(.read(Data("one\n".utf8), tag: 1)) })
        #expect(pair.child.prebufferedBytes == leftOver)
        pair.child.readData(toLength: 100, withTimeout: -1, tag: 2)
        pair.child.readData(toLength: 100, withTimeout: -1, tag: 3)
        #expect(pair.child.queuedReadCount == 2)
    }

    @Test("AsyncSocketConnection: after read(through:), the rest waits in the prebuffer")
    func asyncConnection() async throws {
        try await onNewThread {
            let (_, peer, server) = try await asyncRawPair()
            peer.send(lines)
            #expect(waitUntil { waiting(server.socket) == lines.utf8.count })
            let line = try await within { try await server.read(through: Data("\n".utf8)) }
            #expect(text(line) == "one\n")
            #expect(server.prebufferedBytes == leftOver && server.queuedReadCount == 0)
            #expect(server.queuedWriteBytes == 0 && server.queuedWriteCount == 0 && server.isWritable)
        }
    }
}
