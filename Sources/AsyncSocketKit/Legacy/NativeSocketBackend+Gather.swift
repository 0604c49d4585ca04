import AsyncSocketCore
import CAsyncSocketShims
import Foundation

// Write coalescing (native engine, plain TCP; TLS writes go out one by one as before). A dequeued
// write is not sent at once: the socket asks its loop to flush before it next polls
// (EventRunLoop.runBeforePolling), and the writes queued behind it meanwhile join the batch
// (SocketEngine+Gather.swift). The flush sends the whole batch with one sendmsg over an iovec array
// the socket keeps, then accounts what was sent with ordinary write passes, write by write in FIFO
// order (`write(_:)` hands out the sent bytes instead of sending while `sentByGather` is set). So
// partial and complete callbacks, timeouts and disconnectAfterWriting are what they would be had each
// write gone out alone — only later, and still never inside the call that queued the write. A batch
// of 64 KiB or 64 writes is flushed at once.
extension NativeSocketBackend {
    static let gatherByteLimit = 64 * 1024
    static let gatherItemLimit = 64

    /// The current write waits to be sent: takes the writes queued behind it into its batch, then
    /// flushes now (a full batch) or before the loop next polls.
    func gatherWrites() {
        guard writableHint else {
            source?.wantsWritable = true
            return
        }
        let pending = engine.gatherQueuedWrites(byteLimit: Self.gatherByteLimit, itemLimit: Self.gatherItemLimit)
        if pending >= Self.gatherByteLimit || engine.gatheredCount + 1 >= Self.gatherItemLimit {
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
        guard connected, tls == nil, sentByGather == nil, case .write(let current) = engine.currentWrite else {
            return
        }
        if let flushItem, let loop {
            loop.cancel(flushItem)
        }
        guard writableHint else {
            source?.wantsWritable = true
            return
        }
        engine.gatherQueuedWrites(byteLimit: Self.gatherByteLimit, itemLimit: Self.gatherItemLimit)
        let (sent, code) = sendBatch(current)
        if sent >= 0 {
            sentByGather = sent
            gatherError = 0
        } else {
            sentByGather = 0
            gatherError = code == EAGAIN || code == EWOULDBLOCK ? 0 : code
        }
        while sentByGather != nil {
            let generation = self.generation
            doSendBytes()
            // Closed: nothing is left to report. Moved: the new loop's write dequeues take the rest
            // of the sent bytes, write by write.
            guard goesOn(after: generation) else { return }
            guard engine.currentWrite == nil, engine.gatheredCount > 0,
                case .started(let timeout) = engine.dequeueWrite()
            else { break }
            armWriteTimer(timeout)
        }
        sentByGather = nil
    }

    /// What a write pass gets while a gathered send is accounted: the next of the bytes it sent; once
    /// they are used up, the send's error or "would block" (the send stopped short there).
    func takeGatheredCredit(_ credit: Int, upTo count: Int) -> TransportWriteResult {
        guard credit > 0 else {
            sentByGather = nil
            return gatherError != 0 ? .failed(gatherError) : .wouldBlock
        }
        let taken = min(credit, count)
        sentByGather = credit - taken
        return .bytes(taken)
    }

    private func sendBatch(_ current: WriteItem) -> (Int, Int32) {
        let count = 1 + engine.gatheredCount
        if count == 1 {
            return current.data.withUnsafeBytes { bytes in
                SocketOps.send(fd, UnsafeRawBufferPointer(rebasing: bytes[current.bytesDone...]))
            }
        }
        let vectors: UnsafeMutablePointer<iovec>
        if let existing = writeVectors {
            vectors = existing
        } else {
            vectors = .allocate(capacity: Self.gatherItemLimit)
            writeVectors = vectors
        }
        return fillVectors(from: 0, count: count, current: current, vectors: vectors)
    }

    /// Points `vectors[index...]` at the unsent bytes of each write (each `Data` pinned by a nested
    /// `withUnsafeBytes`, so no bytes are copied), then sends them.
    private func fillVectors(
        from index: Int, count: Int, current: WriteItem, vectors: UnsafeMutablePointer<iovec>
    ) -> (Int, Int32) {
        guard index < count else {
            return SocketOps.send(fd, vectors, count: count)
        }
        let item = index == 0 ? current : engine.gatheredWrite(at: index - 1)
        return item.data.withUnsafeBytes { bytes in
            let unsent = UnsafeRawBufferPointer(rebasing: bytes[item.bytesDone...])
            vectors[index] = iovec(
                iov_base: UnsafeMutableRawPointer(mutating: unsent.baseAddress), iov_len: unsent.count)
            return fillVectors(from: index + 1, count: count, current: current, vectors: vectors)
        }
    }
}
