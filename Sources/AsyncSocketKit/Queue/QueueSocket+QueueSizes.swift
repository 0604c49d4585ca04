import AsyncSocketCore
import Foundation

// What the socket holds, and the write queue's watermarks (Net/WriteWatermarks.swift); beyond
// GCDAsyncSocket, whose queues had no visible size. Read on the socket queue, so a value is the state
// between two passes. The watermarks are kept across a disconnect, like the other settings.
extension QueueSocket {
    /// Bytes of the queued writes (the one being sent included) not sent yet.
    public var queuedWriteBytes: Int { sync { engine.queueSizes.writeBytes } }
    /// Writes not done yet, the one being sent included (a `startTLS` counts as one).
    public var queuedWriteCount: Int { sync { engine.queueSizes.writes } }
    /// Reads not done yet, the current one included (a `startTLS` counts as one).
    public var queuedReadCount: Int { sync { engine.queueSizes.reads } }
    /// Bytes read ahead from the peer that no read has taken yet.
    public var prebufferedBytes: Int { sync { engine.queueSizes.prebufferedBytes } }
    /// `false` from the moment the queued write bytes go above the high watermark until they drain to
    /// the low one (``QueueSocketDelegate/socketDidBecomeWritable(_:)``); always `true` without marks.
    public var isWritable: Bool { sync { engine.isWritable } }

    /// The write queue's watermarks, if set.
    public var writeWatermarks: WriteWatermarks? { sync { engine.writeWatermarks.map(WriteWatermarks.init) } }

    /// Sets the write queue's watermarks (`nil` removes them): see ``WriteWatermarks``. Throws the POSIX
    /// error `EINVAL`, changing nothing, unless `0 <= low < high`.
    public func setWriteWatermarks(_ watermarks: WriteWatermarks?) throws {
        let marks = try watermarks?.checked()
        sync { engine.setWriteWatermarks(marks) }
    }
}
