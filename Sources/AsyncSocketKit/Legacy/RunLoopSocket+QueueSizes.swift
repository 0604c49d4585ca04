import AsyncSocketCore
import Foundation

// What the socket holds, and the write queue's watermarks (Net/WriteWatermarks.swift); beyond the
// original, whose queues had no visible size. On the socket's loop thread, like every other member;
// the queue core reads them on its socket queue, after the writes made in this loop pass joined it.
// The watermarks are kept across a disconnect, and set before a connect apply to the connection.
extension RunLoopSocket {
    /// Bytes of the queued writes (the one being sent included) not sent yet.
    public var queuedWriteBytes: Int {
        checkThread("queuedWriteBytes")
        return backend.queueSizes.writeBytes
    }

    /// Writes not done yet, the one being sent included (a `startTLS` counts as one).
    public var queuedWriteCount: Int {
        checkThread("queuedWriteCount")
        return backend.queueSizes.writes
    }

    /// Reads not done yet, the current one included (a `startTLS` counts as one).
    public var queuedReadCount: Int {
        checkThread("queuedReadCount")
        return backend.queueSizes.reads
    }

    /// Bytes read ahead from the peer (prebuffering) that no read has taken yet.
    public var prebufferedBytes: Int {
        checkThread("prebufferedBytes")
        return backend.queueSizes.prebufferedBytes
    }

    /// `false` from the moment the queued write bytes go above the high watermark until they drain to
    /// the low one (``RunLoopSocketDelegate/onSocketDidBecomeWritable(_:)``); always `true` without marks.
    public var isWritable: Bool {
        checkThread("isWritable")
        return backend.queueSizes.isWritable
    }

    /// The write queue's watermarks, if set.
    public var writeWatermarks: WriteWatermarks? {
        checkThread("writeWatermarks")
        return backend.writeMarks.map(WriteWatermarks.init)
    }

    /// Sets the write queue's watermarks (`nil` removes them): see ``WriteWatermarks``. Throws the POSIX
    /// error `EINVAL`, changing nothing, unless `0 <= low < high`.
    public func setWriteWatermarks(_ watermarks: WriteWatermarks?) throws {
        checkThread("setWriteWatermarks(_:)")
        backend.writeMarks = try watermarks?.checked()
    }
}
