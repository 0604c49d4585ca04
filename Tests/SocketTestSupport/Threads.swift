import AsyncSocketKit
import CAsyncSocketShims
import Foundation

/// Runs `body` on a new thread (with its own `EventRunLoop.current`) and returns its result once the
/// thread has ended, so the thread's loop is freed before the test goes on. The body runs as part of
/// the calling task (on a task executor that owns the thread), so `#expect` inside it is recorded
/// against the running test.
package func onNewThread<T: Sendable>(name: String = "test", _ body: @escaping @Sendable () async throws -> T)
    async throws
    -> T
{
    let executor = ThreadExecutor(name: name)
    defer { executor.shutdown() }
    return try await withTaskExecutorPreference(executor) {
        try await body()
    }
}

/// A task executor with one thread of its own: jobs run there, one at a time, in order.
package final class ThreadExecutor: TaskExecutor, @unchecked Sendable {
    private let condition = NSCondition()
    private var jobs: [UnownedJob] = []
    private var stopping = false
    private var thread = pthread_t()

    package init(name: String) {
        let box = Unmanaged.passRetained(ThreadBody { [self] in serve(name: name) }).toOpaque()
        let rc = pthread_create(
            &thread, nil,
            { context in
                let body = Unmanaged<ThreadBody>.fromOpaque(context!).takeRetainedValue()
                body.run()
                return nil
            }, box)
        precondition(rc == 0, "pthread_create failed")
    }

    package func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        condition.withLock {
            jobs.append(job)
            condition.signal()
        }
    }

    private func serve(name: String) {
        ask_set_thread_name(String(name.prefix(15)))
        while true {
            let job: UnownedJob? = condition.withLock {
                while jobs.isEmpty && !stopping {
                    condition.wait()
                }
                return jobs.isEmpty ? nil : jobs.removeFirst()
            }
            guard let job else { return }
            job.runSynchronously(on: asUnownedTaskExecutor())
        }
    }

    /// Lets the thread finish its jobs and end, and waits for it.
    package func shutdown() {
        condition.withLock {
            stopping = true
            condition.signal()
        }
        pthread_join(thread, nil)
    }
}

package final class ThreadBody: Sendable {
    package let run: @Sendable () -> Void
    package init(_ run: @escaping @Sendable () -> Void) {
        self.run = run
    }
}

/// Runs `loop` in `mode` until `condition` holds or `seconds` pass; returns whether it held.
@discardableResult
package func runUntil(
    _ loop: EventRunLoop = .current, mode: RunLoopMode = .default, timeout seconds: TimeInterval = 10,
    _ condition: () -> Bool
) -> Bool {
    let deadline = Date(timeIntervalSinceNow: seconds)
    while !condition() {
        if Date() >= deadline {
            return false
        }
        let result = loop.run(mode: mode, before: deadline)
        if result == .finished {
            return condition()
        }
    }
    return true
}

/// Runs the current loop in short slices until `condition` (made true by another thread) holds or
/// `seconds` pass; returns whether it held.
@discardableResult
package func waitUntil(timeout seconds: TimeInterval = 10, _ condition: () -> Bool) -> Bool {
    let deadline = Date(timeIntervalSinceNow: seconds)
    while !condition() {
        if Date() >= deadline { return false }
        EventRunLoop.current.run(mode: .default, timeout: 0.01)
    }
    return true
}

/// Runs the current loop until a run finds nothing left in the default mode (at most `seconds`).
package func runUntilFinished(timeout seconds: TimeInterval = 10) -> Bool {
    let deadline = Date(timeIntervalSinceNow: seconds)
    while Date() < deadline {
        if EventRunLoop.current.run(mode: .default, timeout: 0.2) == .finished { return true }
    }
    return false
}

/// Monotonic seconds.
package func now() -> TimeInterval {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return TimeInterval(ts.tv_sec) + TimeInterval(ts.tv_nsec) / 1e9
}

/// A mutable value shared with `@Sendable` blocks that run on the same loop thread as the test body.
package final class Ref<Value>: @unchecked Sendable {
    package var value: Value
    package init(_ value: Value) {
        self.value = value
    }
}
