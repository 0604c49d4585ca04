import AsyncSocketKit
import Foundation
import SocketTestSupport
import Testing

@Suite("RunLoopSocket: a read that starts waiting while a write waits for room")
struct ReadWhileWriteWaitsTests {
    // On Linux, libdispatch keeps one epoll registration per descriptor for all of its sources, and
    // a read source registered while the same descriptor's write source is armed is filed with the
    // writers: it hears of room to write, never of bytes to read. The queue core made its read
    // source when a read first waited, so a connection whose write was waiting for room (the peer not
    // reading yet) and then read stalled with the peer's bytes unread (a bulk echo stopped for good in
    // about one run in seven; Benchmarks/QUEUE-CORE.md). The write source is now always made after the
    // read source.
    @Test(
        "bytes the peer sends reach a read queued while a write waits for room, and the write then completes",
        arguments: RunLoopSocket.Engine.allCases)
    func readWhileWriteWaits(engine: RunLoopSocket.Engine) async throws {
        try await onNewThread {
            let connection = try ClientConnection(engine: engine)
            let (client, peer, recorder) = (connection.client, connection.peer, connection.recorder)
            let size = 16 << 20
            client.write(Data(repeating: 7, count: size), withTimeout: -1, tag: 1)
            let waiting = runUntil(timeout: 5) {
                let progress = client.writeProgress
                return progress.bytesDone > 0 && progress.bytesDone < progress.total
            }
            #expect(waiting, "the write did not start waiting for room")
            client.readData(toLength: 5, withTimeout: -1, tag: 2)
            peer.send("hello")
            let read = runUntil(timeout: 5) { recorder.events("client").contains(.read(Data("hello".utf8), tag: 2)) }
            #expect(read, "the read queued while the write waited got nothing: \(recorder.events("client"))")
            // The peer reads now, in slices between short runs of the loop (which writes on).
            var drained = 0
            var buffer = [UInt8](repeating: 0, count: 1 << 16)
            let wrote = waitUntil(timeout: 10) {
                while true {
                    let count = buffer.withUnsafeMutableBytes {
                        recv(peer.fd, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT))
                    }
                    guard count > 0 else { break }
                    drained += count
                }
                return drained == size && recorder.events("client").contains(.wrote(tag: 1))
            }
            #expect(wrote, "\(drained) of \(size) bytes arrived; \(recorder.events("client"))")
            client.disconnect()
        }
    }
}
