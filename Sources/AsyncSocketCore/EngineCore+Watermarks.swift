import Foundation

// The bytes a socket holds for writing, and its optional watermarks (beyond the originals, whose write
// queues had no bound). Every byte of a write is counted from the moment it is queued until the
// transport takes it (a partial write counts down as it goes; gathered writes go through the same
// accounting, WritePasses.swift), and a close drops them all. Above the high mark the socket is not
// writable; it becomes writable again once the bytes drain to the low mark or below, and the driver
// reports that once (`takeDrainedToLowWatermark`). The marks only report: a write above the high mark is
// still queued, so a face can bound memory by waiting (the async face does) without ever losing a byte.
// Changing the marks re-decides at once, without a report: a caller that changes them reads
// `isWritable` itself.

/// A write queue's watermarks, in bytes: `0 <= low < high`.
package struct WriteMarks: Sendable, Equatable {
    package let high: Int
    package let low: Int

    package init(high: Int, low: Int) {
        self.high = high
        self.low = low
    }
}

extension EngineCore {
    /// Whether the queued write bytes are not above the high watermark (or came back down to the low
    /// one since); always with no watermarks.
    package var isWritable: Bool { !aboveWriteHighWatermark }

    /// Sets (or, with `nil`, removes) the watermarks and re-decides whether the socket is writable.
    package mutating func setWriteWatermarks(_ marks: WriteMarks?) {
        writeWatermarks = marks
        drainedToLowWatermark = false
        guard let marks else {
            aboveWriteHighWatermark = false
            return
        }
        if queuedWriteBytes > marks.high {
            aboveWriteHighWatermark = true
        } else if queuedWriteBytes <= marks.low {
            aboveWriteHighWatermark = false
        }
    }

    /// Whether the queue drained to the low watermark since the last call (reported once).
    package mutating func takeDrainedToLowWatermark() -> Bool {
        defer { drainedToLowWatermark = false }
        return drainedToLowWatermark
    }

    mutating func writeBytesQueued(_ count: Int) {
        queuedWriteBytes += count
        if let marks = writeWatermarks, queuedWriteBytes > marks.high {
            aboveWriteHighWatermark = true
        }
    }

    mutating func writeBytesSent(_ count: Int) {
        queuedWriteBytes -= count
        if aboveWriteHighWatermark, let marks = writeWatermarks, queuedWriteBytes <= marks.low {
            aboveWriteHighWatermark = false
            drainedToLowWatermark = true
        }
    }

    /// The queues were emptied (a close): nothing is held, and nothing drained to report.
    mutating func writesDropped() {
        queuedWriteBytes = 0
        aboveWriteHighWatermark = false
        drainedToLowWatermark = false
    }
}

/// What a socket holds, for the faces' `queuedWriteBytes` and friends.
package struct QueueSizes: Sendable, Equatable {
    /// Bytes of writes not sent yet.
    package var writeBytes = 0
    /// Writes not done, the current one included (a TLS start counts as one).
    package var writes = 0
    /// Reads not done, the current one included (a TLS start counts as one).
    package var reads = 0
    /// Bytes read ahead and not taken by a read.
    package var prebufferedBytes = 0
    /// Whether the write queue is within its watermarks.
    package var isWritable = true

    package init() {}
}

extension EngineCore {
    /// What the socket holds now.
    package var queueSizes: QueueSizes {
        var sizes = QueueSizes()
        sizes.writeBytes = queuedWriteBytes
        sizes.writes = queuedWriteCount + (currentWrite == nil ? 0 : 1)
        sizes.reads = queuedReadCount + (currentRead == nil ? 0 : 1)
        sizes.prebufferedBytes = prebufferedCount
        sizes.isWritable = isWritable
        return sizes
    }
}
