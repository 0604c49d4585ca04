import AsyncSocketKit
import Foundation
import SocketTestSupport
import Testing

@Suite("EventRunLoop timers")
struct TimerTests {
    /// Lateness allowed in tests: this machine is shared and noisy. The real precision is reported
    /// by the run-loop micro-benchmark. Four times as much under a sanitizer.
    static let lateBound: TimeInterval = wallClockBound(0.5)

    @Test("a one-shot timer fires once, never early", arguments: [0.0, 0.001, 0.02, 0.15])
    func oneShot(interval: TimeInterval) async throws {
        try await onNewThread {
            let loop = EventRunLoop.current
            let start = now()
            var firedAt: [TimeInterval] = []
            let timer = loop.addTimer(after: interval) { _ in firedAt.append(now()) }
            loop.run()
            #expect(firedAt.count == 1)
            let delay = firedAt[0] - start
            #expect(delay >= interval)
            #expect(delay < interval + Self.lateBound)
            #expect(!timer.isValid)
        }
    }

    @Test("a repeating timer fires at each interval, never early, until invalidated in its handler")
    func repeating() async throws {
        try await onNewThread {
            let loop = EventRunLoop.current
            let start = now()
            var fires: [TimeInterval] = []
            let timer = loop.addTimer(after: 0.01, repeating: 0.02) { timer in
                fires.append(now() - start)
                if fires.count == 5 { timer.invalidate() }
            }
            loop.run()
            #expect(fires.count == 5)
            for (index, firedAt) in fires.enumerated() {
                #expect(firedAt >= 0.01 + 0.02 * Double(index))
            }
            #expect(fires.last! < 0.09 + Self.lateBound)
            #expect(!timer.isValid)
        }
    }

    @Test("a timer invalidated before its deadline never fires")
    func cancelBeforeFiring() async throws {
        try await onNewThread {
            let loop = EventRunLoop.current
            var fired = false
            let timer = loop.addTimer(after: 0.05) { _ in fired = true }
            var sentinel = false
            loop.addTimer(after: 0.2) { _ in sentinel = true }
            timer.invalidate()
            #expect(runUntil { sentinel })
            #expect(!fired)
            #expect(!timer.isValid)
        }
    }

    @Test("a timer invalidated by another callback in the same pass does not fire")
    func cancelDuringFiring() async throws {
        try await onNewThread {
            let loop = EventRunLoop.current
            var firstFired = false
            var secondFired = false
            var second: RunLoopTimer?
            // Both are due in the same pass; the first cancels the second.
            loop.addTimer(after: 0) { _ in
                firstFired = true
                second?.invalidate()
            }
            second = loop.addTimer(after: 0) { _ in secondFired = true }
            // Both deadlines are "now" at creation, so both are due at the loop's first look.
            loop.run()
            #expect(firstFired)
            #expect(!secondFired)
        }
    }

    @Test("rearm moves the deadline; a repeating timer that missed intervals fires once, then keeps its pace")
    func rearmAndMissedIntervals() async throws {
        try await onNewThread {
            let loop = EventRunLoop.current
            let start = now()
            var firedAt: TimeInterval = 0
            let timer = loop.addTimer(after: 10) { _ in firedAt = now() - start }
            timer.rearm(after: 0.05)
            loop.run()
            #expect(firedAt >= 0.05)
            #expect(firedAt < 0.05 + Self.lateBound)

            var ticks = 0
            let repeating = loop.addTimer(after: 0.01, repeating: 0.01) { _ in ticks += 1 }
            usleep(100_000)  // the loop is not running: ~10 intervals pass unserviced
            #expect(loop.run(mode: .default, timeout: 5) == .handledSource)
            #expect(ticks == 1)
            repeating.invalidate()
        }
    }
}
