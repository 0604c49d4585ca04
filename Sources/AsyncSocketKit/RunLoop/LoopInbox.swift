/// What other threads hand to a loop, under the loop's lock.
struct LoopInbox {
    var items: [PerformItem] = []
    /// The loop is blocked (or about to block) in its base and needs the eventfd to wake up.
    var isSleeping = false
    /// An eventfd wake-up was written since the loop went to sleep (later posts need not write again).
    var wakePosted = false
    var stopRequested = false
    var terminateRequested = false
    var isInvalidated = false
}
