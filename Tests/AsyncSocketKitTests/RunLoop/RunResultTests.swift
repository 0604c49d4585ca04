import AsyncSocketKit
import Foundation
import Testing

@Suite("EventRunLoop run results")
struct RunResultTests {
    @Test("an empty mode finishes at once; .common cannot be run")
    func finished() async throws {
        try await onNewThread {
            let loop = EventRunLoop.current
            let start = now()
            #expect(loop.run(mode: .default, before: .distantFuture) == .finished)
            #expect(loop.run(mode: .common, before: .distantFuture) == .finished)
            #expect(now() - start < 1)
            loop.run()
        }
    }

    @Test("a run with nothing due times out at its deadline, and not before")
    func timedOut() async throws {
        try await onNewThread {
            let loop = EventRunLoop.current
            let keep = loop.addTimer(after: 3600) { _ in }
            let start = now()
            #expect(loop.run(mode: .default, timeout: 0.1) == .timedOut)
            let elapsed = now() - start
            #expect(elapsed >= 0.1)
            #expect(elapsed < 2)
            #expect(loop.run(mode: .default, before: .distantPast) == .timedOut)
            keep.invalidate()
        }
    }

    @Test("a readable source whose handler never reads still lets each run return after one pass")
    func undrainedSourceDoesNotTrapTheLoop() async throws {
        try await onNewThread {
            let loop = EventRunLoop.current
            let (a, b) = makeSocketPair()
            defer {
                close(a)
                close(b)
            }
            var calls = 0
            let source = loop.addFileSource(a) { _ in calls += 1 }
            source.wantsReadable = true
            writeAll(b, [1])
            for pass in 1...5 {
                #expect(loop.run(mode: .default, timeout: 0) == .handledSource)
                #expect(calls == pass)
            }
            source.wantsReadable = false
            #expect(loop.run(mode: .default, timeout: 0.05) == .timedOut)
            #expect(calls == 5)
            source.cancel()
        }
    }

    @Test("stop() before a run makes that run return at once; stop() from another thread wakes it")
    func stopped() async throws {
        try await onNewThread {
            let loop = EventRunLoop.current
            let keep = loop.addTimer(after: 3600) { _ in }
            loop.stop()
            #expect(loop.run(mode: .default, timeout: 5) == .stopped)
            let stopper = EventRunLoopThread(name: "stopper")
            let target = loop
            stopper.loop.perform {
                usleep(50_000)
                target.stop()
            }
            let start = now()
            #expect(loop.run(mode: .default, timeout: 10) == .stopped)
            #expect(now() - start < 5)
            stopper.terminate()
            keep.invalidate()
        }
    }

    @Test("run() returns once nothing is left, and on stop()")
    func runReturns() async throws {
        try await onNewThread {
            let loop = EventRunLoop.current
            var fired = false
            loop.addTimer(after: 0.01) { _ in fired = true }
            loop.run()
            #expect(fired)
            let keep = loop.addTimer(after: 3600) { _ in }
            loop.addTimer(after: 0.01) { _ in loop.stop() }
            loop.run()
            keep.invalidate()
        }
    }
}
