import Foundation

// A lock around a value, on pthread_mutex. Synchronization.Mutex would do, but on Linux it is built
// on raw futexes that ThreadSanitizer cannot see, so every handover through it reads as a race;
// pthread mutexes are intercepted, which keeps `swift test --sanitize=thread` meaningful.
final class Lock<Value>: @unchecked Sendable {
    private var mutex = pthread_mutex_t()
    private var value: Value

    init(_ value: Value) {
        self.value = value
        pthread_mutex_init(&mutex, nil)
    }

    deinit {
        pthread_mutex_destroy(&mutex)
    }

    /// Runs `body` with the value, holding the lock.
    func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        pthread_mutex_lock(&mutex)
        defer { pthread_mutex_unlock(&mutex) }
        return try body(&value)
    }
}
