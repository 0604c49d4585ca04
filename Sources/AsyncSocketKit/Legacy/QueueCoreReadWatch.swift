import AsyncSocketCore
import Foundation

// Where a queue-core connection learns that its descriptor can be read: from its loop, through the
// file source the backend already keeps on the descriptor for the peer's close, not from a dispatch
// read source. Readiness from libdispatch reached the loop through its manager thread and a worker,
// about five thread wake-ups per ping-pong round trip where the native engine needs one
// (Benchmarks/QUEUE-CORE.md); from the loop, the read pass runs on the loop's thread (on the socket
// queue, through `sync`), and its callbacks join the loop's batch without a hop.
//
// The socket says what it wants on its socket queue, from any thread; the file source is touched on
// the loop's thread only. What is wanted is kept behind the lock, and the loop applies the latest
// value whenever it is told to (a request may arrive after a later one was applied: applying the
// latest value again is harmless), so requests made on different threads never leave the source in
// an older state than the socket's.

/// Whether a queue-core connection's loop watches its descriptor for bytes to read.
package final class QueueCoreReadWatch: @unchecked Sendable {
    // @unchecked Sendable: `shared` is behind a `Lock`; `source` is touched on its loop's thread only.
    private struct Shared {
        var wanted = false
        var loop: EventRunLoop?
        var modes: [RunLoopMode] = [.default]
    }
    private let shared = Lock(Shared())
    /// The backend's file source on the descriptor (loop thread only).
    private var source: RunLoopFileSource?

    package init() {}

    /// Watches for bytes (or stops), from the socket queue on any thread: at once on the loop's own
    /// thread, through a perform from elsewhere; with no loop yet, when the source is attached.
    package func want(_ readable: Bool) {
        let (loop, modes) = shared.withLock { shared -> (EventRunLoop?, [RunLoopMode]) in
            shared.wanted = readable
            return (shared.loop, shared.modes)
        }
        guard let loop else { return }
        if loop.isCurrent {
            apply()
        } else {
            loop.perform(inModes: modes) { [self] in apply() }
        }
    }

    /// Whether bytes are wanted now (read on the loop, as a fired source is handled).
    package var isWanted: Bool { shared.withLock { $0.wanted } }

    /// The source the loop watches the descriptor with (on its loop's thread); applies what is wanted.
    package func attach(_ source: RunLoopFileSource) {
        self.source = source
        shared.withLock {
            $0.loop = source.loop
            $0.modes = source.modes
        }
        apply()
    }

    /// The source is being cancelled (on its loop's thread).
    package func detach() {
        source = nil
        shared.withLock { $0.loop = nil }
    }

    /// The source's modes changed (on its loop's thread).
    package func setModes(_ modes: [RunLoopMode]) {
        shared.withLock { $0.modes = modes }
    }

    /// Brings the source to what is wanted now (on the loop's thread; a perform that arrives on a loop
    /// the source has left does nothing).
    package func apply() {
        guard let source, !source.isCancelled, source.loop.isCurrent else { return }
        source.wantsReadable = isWanted
    }
}
