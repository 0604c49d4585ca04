import AsyncSocketCore
import Foundation

// Write coalescing on the native engine (WriteGather.swift holds the batch and its accounting). A
// dequeued write is not sent at once: the socket asks its loop to flush before it next polls
// (EventRunLoop.runBeforePolling), and the writes queued behind it meanwhile join the batch; a full
// batch is flushed at once. Still never inside the call that queued the write.
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

    /// Sends the current write's rest and the gathered writes together, then reports them in order.
    func flushGatheredWrites() {
        guard connected, tls == nil, !gather.isAccounting, case .write = engine.currentWrite else {
            return
        }
        if let flushItem, let loop {
            loop.cancel(flushItem)
        }
        guard writableHint else {
            source?.wantsWritable = true
            return
        }
        // Closed: nothing is left to report. Moved: the new loop's write dequeues take the rest of
        // the sent bytes, write by write.
        _ = gather.flush(
            fd, engine,
            pass: {
                let generation = self.generation
                writePass()
                return goesOn(after: generation)
            },
            started: armWriteTimer)
    }
}
