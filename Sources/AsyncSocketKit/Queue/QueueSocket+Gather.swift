import AsyncSocketCore
import Foundation

// Write coalescing on QueueSocket (plain TCP; WriteGather.swift holds the batch and its accounting).
// When a write becomes current, the writes queued behind it go out with it in one system call; the
// write passes that account for the batch then make each gathered write current in turn, in order,
// on the socket queue. The asynchronous dequeue GCD does after a completed write happens once, after
// the batch.
extension QueueSocket {
    func flushGatheredWrites() {
        guard fd >= 0, case .write = engine.currentWrite, !writesPaused else { return }
        guard writableHint else {
            resumeWriteSource()
            return
        }
        gather.send(fd, engine)
        let index = stateIndex
        while gather.isAccounting {
            doWriteData()
            guard index == stateIndex, engine.currentWrite == nil, engine.gatheredCount > 0,
                case .start(let timeout) = engine.nextWrite()
            else { break }
            armWriteTimer(timeout)
        }
        gather.end()
        guard index == stateIndex, engine.currentWrite == nil else { return }
        if engine.queuedWriteCount > 0 || engine.disconnectsAfterWriting {
            async { [self] in maybeDequeueWrite() }
        }
    }
}
