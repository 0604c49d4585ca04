/// A block waiting for its loop to run in one of its modes.
///
/// `perform(inModes:_:)` makes a new item per call; a socket keeps one item per deferred action and
/// schedules it again and again, so its hot path allocates nothing. An item is handed from another
/// thread to its loop only through the loop's locked inbox, and is then used by the loop's thread
/// alone, hence `@unchecked Sendable`.
final class PerformItem: @unchecked Sendable {
    var modes: [RunLoopMode]
    let action: () -> Void
    /// Set while the item waits in a loop's queue; clearing it (``EventRunLoop/cancel(_:)``) cancels it.
    var isScheduled = false
    /// Bumped on every schedule and cancel, so a stale queue entry of a rescheduled item is skipped.
    var generation: UInt32 = 0

    init(modes: [RunLoopMode], action: @escaping () -> Void) {
        self.modes = modes
        self.action = action
    }
}

/// A queue entry: the item, the generation it was queued with, and its place in arrival order.
struct QueuedPerform {
    let item: PerformItem
    let generation: UInt32
    let sequence: UInt64

    var isCurrent: Bool { item.isScheduled && item.generation == generation }
}
