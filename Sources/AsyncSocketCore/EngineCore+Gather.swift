import Foundation

// Gathered writes, for a driver that sends several writes with one system call (writev/sendmsg).
//
// The current write stays the only one the engine reports (progress, timeout, partial and complete
// callbacks). `gatherQueuedWrites` moves the plain writes queued right behind it (never past a TLS
// marker) into a batch whose bytes the driver sends together with the current write's rest. The
// driver then accounts what was sent with ordinary write passes, item by item in FIFO order: a pass
// completes the current write, `dequeueWrite` makes the next gathered write current (before any
// still queued), and so on. A gathered write never completes before every write ahead of it.
extension EngineCore {
    /// How many writes are gathered behind the current one.
    package var gatheredCount: Int { gathered.count }

    /// Whether the next queued entry is a plain write (one a gathered flush would take).
    package var nextQueuedIsWrite: Bool {
        if case .write? = writeQueue.first { return true }
        return false
    }

    /// The gathered write at `index` (0: the one right behind the current write).
    package func gatheredWrite(at index: Int) -> WriteItem { gathered[index] }

    /// Moves writes queued behind the current plain write into the batch while the batch stays within
    /// `itemLimit` writes (the current one included) and its unsent bytes within `byteLimit`. Returns
    /// the batch's unsent bytes, or 0 when the current entry is not a plain write.
    @discardableResult
    mutating func gatherQueuedWrites(byteLimit: Int, itemLimit: Int) -> Int {
        guard case .write(let current) = currentWrite else { return 0 }
        var pending = current.data.count - writeDone + gatheredBytes
        while gathered.count + 1 < itemLimit, pending < byteLimit, case .write(let next)? = writeQueue.first {
            writeQueue.removeFirst()
            gathered.append(next)
            gatheredBytes += next.data.count
            pending += next.data.count
        }
        return pending
    }
}
