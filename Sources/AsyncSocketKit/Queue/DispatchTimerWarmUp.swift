import Dispatch

// libdispatch on Linux makes the timerfd behind its timers the first time one is armed in the
// process; if that fails (no descriptor left) it carries on silently and the timer never fires
// (swift-corelibs-libdispatch, `src/event/event_epoll.c`, `_dispatch_timeout_program`). A listener that
// runs out of descriptors pauses on such a timer (ListenerDriver.swift) and would never accept again,
// and a read, write or connect timeout armed then would never fire. So the first QueueSocket (every
// socket on the dispatch scheduler is one) arms a timer 5 ms ahead and waits for it (at most 1 s):
// libdispatch arms timers on its own thread, after the call that asked, and only a timer that has
// fired shows that its timerfd exists. The descriptor stays open for the life of the process.

/// Makes libdispatch create its timer descriptor before any socket needs a timer.
enum DispatchTimerWarmUp {
    /// Evaluated once, by the first QueueSocket (Swift initializes a static once, thread-safely).
    static let done: Bool = {
        let fired = DispatchSemaphore(value: 0)
        let timer = DispatchSource.makeTimerSource(queue: .global())
        timer.setEventHandler { fired.signal() }
        timer.schedule(deadline: .now() + .milliseconds(5))
        timer.activate()
        let result = fired.wait(timeout: .now() + 1) == .success
        timer.cancel()
        return result
    }()
}
