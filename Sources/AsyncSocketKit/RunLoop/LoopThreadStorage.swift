import Foundation

/// The thread-specific slot holding each thread's ``EventRunLoop``. When a thread ends, its loop is
/// invalidated there (on its own thread, as its libevent objects require) and released.
enum LoopThreadStorage {
    static let key: pthread_key_t = {
        var key = pthread_key_t()
        let rc = pthread_key_create(&key) { stored in
            guard let stored else { return }
            let loop = Unmanaged<EventRunLoop>.fromOpaque(stored).takeRetainedValue()
            loop.invalidate()
        }
        precondition(rc == 0, "EventRunLoop: pthread_key_create failed")
        return key
    }()
}
