import Foundation

// The package's one lock: a value behind a pthread mutex. Synchronization.Mutex would do, but on
// Linux it is built on raw futexes that ThreadSanitizer cannot see, so every handover through it
// reads as a race; pthread mutexes are intercepted, which keeps `swift test --sanitize=thread`
// meaningful. The mutex is allocated, not a stored property: pthread needs a stable address, and
// Swift does not promise one for `&storedProperty` (NIOLock allocates for the same reason).

/// A value that is read and written only while holding its lock.
package final class Lock<Value>: @unchecked Sendable {
    // @unchecked Sendable: `value` is touched only inside `withLock`, between lock and unlock of
    // `mutex`, so no two threads access it at once.
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    // The mutex already makes every access to `value` exclusive: another thread waits for it, and
    // the same thread cannot reach `value` again inside `body` without locking twice (a deadlock
    // before any overlap). Debug builds keep the run-time exclusivity check all the same; release
    // builds skip it, a runtime call and a thread-local lookup per `withLock` (Benchmarks/PROFILE.md).
    #if DEBUG
        private var value: Value
    #else
        @exclusivity(unchecked) private var value: Value
    #endif

    package init(_ value: Value) {
        self.value = value
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        let rc = pthread_mutex_init(mutex, nil)
        precondition(rc == 0, "pthread_mutex_init failed: \(rc)")
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deinitialize(count: 1)
        mutex.deallocate()
    }

    /// Runs `body` with the value, holding the lock.
    package func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body(&value)
    }
}

extension Lock where Value == Void {
    /// A lock guarding state kept elsewhere (the caller's stored properties).
    package convenience init() {
        self.init(())
    }

    /// Runs `body` holding the lock.
    package func withLock<Result>(_ body: () throws -> Result) rethrows -> Result {
        try withLock { (_: inout Void) in try body() }
    }
}
