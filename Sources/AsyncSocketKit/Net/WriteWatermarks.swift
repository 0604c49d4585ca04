import AsyncSocketCore
import Foundation

/// The high and low marks, in bytes, for what a socket's write queue holds (beyond the originals, whose
/// write queues had no bound). Set with `setWriteWatermarks(_:)` on ``RunLoopSocket``, ``QueueSocket`` and
/// ``AsyncSocketConnection``.
///
/// Once the bytes queued and not yet sent go above `high`, the socket is not writable (`isWritable` is
/// `false`); once they drain to `low` or below, it is writable again and the delegate hears it
/// (`onSocketDidBecomeWritable(_:)`, `socketDidBecomeWritable(_:)`), once. The marks report and never
/// refuse: a write made above the high mark is queued like any other, so a program bounds its memory by
/// waiting for the callback before it writes more (``AsyncSocketConnection/write(_:)`` waits by itself).
/// Changing the marks decides `isWritable` again at once, without a callback.
public struct WriteWatermarks: Sendable, Equatable {
    /// Above this many queued bytes the socket is not writable.
    public var high: Int
    /// At or below this many queued bytes a socket that was not writable is writable again.
    public var low: Int

    /// Marks with `0 <= low < high` (checked when set on a socket).
    public init(high: Int, low: Int) {
        self.high = high
        self.low = low
    }

    /// The marks as the engine takes them; the POSIX error `EINVAL` for marks out of order.
    package func checked() throws -> WriteMarks {
        guard low >= 0, high > low else {
            throw SystemError.posix(EINVAL, "setWriteWatermarks")
        }
        return WriteMarks(high: high, low: low)
    }

    package init(_ marks: WriteMarks) {
        self.init(high: marks.high, low: marks.low)
    }
}
