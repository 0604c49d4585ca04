import AsyncSocketCore
import AsyncSocketKit
import Foundation
import SocketTestSupport
import Testing

@Suite("EventRunLoop cross-thread perform")
struct CrossThreadPerformTests {
    @Test("4 threads x 10 000 blocks arrive complete and in per-thread FIFO order")
    func fourThreadsFIFO() throws {
        let worker = EventRunLoopThread(name: "perform-target")
        defer { worker.terminate() }
        let threads = 4
        let perThread = 10_000
        // Touched only on the worker's thread.
        let received = Ref<[[Int]]>(Array(repeating: [], count: threads))
        let done = DispatchSemaphore(value: 0)
        let loop = worker.loop
        DispatchQueue.concurrentPerform(iterations: threads) { thread in
            for sequence in 0..<perThread {
                loop.perform {
                    received.value[thread].append(sequence)
                    if received.value.allSatisfy({ $0.count == perThread }) {
                        done.signal()
                    }
                }
            }
        }
        #expect(done.wait(timeout: .now() + 60) == .success)
        let snapshot = Lock<[[Int]]>([])
        let copied = DispatchSemaphore(value: 0)
        loop.perform {
            snapshot.withLock { $0 = received.value }
            copied.signal()
        }
        #expect(copied.wait(timeout: .now() + 10) == .success)
        let result = snapshot.withLock { $0 }
        #expect(result.count == threads)
        for list in result {
            #expect(list == Array(0..<perThread))
        }
    }

    @Test("a block posted to a sleeping loop wakes it at once")
    func wakesSleepingLoop() async throws {
        let latency = try await onNewThread { () -> TimeInterval in
            let loop = EventRunLoop.current
            let keep = loop.addTimer(after: 3600) { _ in }
            defer { keep.invalidate() }
            let postedAt = Lock<TimeInterval>(0)
            let ranAt = Ref<TimeInterval>(0)
            let poster = EventRunLoopThread(name: "poster")
            defer { poster.terminate() }
            poster.loop.addTimerOnOwnThread(after: 0.1) {
                postedAt.withLock { $0 = now() }
                loop.perform { ranAt.value = now() }
            }
            let result = loop.run(mode: .default, timeout: 30)
            #expect(result == .handledSource)
            return ranAt.value - postedAt.withLock { $0 }
        }
        #expect(latency >= 0)
        // Typically well under a millisecond; this machine is noisy, so the bound is generous.
        #expect(latency < 0.5)
    }

    @Test("blocks posted to a loop whose thread ended are dropped without harm")
    func postToEndedLoop() async throws {
        let loop = try await onNewThread { EventRunLoop.current }
        let ran = Lock(false)
        loop.perform { ran.withLock { $0 = true } }
        loop.stop()
        #expect(ran.withLock { $0 } == false)
    }
}

extension EventRunLoop {
    /// Adds a one-shot timer from another thread, by way of perform.
    func addTimerOnOwnThread(after seconds: TimeInterval, _ body: @escaping @Sendable () -> Void) {
        perform { [self] in
            addTimer(after: seconds) { _ in body() }
        }
    }
}
