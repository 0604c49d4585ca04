import Foundation

/// How a read or write pass ended without success, for the face to report in its own terms.
package enum TransportFailure: Equatable, Sendable {
    /// The peer closed its side and no queued read can be finished from what is left.
    case endOfStream
    /// A read-to-separator reached its maximum length without the separator.
    case readMaxedOut
    /// The transport reported an error (an errno value).
    case transport(Int32)
}

/// What the driver tells the engine after carrying out a read step.
package enum TransportReadResult: Equatable, Sendable {
    case bytes(Int)
    case wouldBlock
    case endOfStream
    case failed(Int32)
}

/// What the driver tells the engine after carrying out a write step.
package enum TransportWriteResult: Equatable, Sendable {
    case bytes(Int)
    case wouldBlock
    case failed(Int32)
}

/// The end of a read pass: what to report, in this order (partial progress, completion, failure).
package struct ReadPassResult {
    /// Bytes this pass added to a read that is still unfinished (> 0: report partial progress first).
    package var partialLength = 0
    package var partialTag = 0
    /// The finished read.
    package var completed: (data: Data, tag: Int)?
    /// A close the pass ran into, reported after the callbacks above.
    package var failure: TransportFailure?
    /// Whether the transport showed it has nothing more right now (a short read or would-block).
    package var transportDrained = false
    /// Whether an unfinished read waits for the transport to become readable.
    package var waitsForReadable = false

    package init(transportDrained: Bool = false) {
        self.transportDrained = transportDrained
    }
}

/// The end of a write pass.
package struct WritePassResult {
    /// Bytes this pass wrote of a write that is still unfinished (> 0: report partial progress).
    package var partialLength = 0
    package var partialTag = 0
    /// The tag of the finished write.
    package var completedTag: Int?
    package var failure: TransportFailure?
    /// Whether an unfinished write waits for the transport to become writable.
    package var waitsForWritable = false

    package init() {}
}

/// One step of a read pass.
package enum ReadStep {
    /// Read up to `buffer.count` bytes from the transport into `buffer`, then call `transportRead`.
    case read(into: UnsafeMutableRawBufferPointer)
    /// The pass is over.
    case finished(ReadPassResult)
}

/// One step of a write pass.
package enum WriteStep {
    /// Write the bytes of `data` from `offset` on, then call `transportWrote`.
    case write(Data, offset: Int)
    /// The pass is over.
    case finished(WritePassResult)
}

/// What making the next queued item current led to.
enum DequeueResult: Equatable {
    /// An item is already current.
    case busy
    /// Nothing is queued.
    case empty
    /// A read or write became current; arm its timer when `timeout` is not `nil`.
    case started(timeout: TimeInterval?)
    /// A TLS marker became current on this side; the other side has not reached it yet.
    case waitingForTLS
    /// Both sides reached a TLS marker: start the handshake (see ``SocketEngine/beginTLS()``).
    case startTLS
    /// The disconnect-after condition holds: disconnect now.
    case disconnect
}

/// What `progressOfRead`/`progressOfWrite` report.
package struct TransferProgress: Equatable, Sendable {
    package var tag = 0
    package var bytesDone = 0
    package var total = 0
    /// NaN when idle or at a TLS marker; 1.0 for reads without a length.
    package var fraction = Double.nan

    /// Progress with the given values; the default is "idle" (zeros and NaN).
    package init(tag: Int = 0, bytesDone: Int = 0, total: Int = 0, fraction: Double = .nan) {
        self.tag = tag
        self.bytesDone = bytesDone
        self.total = total
        self.fraction = fraction
    }

    package static func == (a: TransferProgress, b: TransferProgress) -> Bool {
        a.tag == b.tag && a.bytesDone == b.bytesDone && a.total == b.total
            && (a.fraction == b.fraction || (a.fraction.isNaN && b.fraction.isNaN))
    }
}

/// What a fired timeout asks the delegate.
package struct TimeoutQuery: Equatable, Sendable {
    package var tag: Int
    /// The original timeout plus every extension granted so far.
    package var elapsed: TimeInterval
    package var bytesDone: Int
}
