import AsyncSocketCore
import Dispatch

// The queue-core engine's DatagramWatch: libdispatch watches the descriptor (a UdpChannel on the
// socket's serial queue) and each readiness is carried to the socket's loop, in its modes, where the
// socket reads or writes as on the native engine. A source is suspended from the moment it fires
// until the loop has handled the event, so a descriptor that stays readable costs one hop per loop
// pass rather than one per libdispatch wake-up. What the loop wants reaches libdispatch only on the
// queue, where the channel lives. A disarmed timer in the socket's modes stands for the descriptor on
// the loop, as the native engine's file source does: while the socket is open, `run()` does not
// return for want of sources.

/// Readiness of one datagram descriptor from libdispatch, delivered on the socket's loop thread.
final class DispatchDatagramWatch: DatagramWatch, @unchecked Sendable {
    // @unchecked Sendable: what the loop's thread and the queue share is behind `shared`'s lock;
    // `channel` and `inFlight` are touched only on `queue` (serial); `handler` runs only on the
    // loop's thread, from blocks the loop runs, as does `presence`; `loop` and `queue` are constants.
    private struct Shared {
        var wantsReadable = false
        var wantsWritable = false
        var modes: [RunLoopMode]
        var stopped = false
    }

    private let queue: DispatchQueue
    private let loop: EventRunLoop
    private let handler: (RunLoopFileSource.Event) -> Void
    private let shared: Lock<Shared>
    private var channel: UdpChannel?
    private var inFlight = (read: false, write: false)
    private var presence: RunLoopTimer?

    /// Watches `fd` on `queue` (serial), delivering to `handler` on `loop`'s thread in `modes`.
    init(
        _ fd: Int32, queue: DispatchQueue, loop: EventRunLoop, modes: [RunLoopMode],
        _ handler: @escaping (RunLoopFileSource.Event) -> Void
    ) {
        self.queue = queue
        self.loop = loop
        self.handler = handler
        shared = Lock(Shared(modes: modes))
        presence = loop.addReusableTimer(modes: modes) { _ in }
        queue.async { [self] in
            channel = UdpChannel(
                fd: fd, queue: queue, readable: { [weak self] in self?.fired(read: true) },
                writable: { [weak self] in self?.fired(read: false) })
            apply()
        }
    }

    deinit {
        // Every path through the socket stops the watch first; should one not, the sources must not
        // be released suspended (libdispatch stops the program). The channel is cancelled on the
        // queue, where its read source's handler may be running (it reads what the cancel changes).
        guard let channel else { return }
        let leftover = LeftoverChannel(channel)
        queue.async { leftover.channel.cancel(closing: false) }
    }

    var wantsReadable: Bool {
        get { shared.withLock { $0.wantsReadable } }
        set { change { $0.wantsReadable = newValue } }
    }

    var wantsWritable: Bool {
        get { shared.withLock { $0.wantsWritable } }
        set { change { $0.wantsWritable = newValue } }
    }

    func setModes(_ modes: [RunLoopMode]) {
        shared.withLock { $0.modes = modes }
        presence?.setModes(modes)
    }

    func stop(closing: Bool) {
        presence?.invalidate()
        presence = nil
        stopWatching(closing: closing)
    }

    func closeAfterLoopEnded() {
        stopWatching(closing: true)
    }

    /// Waits for the queue (which never waits for the loop), so the socket is gone when it returns.
    private func stopWatching(closing: Bool) {
        shared.withLock { $0.stopped = true }
        queue.sync {
            channel?.cancel(closing: closing)
            channel = nil
        }
    }

    /// Applies a change of what the loop wants; libdispatch hears of it only when it changed.
    private func change(_ body: (inout Shared) -> Void) {
        let changed = shared.withLock { shared -> Bool in
            let before = (shared.wantsReadable, shared.wantsWritable)
            body(&shared)
            return before != (shared.wantsReadable, shared.wantsWritable)
        }
        if changed {
            queue.async { [self] in apply() }
        }
    }

    /// Resumes the sources the loop wants and has no event on its way for; suspends the others.
    /// On the queue.
    private func apply() {
        let (read, write) = shared.withLock { ($0.wantsReadable, $0.wantsWritable) }
        channel?.watchReadable(read && !inFlight.read)
        channel?.watchWritable(write && !inFlight.write)
    }

    /// A source fired: it stays suspended while the event travels to the loop and is handled there.
    /// On the queue.
    private func fired(read: Bool) {
        if read {
            inFlight.read = true
            channel?.watchReadable(false)
        } else {
            inFlight.write = true
            channel?.watchWritable(false)
        }
        let (modes, stopped) = shared.withLock { ($0.modes, $0.stopped) }
        guard !stopped else { return }
        // Dropped when the loop's thread has ended: the socket can no longer be used anyway.
        _ = loop.performFromAnotherThread(inModes: modes) { [self] in
            if !shared.withLock({ $0.stopped }) {
                handler(read ? .readable : .writable)
            }
            queue.async { [self] in
                if read { inFlight.read = false } else { inFlight.write = false }
                apply()
            }
        }
    }
}

/// A channel handed from a watch's deinit to its queue.
private final class LeftoverChannel: @unchecked Sendable {
    // @unchecked Sendable: made in the deinit of the watch that was the channel's only owner, and
    // used only by the one block it is handed to, on the channel's queue.
    let channel: UdpChannel

    init(_ channel: UdpChannel) {
        self.channel = channel
    }
}
