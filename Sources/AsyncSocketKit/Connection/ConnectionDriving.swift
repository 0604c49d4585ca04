import AsyncSocketCore
import Foundation

// The connected socket's driver, written once for every face and engine: read and write passes,
// their timeouts, the TLS handshake and the peer's end (ReadPasses.swift, WritePasses.swift,
// TransferTimeouts.swift, TLSHandshake.swift, PeerEnd.swift) run as extensions of this protocol. A
// face conforms by saying where its state is and doing the few things each face does its own way:
// how it watches the descriptor, how a callback reaches the delegate (inline on the loop, or
// dispatched to the delegate queue), when the next read starts, and what an error close is called.
// The decisions themselves are the engine's and the rules' (AsyncSocketCore). Nothing here touches
// a descriptor: the faces reach theirs through ByteTransport (DescriptorConnection.swift adds
// gathered writes and TLS start), the test harness (EngineTestSupport) a scripted transport. It
// lives in the faces' module so that each face's use of it is specialized for that face.

/// A callback of a read or write pass or of the handshake, as every delegate API has it.
package enum ConnectionCallback: Sendable {
    case didRead(Data, tag: Int)
    case didReadPartial(Int, tag: Int)
    case didWrite(tag: Int)
    case didWritePartial(Int, tag: Int)
    case didSecure
    /// The write queue drained to its low watermark after it had gone above the high one.
    case didBecomeWritable
}

/// Why the driver closes a connection; each face names it in its own errors.
package enum ConnectionFailure {
    case readMaxedOut
    /// An errno from the transport, or < 0 for a TLS failure (the TLS engine's last error says which).
    case transport(Int32, operation: String)
    case readTimeout
    case writeTimeout
    /// TLS could not start with the marker's settings (the face's TLS start says why).
    case tlsStart(any Error)
    /// The handshake failed.
    case handshake(any Error)
}

/// The direction of a transfer, for the timers and timeout questions the two share.
package enum TransferDirection: Sendable {
    case read
    case write
}

/// What the connection driver needs from a face.
package protocol ConnectionDriving: AnyObject, ByteTransport {
    /// The connection handed to work carried over: the conforming type itself (named so a class that
    /// is not `final`, QueueSocket, can conform).
    associatedtype Carried: ConnectionDriving
    var engine: SocketEngine { get }
    /// TLS over the descriptor, once both queues reached a marker.
    var tls: TLSTransport? { get set }
    var tlsHandshaking: Bool { get set }
    /// The transport may have bytes for a read (a readiness event since the last short read).
    var readableHint: Bool { get set }
    /// The transport may take bytes (no short write since the last writable event).
    var writableHint: Bool { get set }

    /// Whether a transfer may be dequeued now (connected; for reads, not closed for reading).
    func mayDequeue(_ direction: TransferDirection) -> Bool
    /// Whether the transfer waits for the delegate's answer to a timeout question.
    func isPaused(_ direction: TransferDirection) -> Bool
    /// The face noticed the peer's end without the engine reading up to it.
    var peerEndNoticed: Bool { get }

    /// Hands a callback to the delegate.
    func deliver(_ callback: ConnectionCallback)
    /// A mark of the connection as it is now, to tell after a callback whether it still is.
    var deliveryMark: Int { get }
    /// Whether the work after a callback goes on here (not after a close, nor a move elsewhere).
    func goesOn(after mark: Int) -> Bool
    /// Runs `rest` where the socket went, when a callback moved it (nothing after a close).
    func carryOver(after mark: Int, _ rest: @escaping (Carried) -> Void)

    /// The current read waits for bytes: watch for readability.
    func readWaitsForBytes()
    /// Bytes are there with no read to take them: stop watching until a read comes.
    func bytesWaitWithoutRead()
    /// Runs read passes for the current read (the face may fold a pass asked for inside one into it).
    func readNow()
    /// A read completed and the next dequeue has work: run it (now, or on a later pass).
    func dequeueNextRead()
    /// A write completed and another waits: run the next dequeue (now, or later).
    func dequeueNextWrite()
    /// The current write: send it (gathering the writes behind it where the face does).
    func sendCurrentWrite()
    /// More writes were queued behind the current one (a face that gathers may add them to its batch).
    func writesQueuedBehindCurrent()
    func watchWritable(_ watching: Bool)
    /// Both queues reached a TLS marker: start TLS with its settings (``SocketEngine/beginTLS()``),
    /// then run ``ConnectionDriving/continueHandshake()``.
    func beginTLS()
    /// The handshake waits for the peer: watch for readability (and writability when ciphertext waits).
    func handshakeWaits()
    /// The handshake asks whether to trust the peer's chain.
    func trustDecisionNeeded(_ chain: CertificateChain)
    /// The handshake completed and `didSecure` was delivered: both queues go on.
    func resumeAfterHandshake()

    func armTimer(_ direction: TransferDirection, after seconds: TimeInterval)
    func disarmTimer(_ direction: TransferDirection)
    /// Asks the delegate whether to extend a timed-out transfer; the answer goes to
    /// ``ConnectionDriving/timeoutAnswered(_:extendBy:)`` (at once, or when it comes back).
    func askTimeout(_ direction: TransferDirection, _ query: TimeoutQuery)
    /// The timeout was extended: a paused transfer goes on.
    func transferResumed(_ direction: TransferDirection)

    /// The metrics of the socket's face and engine (``SocketMetrics``), or `nil` when it has none.
    var metricHandles: SocketMetricHandles? { get }

    /// Whose rules apply where the originals differ (the end of the peer's data, above all).
    var semantics: Semantics { get }
    /// Callbacks handed over may not all have reached the delegate yet (a face that delivers on
    /// another thread); the end-of-stream rule waits for them before it closes.
    var callbacksMayBeInFlight: Bool { get }
    /// GCD `autoDisconnectOnClosedReadStream`.
    var autoDisconnectsAtEnd: Bool { get }
    /// GCD: the closed read stream has been reported.
    var readStreamEndReported: Bool { get }
    /// Closes for the peer's end: a reset is the error it is, a clean end the face's own.
    func closeAtEnd()
    /// Legacy with callbacks in flight: close only once they have reached the delegate.
    func confirmEndAfterCallbacks()
    /// GCD with auto-disconnect off: report the closed read stream (once) and keep writing.
    func reportReadStreamEnded()
    /// The disconnect-after condition holds.
    func disconnectAfterTransfers()
    /// Closes the connection for `failure` (each face names it in its own errors).
    func fail(_ failure: ConnectionFailure)
}
