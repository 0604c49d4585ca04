import CAsyncSocketShims
import CLibevent

// One libevent `event_base` per (loop, mode). libevent refuses to re-enter a running base, and a
// base cannot service a subset of its events, so each mode gets its own base: a source registered
// in two modes has one event in each base, and running a mode polls exactly that mode's events.
// Every base also watches the loop's eventfd, so a cross-thread wake-up reaches whichever base the
// loop is blocked in.
//
// Timers do not use libevent's timer heap: libevent reads CLOCK_MONOTONIC_COARSE (4 ms steps here),
// and its precise mode costs a timerfd_settime on every loop iteration. Each mode keeps its own heap
// on the precise clock and one timerfd, re-armed only when the loop is about to sleep and the
// earliest wake-up moved earlier than the one already armed.
final class ModeContext {
    let mode: RunLoopMode
    unowned let loop: EventRunLoop
    let base: OpaquePointer
    /// File sources and timers registered in this mode (the loop's "is this mode empty" answer).
    var registeredCount = 0
    var timers = TimerHeap()
    /// The mode's peer-close watches; made with the base, so a descriptor shortage later (EMFILE)
    /// cannot stop a socket from watching for its peer's close.
    private(set) var peerCloseWatch: PeerCloseWatch!
    private let wakeEvent: OpaquePointer
    private let timerFileDescriptor: Int32
    private var timerEvent: OpaquePointer?
    /// The expiry the timerfd is set to, or `nil` once it expired (or was never set).
    private var armedDeadline: UInt64?

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
        timerFileDescriptor = ask_timerfd_create()
        guard timerFileDescriptor >= 0 else {
            fatalError("EventRunLoop: timerfd_create failed: \(String(cString: strerror(ask_errno())))")
        }
        guard let wake = event_new(base, wakeFileDescriptor, Int16(EV_READ | EV_PERSIST), wakeFired, nil) else {
            fatalError("EventRunLoop: event_new failed (out of memory)")
        }
        wakeEvent = wake
        event_add(wakeEvent, nil)
        timerEvent = event_new(
            base, timerFileDescriptor, Int16(EV_READ | EV_PERSIST), timerExpired,
            Unmanaged.passUnretained(self).toOpaque())
        event_add(timerEvent, nil)
        peerCloseWatch = PeerCloseWatch(context: self)
    }

    /// Runs one libevent iteration and collects what fired into the loop's ready list. When
    /// `blocking`, it first sleeps until an event fires or `wakeAt` (a CLOCK_MONOTONIC time; `.max`
    /// for none) passes.
    func poll(blocking: Bool, wakeAt: UInt64) {
        if blocking, wakeAt != .max, armedDeadline.map({ wakeAt < $0 }) ?? true {
            ask_timerfd_arm(timerFileDescriptor, wakeAt)
            armedDeadline = wakeAt
        }
        // EVLOOP_NONBLOCK alone keeps iterating while callbacks are active (a level-triggered source
        // that nobody drains would never let it return); with EVLOOP_ONCE it is one pass.
        event_base_loop(base, blocking ? EVLOOP_ONCE : EVLOOP_ONCE | EVLOOP_NONBLOCK)
    }

    fileprivate func timerFileDescriptorExpired() {
        ask_eventfd_drain(timerFileDescriptor)
        armedDeadline = nil
    }

    /// The earliest armed timer's deadline, or `.max`.
    var nextTimerDeadline: UInt64 { timers.top?.deadline ?? .max }

    /// Fires, in deadline order, the timers due now that were armed before this call; returns whether
    /// any handler ran.
    func fireDueTimers(sequenceLimit: UInt64) -> Bool {
        guard let first = timers.top else { return false }
        let now = ask_monotonic_ns()
        guard first.deadline <= now else { return false }
        var fired = false
        while let slot = timers.top, slot.deadline <= now, slot.sequence < sequenceLimit {
            timers.remove(slot)
            if let timer = slot.timer, timer.fire(now: now) {
                fired = true
            }
        }
        return fired
    }

    /// Frees the base and the timerfd; every registration in it must already be retired.
    func invalidate() {
        peerCloseWatch.invalidate()
        event_free(wakeEvent)
        event_free(timerEvent)
        event_base_free(base)
        close(timerFileDescriptor)
    }
}

private func wakeFired(_ fd: Int32, _ what: Int16, _ argument: UnsafeMutableRawPointer?) {
    ask_eventfd_drain(fd)
}

private func timerExpired(_ fd: Int32, _ what: Int16, _ argument: UnsafeMutableRawPointer?) {
    guard let argument else { return }
    Unmanaged<ModeContext>.fromOpaque(argument).takeUnretainedValue().timerFileDescriptorExpired()
}
