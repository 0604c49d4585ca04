import AsyncSocketCore
import Foundation

// Write coalescing on the native engine (WriteGather.swift holds the batch and its accounting). A
// dequeued write is not sent at once: the socket asks its loop to flush before it next polls
// (EventRunLoop.runBeforePolling), and the writes queued behind it meanwhile join the batch; a full
// batch is flushed at once. Still never inside the call that queued the write. The flush itself is
// the driver's (WritePasses.swift).
extension NativeSocketBackend {
    /// The current write waits to be sent: takes the writes queued behind it into its batch, then
    /// flushes now (a full batch) or before the loop next polls.
    func gatherWrites() {
        guard writableHint else {
            source?.wantsWritable = true
            return
        }
        if gather.gather(engine) {
            flushGatheredWrites()
            return
        }
        guard let loop else { return }
        if flushItem == nil {
            flushItem = PerformItem(modes: modes) { [self] in flushGatheredWrites() }
        }
        loop.runBeforePolling(flushItem!)
    }

    /// The batch goes out now: the flush put off to before the next poll is not needed.
    func gatheredWritesFlushing() {
        if let flushItem, let loop {
            loop.cancel(flushItem)
        }
    }
}
