import CLibevent

// One libevent `event` of a file source in one mode's `event_base`.
//
// libevent calls `eventRegistrationFired` while the base is inside `event_base_loop`; that callback
// only records the registration in the loop's ready list. User handlers run after
// `event_base_loop` returns, so a handler may run the same base again (a nested run in the same
// mode), which libevent itself forbids from inside a callback.
final class EventRegistration {
    enum Kind {
        case readable
        case writable
        case peerClosed
    }

    let kind: Kind
    unowned let context: ModeContext
    let event: OpaquePointer
    /// Whether the event is pending in its base (`event_add` without a matching `event_del`).
    var isAdded = false
    /// Cleared when the owner is cancelled or leaves this mode; a stale ready-list entry is skipped.
    var isLive = true
    var fileSource: RunLoopFileSource?

    init(kind: Kind, context: ModeContext, fileDescriptor: Int32) {
        self.kind = kind
        self.context = context
        let flags: Int32
        switch kind {
        case .readable: flags = EV_READ | EV_PERSIST
        case .writable: flags = EV_WRITE | EV_PERSIST
        case .peerClosed: flags = EV_CLOSED | EV_PERSIST
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

    /// Makes the event pending.
    func add() {
        event_add(event, nil)
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
        event_free(event)
    }
}

private func eventRegistrationFired(_ fd: Int32, _ what: Int16, _ argument: UnsafeMutableRawPointer?) {
    guard let argument else { return }
    Unmanaged<EventRegistration>.fromOpaque(argument)._withUnsafeGuaranteedRef {
        $0.context.loop.collectReady($0)
    }
}
