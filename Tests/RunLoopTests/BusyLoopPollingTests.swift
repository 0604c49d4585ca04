import AsyncSocketKit
import Foundation
import SocketTestSupport
import Testing

// A loop whose queued blocks keep queueing more (a socket echoing lines out of its prebuffer, in the
// original's one-dequeue-per-pass style) still polls: descriptors and timers are served within the
// loop's polling budget, not after the blocks run out — whether it runs by itself (`run(until:)`) or
// is driven one `run(mode:before:)` at a time, as a port's `runMode:beforeDate:` loop drives it.
@Suite("EventRunLoop under a stream of queued blocks")
struct BusyLoopPollingTests {
    /// How many blocks the chain runs at most; a loop that never polled while blocks keep coming
    /// would serve the descriptor and the timer only after all of them.
    static let chainLimit = 2_000_000

    @Test("a ready descriptor and a due timer are served while blocks keep queueing blocks")
    func servedWhileBusy() async throws {
        try await onNewThread {
            let chain = BusyChain(limit: Self.chainLimit)
            defer { chain.finish() }
            chain.onEnd = { chain.loop.stop() }
            chain.start()
            // `run(until:)` runs pass after pass until the chain stops it.
            chain.loop.run(until: Date(timeIntervalSinceNow: 60))
            let readable = try #require(chain.readableAt)
            let fired = try #require(chain.timerAt)
            #expect(readable < Self.chainLimit)
            #expect(fired < Self.chainLimit)
        }
    }

    // Each call gets one handled source; it must still poll once, as CFRunLoopRunInMode does.
    @Test("driven one run(mode:before:) at a time, a ready descriptor and a due timer are served while busy")
    func servedWhenDrivenOneRunAtATime() async throws {
        try await onNewThread {
            let chain = BusyChain(limit: Self.chainLimit)
            defer { chain.finish() }
            chain.start()
            let deadline = Date(timeIntervalSinceNow: 60)
            var results: [EventRunLoop.RunResult] = []
            while !chain.isDone, Date() < deadline {
                let result = chain.loop.run(mode: .default, before: Date(timeIntervalSinceNow: 1))
                if results.last != result { results.append(result) }
            }
            let readable = try #require(chain.readableAt)
            let fired = try #require(chain.timerAt)
            // The first call polls after at most the loop's budget of block passes.
            #expect(readable <= EventRunLoop.passesBetweenPolls + 1)
            #expect(fired < Self.chainLimit)
            #expect(results == [.handledSource])
        }
    }
}

/// On the calling thread's loop: a socket pair with one byte waiting, a 1 ms timer, and a chain of
/// blocks, each queueing the next until both the descriptor and the timer have been served (noting
/// how many blocks had run by then) or `limit` blocks have run.
private final class BusyChain {
    let loop = EventRunLoop.current
    private let (a, b) = makeSocketPair()
    private let limit: Int
    private var source: RunLoopFileSource?
    private var timer: RunLoopTimer?
    private(set) var blocksRun = 0
    private(set) var readableAt: Int?
    private(set) var timerAt: Int?
    /// Runs once when the chain stops queueing blocks.
    var onEnd: () -> Void = {}

    init(limit: Int) {
        self.limit = limit
    }

    /// The chain has stopped: both served, or the limit reached.
    var isDone: Bool { (readableAt != nil && timerAt != nil) || blocksRun >= limit }

    func start() {
        let source = loop.addFileSource(a) { [self] _ in
            drain(a)
            if readableAt == nil { readableAt = blocksRun }
        }
        source.wantsReadable = true
        self.source = source
        timer = loop.addTimer(after: 0.001) { [self] _ in timerAt = blocksRun }
        loop.enqueue(next)
        writeAll(b, [1])
    }

    private func next() {
        blocksRun += 1
        guard !isDone else { return onEnd() }
        loop.enqueue(next)
    }

    func finish() {
        source?.cancel()
        timer?.invalidate()
        close(a)
        close(b)
    }
}
