import AsyncSocketCore
import AsyncSocketKit
import Foundation
import SocketTestSupport
import Testing

@Suite("EventRunLoop.run(until:): runUntilDate:, waiting through an empty mode")
struct RunUntilDateTests {
    @Test("an empty loop waits until the date instead of returning at once")
    func emptyLoopWaits() async throws {
        try await onNewThread {
            let start = now()
            EventRunLoop.current.run(until: Date(timeIntervalSinceNow: 0.1))
            #expect(now() - start >= 0.1)
        }
    }

    @Test("blocks performed from another thread while the mode is empty run, in order; a timer added by one fires")
    func performsAndTimersWhileEmpty() async throws {
        try await onNewThread {
            let loop = EventRunLoop.current
            let seen = Lock<[Int]>([])
            let timerFired = Ref(false)
            let poster = Thread {
                for value in 1...3 {
                    loop.perform { seen.withLock { $0.append(value) } }
                }
                loop.perform {
                    EventRunLoop.current.addTimer(after: 0.01) { _ in timerFired.value = true }
                }
            }
            poster.start()
            let deadline = Date(timeIntervalSinceNow: 10)
            while (seen.withLock { $0.count } < 3 || !timerFired.value) && Date() < deadline {
                loop.run(until: Date(timeIntervalSinceNow: 0.05))
            }
            #expect(seen.withLock { $0 } == [1, 2, 3])
            #expect(timerFired.value)
        }
    }

    @Test("stop() from another thread ends it before the date")
    func stopEndsIt() async throws {
        try await onNewThread {
            let loop = EventRunLoop.current
            let start = now()
            let stopper = Thread { loop.stop() }
            stopper.start()
            loop.run(until: Date(timeIntervalSinceNow: 30))
            #expect(now() - start < 30)
        }
    }
}
