import CLibevent

// One libevent `event` of a source or timer in one mode's `event_base`.
//
// libevent calls `eventRegistrationFired` while the base is inside `event_base_loop`; that callback
// only records the registration in the loop's ready list. User handlers run after
// `event_base_loop` returns, so a handler may run the same base again (a nested run in the same
// mode), which libevent itself forbids from inside a callback.
final class EventRegistration {
    enum Kind {
        case readable
        case writable
        case timer
    }

    let kind: Kind
    unowned let context: ModeContext
    let event: OpaquePointer
    /// Whether the event is pending in its base (`event_add` without a matching `event_del`).
    var isAdded = false
    /// Cleared when the owner is cancelled or leaves this mode; a stale ready-list entry is skipped.
    var isLive = true
    var fileSource: RunLoopFileSource?
    var timer: RunLoopTimer?

    init(kind: Kind, context: ModeContext, fileDescriptor: Int32) {
        self.kind = kind
        self.context = context
        let flags: Int32
        switch kind {
        case .readable: flags = EV_READ | EV_PERSIST
        case .writable: flags = EV_WRITE | EV_PERSIST
        case .timer: flags = 0
        }
        // The callback argument is filled in by `event_assign` below, once `self` exists.
        guard let event = event_new(context.base, fileDescriptor, Int16(flags), eventRegistrationFired, nil)
        else {
            fatalError("EventRunLoop: event_new failed (out of memory)")
        }
        self.event = event
        event_assign(
            event, context.base, fileDescriptor, Int16(flags), eventRegistrationFired,
            Unmanaged.passUnretained(self).toOpaque())
    }

    /// Makes the event pending; a timer with `timeoutNanoseconds` from now.
    func add(timeoutNanoseconds: UInt64? = nil) {
        if var tv = timeoutNanoseconds.map(timeval.init(nanoseconds:)) {
            event_add(event, &tv)
        } else {
            event_add(event, nil)
        }
        isAdded = true
    }

    func remove() {
        guard isAdded else { return }
        event_del(event)
        isAdded = false
    }

    /// Removes the event for good; a ready-list entry that still refers to it is ignored.
    func retire() {
        remove()
        isLive = false
        fileSource = nil
        timer = nil
        event_free(event)
    }
}

private func eventRegistrationFired(_ fd: Int32, _ what: Int16, _ argument: UnsafeMutableRawPointer?) {
    guard let argument else { return }
    let registration = Unmanaged<EventRegistration>.fromOpaque(argument).takeUnretainedValue()
    if registration.kind == .timer {
        registration.isAdded = false
    }
    registration.context.loop.collectReady(registration)
}

extension timeval {
    init(nanoseconds: UInt64) {
        self.init(
            tv_sec: Int(nanoseconds / 1_000_000_000),
            tv_usec: Int((nanoseconds % 1_000_000_000) / 1_000))
    }
}
