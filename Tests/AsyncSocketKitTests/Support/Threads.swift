import AsyncSocketKit
import Foundation
import Synchronization

/// Runs `body` on a new thread (with its own `EventRunLoop.current`) and returns its result once the
/// thread has ended, so the thread's loop is freed before the test goes on.
func onNewThread<T: Sendable>(name: String = "test", _ body: @escaping @Sendable () throws -> T) throws -> T {
    let result = Mutex<Result<T, any Error>?>(nil)
    let box = Unmanaged.passRetained(
        ThreadBody {
            let outcome = Result { try body() }
            result.withLock { $0 = outcome }
        }
    ).toOpaque()
    var thread = pthread_t()
    let rc = pthread_create(
        &thread, nil,
        { context in
            let body = Unmanaged<ThreadBody>.fromOpaque(context!).takeRetainedValue()
            body.run()
            return nil
        }, box)
    precondition(rc == 0, "pthread_create failed")
    pthread_join(thread, nil)
    return try result.withLock { $0! }.get()
}

final class ThreadBody: Sendable {
    let run: @Sendable () -> Void
    init(_ run: @escaping @Sendable () -> Void) {
        self.run = run
    }
}

/// Runs `loop` in `mode` until `condition` holds or `seconds` pass; returns whether it held.
@discardableResult
func runUntil(
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

/// Monotonic seconds.
func now() -> TimeInterval {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return TimeInterval(ts.tv_sec) + TimeInterval(ts.tv_nsec) / 1e9
}

/// A mutable value shared with `@Sendable` blocks that run on the same loop thread as the test body.
final class Ref<Value>: @unchecked Sendable {
    var value: Value
    init(_ value: Value) {
        self.value = value
    }
}
