import AsyncSocketKit
import Foundation
import SocketTestSupport
import Testing

// A loop whose queued blocks keep queueing more (a socket echoing lines out of its prebuffer, in the
// original's one-dequeue-per-pass style) still polls: descriptors and timers are served within the
// loop's polling budget, not after the blocks run out.
@Suite("EventRunLoop under a stream of queued blocks")
struct BusyLoopPollingTests {
    /// How many blocks the chain runs at most; a loop that never polled while blocks keep coming
    /// would serve the descriptor and the timer only after all of them.
    static let chainLimit = 2_000_000

    @Test("a ready descriptor and a due timer are served while blocks keep queueing blocks")
    func servedWhileBusy() async throws {
        try await onNewThread {
            let loop = EventRunLoop.current
            let (a, b) = makeSocketPair()
            defer {
                close(a)
                close(b)
            }
            var blocksRun = 0
            var readableAt: Int?
            var timerAt: Int?
            let source = loop.addFileSource(a) { _ in
                drain(a)
                if readableAt == nil { readableAt = blocksRun }
            }
            source.wantsReadable = true
            let timer = loop.addTimer(after: 0.001) { _ in timerAt = blocksRun }
            func next() {
                blocksRun += 1
                guard blocksRun < Self.chainLimit, readableAt == nil || timerAt == nil else { return loop.stop() }
                loop.enqueue(next)
            }
            loop.enqueue(next)
            writeAll(b, [1])
            // `run(until:)` runs pass after pass (a `run(mode:before:)` returns after each pass of blocks).
            loop.run(until: Date(timeIntervalSinceNow: 60))
            source.cancel()
            timer.invalidate()
            let readable = try #require(readableAt)
            let fired = try #require(timerAt)
            #expect(readable < Self.chainLimit)
            #expect(fired < Self.chainLimit)
        }
    }

    // A port that drives its loop itself (`while running { [runLoop runMode:… beforeDate:…] }`) gets
    // one handled source per call; each call must still poll once, as CFRunLoopRunInMode does.
    @Test("driven one run(mode:before:) at a time, a ready descriptor and a due timer are served while busy")
    func servedWhenDrivenOneRunAtATime() async throws {
        try await onNewThread {
            let loop = EventRunLoop.current
            let (a, b) = makeSocketPair()
            defer {
                close(a)
                close(b)
            }
            var blocksRun = 0
            var readableAt: Int?
            var timerAt: Int?
            let source = loop.addFileSource(a) { _ in
                drain(a)
                if readableAt == nil { readableAt = blocksRun }
            }
            source.wantsReadable = true
            let timer = loop.addTimer(after: 0.001) { _ in timerAt = blocksRun }
            func next() {
                blocksRun += 1
                guard blocksRun < Self.chainLimit, readableAt == nil || timerAt == nil else { return }
                loop.enqueue(next)
            }
            loop.enqueue(next)
            writeAll(b, [1])
            let deadline = Date(timeIntervalSinceNow: 60)
            var results: [EventRunLoop.RunResult] = []
            while readableAt == nil || timerAt == nil, blocksRun < Self.chainLimit, Date() < deadline {
                let result = loop.run(mode: .default, before: Date(timeIntervalSinceNow: 1))
                if results.last != result { results.append(result) }
            }
            source.cancel()
            timer.invalidate()
            let readable = try #require(readableAt)
            let fired = try #require(timerAt)
            // The first call polls where `run()` would: after at most the loop's budget of block passes.
            #expect(readable <= EventRunLoop.passesBetweenPolls + 1)
            #expect(fired < Self.chainLimit)
            #expect(results == [.handledSource])
        }
    }
}
