import AsyncSocketKit
import Foundation
import SocketTestSupport
import Testing

// Write watermarks on every face, over loopback, against a peer that reads nothing until the test lets
// it: the writer keeps writing while the socket says it is writable, so what the process holds stays
// within the high mark and one write, however long the peer does not read; once the peer reads, the
// drain is reported and every byte arrives, in order.

private let high = 64 * 1024
private let low = 16 * 1024
private let chunk = 16 * 1024
private let total = 512 * 1024

/// The bytes the writers send: each byte its offset modulo 251, so a byte out of place shows.
private let stream = Data((0..<total).map { UInt8($0 % 251) })

/// Makes the peer's receive buffer, and so what the kernel holds for it, small (32 KiB, doubled by the
/// kernel): with the writer's small send buffer, well below the high mark.
private func shrinkReceiveBuffer(_ peer: RawPeer) {
    var size: Int32 = 16 * 1024
    _ = setsockopt(peer.fd, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
}

/// Reads `count` bytes from `peer` on another thread; `take()` waits (bounded) for them.
private final class Drain: @unchecked Sendable {
    // @unchecked Sendable: `bytes` is written once on the reading thread before `done` is signaled and
    // read after the wait.
    private var bytes: [UInt8] = []
    private let done = DispatchSemaphore(value: 0)

    init(_ peer: RawPeer, count: Int) {
        // Only the reading thread uses the peer until `take()` returns.
        nonisolated(unsafe) let peer = peer
        Thread.detachNewThread { [self] in
            bytes = peer.receive(count: count, timeout: 30)
            done.signal()
        }
    }

    func take() -> [UInt8]? {
        done.wait(timeout: .now() + 40) == .success ? bytes : nil
    }
}

/// What a writer has done: it writes `stream` in chunks while the socket is writable, and goes on from
/// each drain report.
private struct WriterProgress {
    var sent = 0
    var drains = 0
    var mostQueued = 0

    /// Writes chunks through `write` while `isWritable()`, noting the most `queued()` ever held.
    mutating func writeWhileWritable(
        isWritable: () -> Bool, queued: () -> Int, write: (_ chunk: Data, _ tag: Int) -> Void
    ) {
        while sent < total, isWritable() {
            write(stream[sent..<sent + chunk], sent)
            sent += chunk
            mostQueued = max(mostQueued, queued())
        }
    }
}

/// The writer on a RunLoopSocket, on its loop thread.
private final class LoopWriter: RunLoopSocketDelegateBase {
    var progress = WriterProgress()

    func writeWhileWritable(_ sock: RunLoopSocket) {
        progress.writeWhileWritable(
            isWritable: { sock.isWritable }, queued: { sock.queuedWriteBytes },
            write: { sock.write($0, withTimeout: -1, tag: $1) })
    }

    override func onSocketDidBecomeWritable(_ sock: RunLoopSocket) {
        progress.drains += 1
        writeWhileWritable(sock)
    }
}

/// The writer on a QueueSocket, on its delegate queue.
private final class QueueWriter: QueueSocketDelegateBase, @unchecked Sendable {
    // @unchecked Sendable: `progress` is touched on `queue` only.
    let queue = DispatchQueue(label: "QueueWriter")
    var progress = WriterProgress()

    func writeWhileWritable(_ sock: QueueSocket) {
        progress.writeWhileWritable(
            isWritable: { sock.isWritable }, queued: { sock.queuedWriteBytes },
            write: { sock.write($0, withTimeout: -1, tag: $1) })
    }

    override func socketDidBecomeWritable(_ sock: QueueSocket) {
        progress.drains += 1
        writeWhileWritable(sock)
    }
}

@Suite("Write watermarks: a peer that does not read holds the writer at the high mark, on every face")
struct WriteWatermarkFaceTests {
    @Test(
        "RunLoopSocket: not writable above the high mark; the drain reported; every byte in order; bad marks are EINVAL",
        arguments: RunLoopSocket.Engine.allCases)
    func runLoopSocket(engine: RunLoopSocket.Engine) async throws {
        try await onNewThread {
            let connection = try AcceptedConnection(engine: engine)
            defer { connection.tearDown() }
            let socket = connection.child
            let writer = LoopWriter()
            socket.delegate = writer
            shrinkReceiveBuffer(connection.peer)
            try socket.setOptions(TCPSocketOptions(sendBufferSize: 16 * 1024))
            for bad in [WriteWatermarks(high: 10, low: 10), WriteWatermarks(high: 10, low: -1)] {
                let error = #expect(throws: NSError.self) { try socket.setWriteWatermarks(bad) }
                #expect(error?.code == Int(EINVAL))
            }
            #expect(socket.writeWatermarks == nil)
            try socket.setWriteWatermarks(WriteWatermarks(high: high, low: low))
            #expect(socket.writeWatermarks == WriteWatermarks(high: high, low: low))
            writer.writeWhileWritable(socket)
            #expect(runUntil { !socket.isWritable && socket.queuedWriteBytes > high })
            #expect(writer.progress.sent < total, "the writer stopped: the peer reads nothing")
            #expect(writer.progress.mostQueued <= high + chunk)
            #expect(socket.queuedWriteCount >= 1 && socket.queuedReadCount == 0)
            let drain = Drain(connection.peer, count: total)
            #expect(runUntil(timeout: 30) { writer.progress.sent == total && socket.queuedWriteBytes == 0 })
            #expect(drain.take() == Array(stream))
            #expect(writer.progress.drains >= 1)
            #expect(writer.progress.mostQueued <= high + chunk)
        }
    }

    @Test(
        "QueueSocket: not writable above the high mark; the drain reported; every byte in order; bad marks are EINVAL")
    func queueSocket() throws {
        let listener = try RawListener()
        let writer = QueueWriter()
        let socket = QueueSocket(delegate: writer, delegateQueue: writer.queue)
        defer { socket.disconnect() }
        try socket.connect(toHost: "127.0.0.1", onPort: listener.port)
        let peer = try #require(listener.accept())
        shrinkReceiveBuffer(peer)
        #expect(waitUntil { socket.isConnected })
        try socket.setOptions(TCPSocketOptions(sendBufferSize: 16 * 1024))
        let error = #expect(throws: NSError.self) { try socket.setWriteWatermarks(WriteWatermarks(high: 0, low: 0)) }
        #expect(error?.code == Int(EINVAL))
        try socket.setWriteWatermarks(WriteWatermarks(high: high, low: low))
        writer.queue.sync { writer.writeWhileWritable(socket) }
        #expect(waitUntil { !socket.isWritable && socket.queuedWriteBytes > high })
        #expect(writer.queue.sync { writer.progress.sent } < total)
        #expect(socket.queuedWriteCount >= 1)
        let drain = Drain(peer, count: total)
        #expect(
            waitUntil(timeout: 30) {
                writer.queue.sync { writer.progress.sent } == total && socket.queuedWriteBytes == 0
            })
        #expect(drain.take() == Array(stream))
        writer.queue.sync {
            #expect(writer.progress.drains >= 1)
            #expect(writer.progress.mostQueued <= high + chunk)
        }
    }

    @Test(
        "AsyncSocketConnection: writes from many tasks wait at the high mark; all complete once the peer reads; bad marks are EINVAL"
    )
    func asyncConnection() async throws {
        try await onNewThread {
            let executor = ThreadExecutor(name: "tasks")
            defer { executor.shutdown() }
            let (_, peer, server) = try await asyncRawPair()
            shrinkReceiveBuffer(peer)
            try server.setOptions(TCPSocketOptions(sendBufferSize: 16 * 1024))
            #expect(throws: NSError.self) { try server.setWriteWatermarks(WriteWatermarks(high: 1, low: 2)) }
            try server.setWriteWatermarks(WriteWatermarks(high: high, low: low))
            #expect(server.writeWatermarks == WriteWatermarks(high: high, low: low))
            let writers = (0..<total / chunk).map { _ in
                Task(executorPreference: executor) { try await server.write(Data(repeating: 7, count: chunk)) }
            }
            #expect(waitUntil { !server.isWritable && server.queuedWriteBytes > high })
            #expect(server.queuedWriteBytes <= high + chunk, "the other writes wait, outside the queue")
            #expect(server.queuedWriteCount < total / chunk)
            let drain = Drain(peer, count: total)
            for writer in writers { try await within(30) { try await writer.value } }
            #expect(drain.take()?.count == total)
            #expect(server.queuedWriteBytes == 0 && server.isWritable)
        }
    }

    @Test("AsyncSocketConnection: a write waiting for the marks, cancelled, throws CancellationError and closes")
    func asyncCancelWaitingWrite() async throws {
        try await onNewThread {
            let executor = ThreadExecutor(name: "tasks")
            defer { executor.shutdown() }
            let (_, peer, server) = try await asyncRawPair()
            shrinkReceiveBuffer(peer)
            try server.setOptions(TCPSocketOptions(sendBufferSize: 16 * 1024))
            try server.setWriteWatermarks(WriteWatermarks(high: high, low: low))
            let first = Task(executorPreference: executor) { try await server.write(Data(count: 4 * high)) }
            #expect(waitUntil { !server.isWritable })
            let waiting = Task(executorPreference: executor) { try await server.write(Data(count: chunk)) }
            #expect(waitUntil { server.queuedWriteCount == 1 }, "the second write waits outside the queue")
            waiting.cancel()
            await #expect(throws: CancellationError.self) { try await within { try await waiting.value } }
            await #expect(throws: AsyncConnectionError.self) { try await within { try await first.value } }
            await #expect(throws: AsyncConnectionError.self) { try await server.write(Data("x".utf8)) }
            withExtendedLifetime(peer) {}
        }
    }
}
