import AsyncSocketKit
import Foundation
import SocketTestSupport
import Testing

@Suite("Load: thousands of queued reads served from one burst")
struct QueuedReadBurstTests {
    // Regression: a completion dequeues the next read at once, and each read's pass ran inside the
    // previous one; with the bytes already read ahead, 4 000 queued reads overflowed the stack of
    // the dispatch thread (seen as a SIGSEGV in the hammer test on a loaded machine).
    @Test("QueueSocket: 30 000 one-byte reads queued, then the bytes at once: every read completes, in order")
    func queueSocketReadBurst() throws {
        let connection = try QueueClientConnection()
        let recorder = connection.recorder
        let count = 30_000
        for tag in 0..<count {
            connection.client.readData(toLength: 1, withTimeout: -1, tag: tag)
        }
        let sent = patternBytes(count)
        connection.peer.send(sent)
        #expect(
            recorder.wait(timeout: 30) {
                if case .read(_, let tag)? = recorder.events("client").last { return tag == count - 1 }
                return false
            })
        let tags = recorder.events("client").compactMap { event -> Int? in
            if case .read(_, let tag) = event { return tag }
            return nil
        }
        #expect(tags == Array(0..<count))
        recorder.auditor.checkBytes("client", sent: sent)
        connection.client.disconnect()
        #expect(recorder.wait { recorder.closed("client") })
    }

    @Test(
        "RunLoopSocket: 10 000 one-byte reads queued, then the bytes at once: every read completes, in order",
        arguments: RunLoopSocket.Engine.allCases)
    func runLoopSocketReadBurst(engine: RunLoopSocket.Engine) async throws {
        try await onNewThread {
            let connection = try ClientConnection(engine: engine)
            let count = 10_000
            for tag in 0..<count {
                connection.client.readData(toLength: 1, withTimeout: -1, tag: tag)
            }
            let sent = patternBytes(count)
            connection.peer.send(sent)
            #expect(runUntil(timeout: 30) { connection.recorder.auditor.deliveredBytes("client").count == count })
            let tags = connection.events.compactMap { event -> Int? in
                if case .read(_, let tag) = event { return tag }
                return nil
            }
            #expect(tags == Array(0..<count))
            connection.recorder.auditor.checkBytes("client", sent: sent)
            connection.client.disconnect()
            #expect(connection.recorder.closed("client"))
        }
    }
}
