import AsyncSocketCore
import Foundation

// What the socket holds, the write queue's watermarks (Net/WriteWatermarks.swift) and the most a read
// to a separator may hold; beyond the original, whose queues had no visible size and no bound. On the socket's loop thread, like every other member;
// the queue core reads them on its socket queue, after the writes made in this loop pass joined it.
// The limits are kept across a disconnect, and set before a connect apply to the connection. An
// accepted socket starts without them: set them in `onSocket(_:didAcceptNewSocket:)`, before its first
// read or write.
extension RunLoopSocket {
    /// Bytes of the queued writes (the one being sent included) not sent yet.
    ///
    /// Original: none; AsyncSocket has no counterpart.
    public var queuedWriteBytes: Int {
        checkThread("queuedWriteBytes")
        return backend.queueSizes.writeBytes
    }

    /// Writes not done yet, the one being sent included (a `startTLS` counts as one).
    ///
    /// Original: none; AsyncSocket has no counterpart.
    public var queuedWriteCount: Int {
        checkThread("queuedWriteCount")
        return backend.queueSizes.writes
    }

    /// Reads not done yet, the current one included (a `startTLS` counts as one).
    ///
    /// Original: none; AsyncSocket has no counterpart.
    public var queuedReadCount: Int {
        checkThread("queuedReadCount")
        return backend.queueSizes.reads
    }

    /// Bytes read ahead from the peer (prebuffering) that no read has taken yet.
    ///
    /// Original: none; AsyncSocket has no counterpart.
    public var prebufferedBytes: Int {
        checkThread("prebufferedBytes")
        return backend.queueSizes.prebufferedBytes
    }

    /// `false` from the moment the queued write bytes go above the high watermark until they drain to
    /// the low one (``RunLoopSocketDelegate/onSocketDidBecomeWritable(_:)``); always `true` without marks.
    ///
    /// Original: none; AsyncSocket has no counterpart.
    public var isWritable: Bool {
        checkThread("isWritable")
        return backend.queueSizes.isWritable
    }

    /// The write queue's watermarks, if set.
    ///
    /// Original: none; AsyncSocket has no counterpart.
    public var writeWatermarks: WriteWatermarks? {
        checkThread("writeWatermarks")
        return backend.writeMarks.map(WriteWatermarks.init)
    }

    /// Sets the write queue's watermarks (`nil` removes them): see ``WriteWatermarks``. Throws the POSIX
    /// error `EINVAL`, changing nothing, unless `0 <= low < high`.
    ///
    /// Original: none; AsyncSocket has no counterpart.
    public func setWriteWatermarks(_ watermarks: WriteWatermarks?) throws {
        checkThread("setWriteWatermarks(_:)")
        backend.writeMarks = try watermarks?.checked()
    }

    /// The most bytes a read to a separator (`readDataToData:…`) may hold before its separator comes;
    /// 0 (the default) for no limit.
    public var maxPrebufferSize: Int {
        checkThread("maxPrebufferSize")
        return backend.maxPrebufferSize
    }

    /// Bounds what a read to a separator may hold (0: no limit), so that a peer that never sends the
    /// separator cannot make the process grow without bound: a read queued afterwards without a
    /// `maxLength`, or with a larger one, gets `bytes` as its `maxLength` (at least the separator's
    /// length), and fails as such a read does, closing the socket with
    /// ``AsyncSocketError/Code/readMaxedOut``. Reads queued before keep their own. Throws the POSIX error
    /// `EINVAL` for a negative size.
    ///
    /// Original: none; AsyncSocket has no counterpart.
    public func setMaxPrebufferSize(_ bytes: Int) throws {
        checkThread("setMaxPrebufferSize(_:)")
        guard bytes >= 0 else { throw SystemError.posix(EINVAL, "setMaxPrebufferSize") }
        backend.maxPrebufferSize = bytes
    }
}
