import AsyncSocketKit
import Foundation
import SocketTestSupport
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
            let runner = try #require(currentThreadStatPath())
            // The stopper waits until this thread sleeps (blocked in the run's poll, since nothing
            // else is due for an hour), 5 s at most, then stops the loop from its own thread.
            stopper.loop.perform {
                let deadline = Date(timeIntervalSinceNow: 5)
                while !threadIsSleeping(runner) && Date() < deadline {
                    sched_yield()
                }
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

/// The /proc stat file of the calling thread (`/proc/thread-self` names it as `PID/task/TID`).
private func currentThreadStatPath() -> String? {
    guard let target = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/thread-self") else {
        return nil
    }
    return "/proc/\(target)/stat"
}

/// Whether the thread whose stat file is `path` is asleep (state S: blocked in a system call).
private func threadIsSleeping(_ path: String) -> Bool {
    guard let stat = try? String(contentsOfFile: path, encoding: .utf8),
        let end = stat.lastIndex(of: ")")
    else { return false }
    return stat[stat.index(after: end)...].split(separator: " ").first == "S"
}
