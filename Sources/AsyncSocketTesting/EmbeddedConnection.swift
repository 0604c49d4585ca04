import AsyncSocketKit
import EngineTestSupport
import Foundation
import Logging

/// A `RunLoopSocket` with no descriptor, no thread and no real time, and the peer at its other end,
/// played by the test — the way SwiftNIO's `EmbeddedChannel` tests a channel handler.
///
/// ``socket`` is a real `RunLoopSocket` whose I/O runs the library's own connection driver (the code
/// both engines run) with the native engine's legacy semantics, over a scripted transport, a virtual
/// clock and a queue of run-loop passes. Your delegate is called exactly as on a real connection —
/// `onSocketWillConnect` inside the connect call, `didConnectToHost` on the next pass, reads, writes,
/// timeouts (asked when the virtual clock passes their deadline), `willDisconnectWithError` with
/// `unreadData`, `onSocketDidDisconnect` — so a ported delegate's protocol logic can be tested
/// deterministically:
///
/// ```swift
/// let connection = EmbeddedConnection(delegate: myDelegate)
/// try connection.socket.connectToHost("example.com", onPort: 80)
/// connection.runPendingPasses()          // didConnectToHost; the delegate queues a read
/// try connection.send("HELLO\r\n")       // the peer sends; the read completes
/// let reply = try connection.takeReceived()
/// connection.advance(by: 30)             // a read timeout falls due
/// ```
///
/// Every call of an `EmbeddedConnection` runs on the calling thread and returns once the socket has
/// nothing left to do now: the passes it queued have run. Calls on the socket itself (a connect, a
/// read, a write) queue their passes as on a loop; ``runPendingPasses()`` or the next peer action
/// runs them. Connects always succeed (any host name, no lookup); listening is
/// not supported (`RunLoopSocket.acceptOnInterface(_:port:)` throws). TLS is played by the peer: a
/// `startTLS` marker waits for ``finishHandshake()``, which reports `onSocketDidSecure`; no bytes are
/// encrypted. `RunLoopSocket.moveToRunLoop(_:)` returns `false` (there is no loop) and the socket
/// reports no descriptors (-1) and no local address. `engine` reads `.native`, whose rules it runs.
///
/// Not thread-safe: use one `EmbeddedConnection` and its socket from one thread.
public final class EmbeddedConnection {
    /// Why a peer action could not be carried out.
    public enum PeerError: Error, Equatable, Sendable {
        /// The socket has not connected yet (call `connectToHost` first).
        case notConnected
    }

    /// The socket under test; give it reads and writes as your program does.
    public let socket: RunLoopSocket
    private let backend: EmbeddedBackend

    /// A socket for `delegate` (held weakly, as always) with `userData`; `preBuffering` as in
    /// `RunLoopSocket.init(delegate:userData:preBuffering:engine:resolver:logger:)` (`nil`:
    /// `RunLoopSocket.defaultPreBuffering`); `logger` receives the socket's `.debug` lines.
    public init(
        delegate: (any RunLoopSocketDelegate)?, userData: Int = 0, preBuffering: Bool? = nil, logger: Logger? = nil
    ) {
        backend = EmbeddedBackend(preBuffering: preBuffering ?? RunLoopSocket.defaultPreBuffering, logger: logger)
        socket = RunLoopSocket(delegate: delegate, userData: userData, engine: .native, backend: backend)
    }

    /// The virtual time in seconds since the connection was made (moved only by ``advance(by:)``).
    public var now: TimeInterval { backend.clock.now }

    /// Runs what the socket queued for later loop passes (didConnectToHost after a connect, the next
    /// read's dequeue, a disconnect-after), until nothing is left.
    public func runPendingPasses() {
        backend.runPendingPasses()
    }

    /// Moves the virtual clock forward by `seconds`: timeouts that fall due are asked of the delegate
    /// and take effect; then the pending passes run.
    public func advance(by seconds: TimeInterval) {
        backend.runPendingPasses()
        backend.clock.advance(by: seconds)
        backend.runPendingPasses()
    }

    // MARK: The peer

    /// The peer sends `data`: a waiting read takes it now.
    public func send(_ data: Data) throws(PeerError) {
        try perform { $0.feed(Array(data)) }
    }

    /// The peer sends `text` as UTF-8.
    public func send(_ text: String) throws(PeerError) {
        try send(Data(text.utf8))
    }

    /// The peer closes its side: the socket sees the end of the stream after the bytes sent before.
    public func closeFromPeer() throws(PeerError) {
        try perform { $0.peerCloses() }
    }

    /// The peer resets the connection: the socket sees `code` (an errno, `ECONNRESET` unless given)
    /// after the bytes sent before.
    public func resetFromPeer(code: Int32 = ECONNRESET) throws(PeerError) {
        try perform { $0.transportFails(code) }
    }

    /// What the socket has written since the last call (the peer reads it).
    public func takeReceived() throws(PeerError) -> Data {
        guard let harness = backend.harness else { throw .notConnected }
        return Data(harness.transport.takeWritten())
    }

    /// Limits what the socket can send before the peer reads (a full send buffer): `nil` removes the
    /// limit. Writes beyond it wait (partial-write callbacks, write timeouts) until ``peerReads(_:)``.
    public func limitSending(to bytes: Int?) throws(PeerError) {
        guard let harness = backend.harness else { throw .notConnected }
        harness.transport.sendCapacity = bytes.map { max(0, $0) } ?? .max
    }

    /// The peer reads `count` bytes: a limited socket may send that many more.
    public func peerReads(_ count: Int) throws(PeerError) {
        try perform { $0.peerDrains(max(0, count)) }
    }

    /// The TLS handshake a `startTLS` began has finished: `onSocketDidSecure`, and the reads and
    /// writes queued behind the marker go on. Ignored while no handshake has begun.
    public func finishHandshake() throws(PeerError) {
        try perform { harness in
            guard harness.handshakeHasBegun else { return }
            harness.finishHandshake()
        }
    }

    /// Runs `action` on the current connection, then the passes it led to.
    private func perform(_ action: (EngineHarness) -> Void) throws(PeerError) {
        guard let harness = backend.harness else { throw .notConnected }
        backend.runPendingPasses()
        action(harness)
        backend.runPendingPasses()
    }
}
