import CAsyncSocketShims
import Foundation

/// "'name' (tid N)" for messages about threads.
struct ThreadDescription: CustomStringConvertible {
    let thread: pthread_t
    let threadID: Int32

    static func current() -> ThreadDescription {
        ThreadDescription(thread: pthread_self(), threadID: ask_gettid())
    }

    var description: String {
        var buffer = [CChar](repeating: 0, count: 32)
        ask_thread_name(thread, &buffer, buffer.count)
        let name = buffer.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
        let isMain = pthread_equal(thread, ask_main_pthread()) != 0
        return "'\(name.isEmpty ? "?" : name)' (tid \(threadID)\(isMain ? ", main" : ""))"
    }
}
