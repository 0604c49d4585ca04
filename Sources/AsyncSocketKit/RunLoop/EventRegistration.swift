import CLibevent

// One registration of a file source in one mode: a libevent `event` in the mode's `event_base` for
// readable and writable, an entry in the mode's PeerCloseWatch for the peer's close.
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
    let fileDescriptor: Int32
    /// The libevent event (readable and writable registrations only).
    private let event: OpaquePointer?
    /// Whether the event is pending in its base (`event_add` without a matching `event_del`), or
    /// the descriptor is in the mode's close watch.
    var isAdded = false
    /// Cleared when the owner is cancelled or leaves this mode; a stale ready-list entry is skipped.
    var isLive = true
    var fileSource: RunLoopFileSource?

    init(kind: Kind, context: ModeContext, fileDescriptor: Int32) {
        self.kind = kind
        self.context = context
        self.fileDescriptor = fileDescriptor
        let flags: Int32
        switch kind {
        case .readable: flags = EV_READ | EV_PERSIST
        case .writable: flags = EV_WRITE | EV_PERSIST
        case .peerClosed:
            event = nil
            return
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
        if let event {
            event_add(event, nil)
        } else {
            context.peerCloseWatch.add(self)
        }
        isAdded = true
    }

    func remove() {
        guard isAdded else { return }
        if let event {
            event_del(event)
        } else {
            context.peerCloseWatch.remove(self)
        }
        isAdded = false
    }

    /// Removes the event for good; a ready-list entry that still refers to it is ignored.
    func retire() {
        remove()
        isLive = false
        fileSource = nil
        if let event {
            event_free(event)
        }
    }
}

private func eventRegistrationFired(_ fd: Int32, _ what: Int16, _ argument: UnsafeMutableRawPointer?) {
    guard let argument else { return }
    Unmanaged<EventRegistration>.fromOpaque(argument)._withUnsafeGuaranteedRef {
        $0.context.loop.collectReady($0)
    }
}
