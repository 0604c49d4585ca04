import AsyncSocketKit
import Foundation
import SocketTestSupport
import Testing

@Suite("QueueSocket: writes queued behind each other go out together, and complete one by one")
struct QueueGatheredWriteTests {
    /// Holds `socket`'s queue until the returned semaphore is signalled (returns once it is held).
    private func holdQueue(of socket: QueueSocket) throws -> DispatchSemaphore {
        let entered = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            socket.perform {
                entered.signal()
                _ = release.wait(timeout: .now() + 10)
            }
        }
        try #require(entered.wait(timeout: .now() + 5) == .success)
        return release
    }

    private func payload(_ tag: Int, size: Int) -> Data {
        Data((0..<size).map { UInt8(truncatingIfNeeded: $0 &+ tag) })
    }

    @Test("50 writes queued while the socket queue is busy: every byte in order, one completion each, in order")
    func batchCompletesInOrder() throws {
        let pair = try QueuePair()
        let release = try holdQueue(of: pair.client)
        var expected = Data()
        for tag in 1...50 {
            let data = payload(tag, size: 100 + tag)
            expected.append(data)
            pair.client.write(data, withTimeout: 10, tag: tag)
        }
        release.signal()
        pair.child.readData(toLength: expected.count, withTimeout: 10, tag: 99)
        let recorder = pair.recorder
        #expect(recorder.wait { recorder.events("child1").contains(.read(expected, tag: 99)) })
        #expect(
            recorder.wait {
                recorder.events("client").filter { if case .wrote = $0 { true } else { false } }.count == 50
            })
        let completions = recorder.events("client").compactMap { event -> Int? in
            if case .wrote(let tag) = event { return tag }
            return nil
        }
        #expect(completions == Array(1...50))
        pair.tearDown()
    }

    @Test(
        "a batch the kernel takes only in part: the rest follows as the peer reads; each write completes once, in order"
    )
    func partialBatch() throws {
        let pair = try QueuePair()
        pair.client.perform {
            var size: Int32 = 32 * 1024
            _ = setsockopt(pair.client.socketFD, SOL_SOCKET, SO_SNDBUF, &size, socklen_t(MemoryLayout<Int32>.size))
        }
        pair.child.perform {
            var size: Int32 = 32 * 1024
            _ = setsockopt(pair.child.socketFD, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
        }
        let release = try holdQueue(of: pair.client)
        var expected = Data()
        for tag in 1...40 {
            let data = payload(tag, size: 16 * 1024)
            expected.append(data)
            pair.client.write(data, withTimeout: 30, tag: tag)
        }
        release.signal()
        let recorder = pair.recorder
        // The peer has not read yet: the kernel takes part of the batch (a write done, or bytes of the
        // current one), far from all of it, and the client waits for room.
        let completed = { recorder.events("client").filter { if case .wrote = $0 { true } else { false } }.count }
        #expect(
            recorder.wait {
                var done = 0
                _ = pair.client.progressOfWrite(returningTag: nil, bytesDone: &done, total: nil)
                return completed() > 0 || done > 0
            })
        #expect(completed() < 40)
        pair.child.readData(toLength: expected.count, withTimeout: 30, tag: 99)
        #expect(recorder.wait(timeout: 30) { recorder.events("child1").contains(.read(expected, tag: 99)) })
        #expect(recorder.wait { completed() == 40 })
        let completions = recorder.events("client").compactMap { event -> Int? in
            if case .wrote(let tag) = event { return tag }
            return nil
        }
        #expect(completions == Array(1...40))
        pair.tearDown()
    }
}
