import AsyncSocketKit
import Foundation
import SocketTestSupport
import Testing

@Suite("RunLoopSocket on the queue core: callbacks travel to the loop in batches")
struct QueueCoreDeliveryTests {
    @Test("a callback already on its way to the loop when the socket's modes change arrives in the new modes")
    func batchFollowsModes() async throws {
        try await onNewThread {
            let connection = try ClientConnection(engine: .queueCore)
            let other = RunLoopMode("other")
            let keep = EventRunLoop.current.addTimer(after: 3600, modes: [other]) { _ in }
            connection.peer.send("data")
            // The bytes wait in the kernel, so the read queued now completes at once, on the socket
            // queue (its progress turns idle), and its callback waits for the loop, in the socket's
            // modes then: .default.
            var watched = pollfd(fd: connection.client.socketFD, events: Int16(POLLIN), revents: 0)
            #expect(poll(&watched, 1, 10_000) == 1)
            connection.client.readData(toLength: 4, withTimeout: -1, tag: 1)
            #expect(connection.client.progressOfRead(returningTag: nil, bytesDone: nil, total: nil).isNaN)
            #expect(connection.events.isEmpty)
            #expect(connection.client.setRunLoopModes([other]))
            #expect(runUntil(mode: other) { !connection.events.isEmpty })
            #expect(connection.events == [.read(Data("data".utf8), tag: 1)])
            keep.invalidate()
            connection.client.disconnect()
        }
    }
}
