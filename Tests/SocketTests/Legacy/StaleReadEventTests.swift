import AsyncSocketKit
import Foundation
import SocketTestSupport
import Testing

@Suite("RunLoopSocket: a read event that finds no bytes is not the end")
struct StaleReadEventTests {
    // The queue core's read source may report an event whose bytes a read pass already took, with
    // an estimate of 0 (see QueueStaleReadEventTests); taken as the peer's end, it failed the next
    // read at once, and the connection closed with that read's bytes unread. Each round the peer
    // sends a line just as the read for it is queued.
    @Test(
        "bytes arriving as a read is queued are read, and the connection stays up",
        arguments: RunLoopSocket.Engine.allCases)
    func staleZeroEstimate(engine: RunLoopSocket.Engine) async throws {
        try await onNewThread {
            let connection = try ClientConnection(engine: engine)
            let (client, peer, recorder) = (connection.client, connection.peer, connection.recorder)
            var rounds = 0
            var stop = false
            let deadline = Date(timeIntervalSinceNow: 5)
            recorder.onRead = { sock, _, tag in
                if tag == 1 {
                    peer.send("b\n")
                    sock.readData(to: RunLoopSocket.lfData, withTimeout: -1, tag: 2)
                    return
                }
                rounds += 1
                stop = rounds == 2000 || Date() >= deadline
                guard !stop else { return }
                peer.send("a")
                sock.readData(toLength: 1, withTimeout: -1, tag: 1)
            }
            recorder.onWillDisconnect = { _ in stop = true }
            peer.send("a")
            client.readData(toLength: 1, withTimeout: -1, tag: 1)
            #expect(runUntil { stop })
            let closed = recorder.events("client").contains(.didDisconnect)
            #expect(!closed, "the connection closed after \(rounds) rounds")
            client.disconnect()
        }
    }
}
