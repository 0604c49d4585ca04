import CAsyncSocketShims
import CLibevent

// The peer-close registrations of one mode, in an epoll set of their own.
//
// A socket with unread bytes and no read waiting is watched only for the peer's close. libevent's
// EV_CLOSED cannot do that job: it reports a reset (EPOLLERR | EPOLLHUP) as EV_READ | EV_WRITE only,
// so the source never heard of the reset, and the level-triggered epoll entry, reported on every
// pass with nobody interested, made the loop spin at full CPU. Here the watched descriptors sit in
// a separate epoll set that asks only for EPOLLRDHUP (EPOLLHUP and EPOLLERR always come too), never
// for readable bytes; the mode's base watches that set's descriptor as one readable source and
// hands each ready registration to the loop's ready list. Level-triggered like the rest: a watch
// that stays wanted fires again on the next pass.
final class PeerCloseWatch {
    unowned let context: ModeContext
    private let epollFileDescriptor: Int32
    private var event: OpaquePointer?
    private var registrations: [UInt64: EventRegistration] = [:]
    private var tokens: [ObjectIdentifier: UInt64] = [:]
    private var nextToken: UInt64 = 1

    init(context: ModeContext) {
        self.context = context
        epollFileDescriptor = ask_epoll_create()
        guard epollFileDescriptor >= 0 else {
            fatalError("EventRunLoop: epoll_create failed: \(String(cString: strerror(ask_errno())))")
        }
        event = event_new(
            context.base, epollFileDescriptor, Int16(EV_READ | EV_PERSIST), peerCloseWatchFired,
            Unmanaged.passUnretained(self).toOpaque())
        event_add(event, nil)
    }

    /// Watches the registration's descriptor (a descriptor already closed is simply never ready).
    func add(_ registration: EventRegistration) {
        let token = nextToken
        nextToken += 1
        registrations[token] = registration
        tokens[ObjectIdentifier(registration)] = token
        _ = ask_epoll_watch_close(epollFileDescriptor, registration.fileDescriptor, token)
    }

    func remove(_ registration: EventRegistration) {
        guard let token = tokens.removeValue(forKey: ObjectIdentifier(registration)) else { return }
        registrations[token] = nil
        _ = ask_epoll_unwatch(epollFileDescriptor, registration.fileDescriptor)
    }

    fileprivate func collect() {
        withUnsafeTemporaryAllocation(of: UInt64.self, capacity: 64) { ready in
            let count = ask_epoll_ready(epollFileDescriptor, ready.baseAddress!, Int32(ready.count))
            for token in ready.prefix(max(0, Int(count))) {
                if let registration = registrations[token] {
                    context.loop.collectReady(registration)
                }
            }
        }
    }

    /// Frees the event and the epoll set; every registration must already be removed.
    func invalidate() {
        event_free(event)
        event = nil
        close(epollFileDescriptor)
    }
}

private func peerCloseWatchFired(_ fd: Int32, _ what: Int16, _ argument: UnsafeMutableRawPointer?) {
    guard let argument else { return }
    Unmanaged<PeerCloseWatch>.fromOpaque(argument).takeUnretainedValue().collect()
}
