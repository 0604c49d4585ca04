import AsyncSocketCore
import Foundation

// Write coalescing on QueueSocket (plain TCP; WriteGather.swift holds the batch and its accounting).
// When a write becomes current, the writes queued behind it go out with it in one system call; the
// write passes that account for the batch then make each gathered write current in turn, in order,
// on the socket queue. The asynchronous dequeue GCD does after a completed write happens once, after
// the batch.
extension QueueSocket {
    /// Sends the current write: with the writes queued behind it (plain TCP), or alone through a
    /// write pass (TLS, or a batch still being accounted for).
    func flushGatheredWrites() {
        guard tls == nil, !gather.isAccounting else { return writePass() }
        guard fd >= 0, case .write = engine.currentWrite, !writesPaused else { return }
        guard writableHint else {
            resumeWriteSource()
            return
        }
        let index = stateIndex
        let accounted = gather.flush(
            fd, engine,
            pass: {
                writePass()
                return index == stateIndex
            },
            started: armWriteTimer)
        guard accounted, engine.currentWrite == nil else { return }
        if engine.queuedWriteCount > 0 || engine.disconnectsAfterWriting {
            async { [self] in maybeDequeueWrite() }
        }
    }
}
