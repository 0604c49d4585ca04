// Micro-benchmarks of EventRunLoop: cross-thread perform throughput, per-event dispatch overhead
// beside plain libevent in C, and timer precision. Not a test: run it in release mode.
//
//   swift run -c release --package-path Benchmarks RunLoopBench
import AsyncSocketKit
import CLibeventRaw
import Foundation
import Synchronization

func monotonic() -> UInt64 {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return UInt64(ts.tv_sec) * 1_000_000_000 + UInt64(ts.tv_nsec)
}

func format(_ value: Double) -> String {
    value >= 100 ? String(Int(value.rounded())) : String(format: "%.2f", value)
}

/// Runs `body` on a new thread with its own loop and waits for it.
func onThread(_ body: @escaping @Sendable () -> Void) {
    let done = DispatchSemaphore(value: 0)
    let thread = Thread {
        body()
        done.signal()
    }
    thread.stackSize = 8 << 20
    thread.start()
    done.wait()
}

func crossThreadPerform(producers: Int, perProducer: Int) -> Double {
    let worker = EventRunLoopThread(name: "bench-target")
    defer { worker.terminate() }
    let total = producers * perProducer
    let counter = Atomic<Int>(0)
    let done = DispatchSemaphore(value: 0)
    let loop = worker.loop
    let start = monotonic()
    DispatchQueue.concurrentPerform(iterations: producers) { _ in
        for _ in 0..<perProducer {
            loop.perform {
                if counter.add(1, ordering: .relaxed).newValue == total {
                    done.signal()
                }
            }
        }
    }
    done.wait()
    return Double(total) / (Double(monotonic() - start) / 1e9)
}

func sameThreadPerform(count: Int) -> Double {
    let rate = Mutex(0.0)
    onThread {
        let loop = EventRunLoop.current
        let counter = Atomic<Int>(0)
        let start = monotonic()
        for _ in 0..<count {
            loop.perform { counter.add(1, ordering: .relaxed) }
        }
        while counter.load(ordering: .relaxed) < count {
            loop.run(mode: .default, timeout: 1)
        }
        rate.withLock { $0 = Double(count) / (Double(monotonic() - start) / 1e9) }
    }
    return rate.withLock { $0 }
}

/// Nanoseconds per dispatched readiness event, ours and plain libevent's, with `count` always-readable
/// descriptors and `passes` non-blocking passes.
func dispatchOverhead(count: Int, passes: Int) -> (ours: Double, libevent: Double) {
    let result = Mutex((0.0, 0.0))
    onThread {
        var pairs: [(Int32, Int32)] = []
        for _ in 0..<count {
            var fds: [Int32] = [-1, -1]
            _ = socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &fds)
            _ = write(fds[1], "x", 1)
            pairs.append((fds[0], fds[1]))
        }
        defer {
            for (a, b) in pairs {
                close(a)
                close(b)
            }
        }
        let loop = EventRunLoop.current
        var calls = 0
        let sources = pairs.map { pair in
            let source = loop.addFileSource(pair.0) { _ in calls += 1 }
            source.wantsReadable = true
            return source
        }
        loop.run(mode: .default, timeout: 0)
        calls = 0
        let start = monotonic()
        for _ in 0..<passes {
            loop.run(mode: .default, timeout: 0)
        }
        let ours = Double(monotonic() - start) / Double(calls)
        for source in sources { source.cancel() }
        var elapsed: UInt64 = 0
        let fds = pairs.map { $0.0 }
        let rawCalls = fds.withUnsafeBufferPointer {
            raw_libevent_dispatch($0.baseAddress, Int32(count), Int32(passes), &elapsed)
        }
        result.withLock { $0 = (ours, Double(elapsed) / Double(rawCalls)) }
    }
    return result.withLock { $0 }
}

/// Lateness of one-shot timers in microseconds: (p50, p99, max, earliest), earliest ≥ 0 means never early.
func timerLateness(interval: TimeInterval, samples: Int) -> (Double, Double, Double, Double) {
    let lateness = Mutex<[Double]>([])
    onThread {
        let loop = EventRunLoop.current
        var values: [Double] = []
        for _ in 0..<samples {
            let armedAt = monotonic()
            var firedAt: UInt64 = 0
            loop.addTimer(after: interval) { _ in firedAt = monotonic() }
            loop.run()
            values.append((Double(firedAt - armedAt) / 1e3) - interval * 1e6)
        }
        lateness.withLock { $0 = values.sorted() }
    }
    let sorted = lateness.withLock { $0 }
    return (sorted[sorted.count / 2], sorted[sorted.count * 99 / 100], sorted.last!, sorted.first!)
}

print("EventRunLoop micro-benchmarks (release build, \(ProcessInfo.processInfo.activeProcessorCount) cores)")
print("")
print("| measure | value |")
print("|---|---|")
for producers in [1, 4] {
    let rates = (0..<3).map { _ in crossThreadPerform(producers: producers, perProducer: 250_000) }.sorted()
    print("| cross-thread perform, \(producers) producer thread(s), blocks/s (median of 3) | \(format(rates[1])) |")
}
let same = (0..<3).map { _ in sameThreadPerform(count: 1_000_000) }.sorted()
print("| same-thread perform, blocks/s (median of 3) | \(format(same[1])) |")
for count in [1, 100, 1_000] {
    let runs = (0..<3).map { _ in dispatchOverhead(count: count, passes: max(200, 200_000 / count)) }
    let ours = runs.map(\.ours).sorted()[1]
    let raw = runs.map(\.libevent).sorted()[1]
    print(
        "| readiness dispatch, \(count) readable fd(s): ns per event, EventRunLoop / plain libevent C | "
            + "\(format(ours)) / \(format(raw)) |")
}
for interval in [0.001, 0.01] {
    let (p50, p99, maximum, earliest) = timerLateness(interval: interval, samples: 200)
    print(
        "| one-shot timer \(Int(interval * 1000)) ms, lateness µs p50 / p99 / max (earliest) | "
            + "\(format(p50)) / \(format(p99)) / \(format(maximum)) (\(format(earliest))) |")
}
