import CAsyncSocketShims
import CLibevent

// One libevent `event_base` per (loop, mode). libevent refuses to re-enter a running base, and a
// base cannot service a subset of its events, so each mode gets its own base: a source registered
// in two modes has one event in each base, and running a mode polls exactly that mode's events.
// Every base also watches the loop's eventfd, so a cross-thread wake-up reaches whichever base the
// loop is blocked in.
final class ModeContext {
    let mode: RunLoopMode
    unowned let loop: EventRunLoop
    let base: OpaquePointer
    /// File sources and timers registered in this mode (the loop's "is this mode empty" answer).
    var registeredCount = 0
    private let wakeEvent: OpaquePointer
    private let deadlineEvent: OpaquePointer

    init(mode: RunLoopMode, loop: EventRunLoop, wakeFileDescriptor: Int32) {
        self.mode = mode
        self.loop = loop
        guard let config = event_config_new() else { fatalError("EventRunLoop: event_config_new failed") }
        defer { event_config_free(config) }
        // Each base is touched only by its loop's thread (enforced by the affinity check), so it needs
        // no lock; cross-thread wake-ups go through the loop's own eventfd.
        event_config_set_flag(config, Int32(EVENT_BASE_FLAG_NOLOCK.rawValue))
        guard let base = event_base_new_with_config(config) else {
            fatalError("EventRunLoop: event_base_new failed (out of file descriptors or memory)")
        }
        self.base = base
        guard
            let wake = event_new(base, wakeFileDescriptor, Int16(EV_READ | EV_PERSIST), wakeFired, nil),
            let deadline = event_new(base, -1, 0, deadlineFired, nil)
        else { fatalError("EventRunLoop: event_new failed (out of memory)") }
        wakeEvent = wake
        deadlineEvent = deadline
        event_add(wakeEvent, nil)
    }

    /// Runs one libevent iteration: waits (when `blocking`) until an event fires or the timeout
    /// passes, and collects what fired into the loop's ready list.
    func poll(blocking: Bool, timeoutNanoseconds: UInt64?) {
        var armed = false
        if blocking, let timeoutNanoseconds {
            var tv = timeval(nanoseconds: timeoutNanoseconds)
            event_add(deadlineEvent, &tv)
            armed = true
        }
        event_base_loop(base, blocking ? EVLOOP_ONCE : EVLOOP_NONBLOCK)
        if armed {
            event_del(deadlineEvent)
        }
    }

    /// Frees the base; every registration in it must already be retired.
    func invalidate() {
        event_free(wakeEvent)
        event_free(deadlineEvent)
        event_base_free(base)
    }
}

private func wakeFired(_ fd: Int32, _ what: Int16, _ argument: UnsafeMutableRawPointer?) {
    ask_eventfd_drain(fd)
}

private func deadlineFired(_ fd: Int32, _ what: Int16, _ argument: UnsafeMutableRawPointer?) {}
