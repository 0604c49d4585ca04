import AsyncSocketCore
import Dispatch
import Synchronization

// Entries handed from any thread to one dispatch queue and handled there in the order they came, without
// an allocation per hand-off. A closure literal given to `async` costs two (its context and the block
// libdispatch copies it into); the block here is made once, and `dispatch_async` only retains it. The
// array a drain took comes back, emptied with its capacity, as the next one's. At most one drain is
// scheduled at a time: entries posted while one waits join it, so a burst is one thread wake-up. A
// scheduled drain keeps the mailbox and its owner alive, as a dispatched closure capturing them did,
// so what was posted is handled even when the owner's last other reference goes meanwhile
// (Benchmarks/UDP.md, "At d68c6bc"). `unscheduled` is set under the lock, so a thread that
// reads 0 there either comes after a `schedule()` (and dispatches behind that drain) or before the post.
package final class DispatchMailbox<Entry: Sendable>: @unchecked Sendable {
    // @unchecked Sendable: `drainBlock` is written once, in `init`, before the object is shared; `owner`
    // and `queue` are constants; everything else lives in `state`, touched only under its lock.
    private struct State {
        var entries: [Entry] = []
        var spare: [Entry] = []
        /// The mailbox and its owner while a drain is scheduled: what keeps both alive until it runs.
        var scheduled: (mailbox: AnyObject, owner: AnyObject)?
    }

    /// The queue the entries are handled on.
    package let queue: DispatchQueue
    private unowned let owner: AnyObject
    private let state = Lock(State())
    private let unscheduled = Atomic<Int>(0)
    private let handle: ([Entry]) -> Void
    // Not optional: the runtime could not make the metadata of an optional block type on Linux (a crash
    // in `swift_initEnumMetadataSinglePayload` when one crossed a generic call).
    private var drainBlock: @Sendable @convention(block) () -> Void = {}

    /// A mailbox whose entries `handle` takes on `queue`, in order. `owner` is kept alive while a
    /// drain is scheduled; `handle` should hold it `unowned`, so that the owner can keep the mailbox.
    package init(queue: DispatchQueue, owner: AnyObject, handle: @escaping ([Entry]) -> Void) {
        self.queue = queue
        self.owner = owner
        self.handle = handle
        drainBlock = { [unowned self] in drain() }
    }

    /// Adds `entry` without scheduling a drain (``schedule()`` does); returns how many wait.
    @discardableResult
    package func post(_ entry: Entry) -> Int {
        state.withLock { state in
            state.entries.append(entry)
            unscheduled.store(state.entries.count, ordering: .releasing)
            return state.entries.count
        }
    }

    /// Whether entries were posted since the last ``schedule()``.
    package var hasUnscheduled: Bool { unscheduled.load(ordering: .acquiring) > 0 }

    /// Schedules a drain on ``queue`` unless none is needed (nothing waits) or one is scheduled. The
    /// `async` is issued under the lock: a caller that then finds a drain scheduled, and dispatches to
    /// the same queue, is queued behind it.
    package func schedule() {
        state.withLock { scheduleLocked(&$0) }
    }

    /// Adds `entries` (leaving the array empty, its capacity kept) and schedules a drain, for a mailbox
    /// only one thread at a time fills: one lock for a batch, and the `async` issued after it is
    /// released (under it, the drain starting on another core waited for the thread wake-up in `async`,
    /// Benchmarks/UDP.md). No other thread's order depends on it.
    package func send(contentsOf entries: inout [Entry]) {
        guard !entries.isEmpty else { return }
        let schedules = state.withLock { state in
            state.entries.append(contentsOf: entries)
            guard state.scheduled == nil else { return false }
            state.scheduled = (self, owner)
            return true
        }
        entries.removeAll(keepingCapacity: true)
        if schedules { queue.async(execute: drainBlock) }
    }

    private func scheduleLocked(_ state: inout State) {
        defer { unscheduled.store(0, ordering: .releasing) }
        guard state.scheduled == nil, !state.entries.isEmpty else { return }
        state.scheduled = (self, owner)
        queue.async(execute: drainBlock)
    }

    /// Drops what waits, not yet taken by a drain.
    package func removeAll() {
        state.withLock { state in
            state.entries.removeAll(keepingCapacity: true)
            unscheduled.store(0, ordering: .releasing)
        }
    }

    private func drain() {
        var taken: [Entry] = []
        let kept = state.withLock { state in
            swap(&taken, &state.spare)
            swap(&taken, &state.entries)
            defer { state.scheduled = nil }
            return state.scheduled
        }
        handle(taken)
        taken.removeAll(keepingCapacity: true)
        state.withLock { state in
            if state.spare.capacity < taken.capacity { swap(&state.spare, &taken) }
        }
        withExtendedLifetime(kept) {}
    }
}
