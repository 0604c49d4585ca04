import AsyncSocketCore
import Foundation

// What the socket holds, the write queue's watermarks (Net/WriteWatermarks.swift) and the most a read
// to a separator may hold; beyond GCDAsyncSocket, whose queues had no visible size and no bound. Read on
// the socket queue, so a value is the state between two passes. The limits are kept across a
// disconnect, like the other settings. An accepted socket starts without them: set them in
// `socket(_:didAcceptNewSocket:)`, before its first read or write.
extension QueueSocket {
    /// Bytes of the queued writes (the one being sent included) not sent yet.
    ///
    /// Original: none; GCDAsyncSocket has no counterpart.
    public var queuedWriteBytes: Int { sync { engine.queueSizes.writeBytes } }
    /// Writes not done yet, the one being sent included (a `startTLS` counts as one).
    ///
    /// Original: none; GCDAsyncSocket has no counterpart.
    public var queuedWriteCount: Int { sync { engine.queueSizes.writes } }
    /// Reads not done yet, the current one included (a `startTLS` counts as one).
    ///
    /// Original: none; GCDAsyncSocket has no counterpart.
    public var queuedReadCount: Int { sync { engine.queueSizes.reads } }
    /// Bytes read ahead from the peer that no read has taken yet.
    ///
    /// Original: none; GCDAsyncSocket has no counterpart.
    public var prebufferedBytes: Int { sync { engine.queueSizes.prebufferedBytes } }
    /// `false` from the moment the queued write bytes go above the high watermark until they drain to
    /// the low one (``QueueSocketDelegate/socketDidBecomeWritable(_:)``); always `true` without marks.
    ///
    /// Original: none; GCDAsyncSocket has no counterpart.
    public var isWritable: Bool { sync { engine.isWritable } }

    /// The write queue's watermarks, if set.
    ///
    /// Original: none; GCDAsyncSocket has no counterpart.
    public var writeWatermarks: WriteWatermarks? { sync { engine.writeWatermarks.map(WriteWatermarks.init) } }

    /// Sets the write queue's watermarks (`nil` removes them): see ``WriteWatermarks``. Throws the POSIX
    /// error `EINVAL`, changing nothing, unless `0 <= low < high`.
    ///
    /// Original: none; GCDAsyncSocket has no counterpart.
    public func setWriteWatermarks(_ watermarks: WriteWatermarks?) throws {
        let marks = try watermarks?.checked()
        sync { engine.setWriteWatermarks(marks) }
    }

    /// The most bytes a read to a separator (`readDataToData:…`) may hold before its separator comes;
    /// 0 (the default) for no limit.
    public var maxPrebufferSize: Int { sync { engine.configuration.maxPrebufferSize } }

    /// Bounds what a read to a separator may hold (0: no limit), so that a peer that never sends the
    /// separator cannot make the process grow without bound: a read queued afterwards without a
    /// `maxLength`, or with a larger one, gets `bytes` as its `maxLength` (at least the separator's
    /// length), and fails as such a read does, closing the socket with
    /// ``QueueSocketError/Code/readMaxedOut``. Reads queued before keep their own. Throws the POSIX error
    /// `EINVAL` for a negative size.
    ///
    /// Original: none; GCDAsyncSocket has no counterpart.
    public func setMaxPrebufferSize(_ bytes: Int) throws {
        guard bytes >= 0 else { throw SystemError.posix(EINVAL, "setMaxPrebufferSize") }
        sync { engine.configuration.maxPrebufferSize = bytes }
    }
}
