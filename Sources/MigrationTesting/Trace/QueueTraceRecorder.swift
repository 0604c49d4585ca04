import AsyncSocketCore
import AsyncSocketKit
import Foundation

/// A `QueueSocketDelegate` that records a normalized trace of every callback and passes each one
/// on, unchanged, to the delegate it wraps (return values and trust answers included), so the
/// traced program behaves exactly as without it.
///
/// Put it in front of a socket's delegate with ``attach(to:label:log:)`` (the delegate queue stays
/// the same), or make one around a delegate and give it to the socket yourself. A socket holds its
/// delegate weakly: keep the recorder alive as long as the socket. Accepted sockets inherit the
/// recorder and are labelled `child1`, `child2`, …
public final class QueueTraceRecorder: QueueSocketDelegate, @unchecked Sendable {
    // @unchecked Sendable: `inner` never changes; `seen` is touched under `lock`; `log` is thread-safe.

    /// Where the events go.
    public let log: TraceLog
    private let inner: (any QueueSocketDelegate)?
    private let lock = Lock()
    private var seen: [WeakReference<QueueSocket>] = []
    /// Whether reads and writes are recorded with their tags (an async connection's are its own
    /// operation numbers, recorded as 0).
    private let recordsTags: Bool

    /// A recorder passing every callback on to `inner` (held strongly), writing to `log`.
    public convenience init(wrapping inner: (any QueueSocketDelegate)?, log: TraceLog = TraceLog()) {
        self.init(wrapping: inner, log: log, recordsTags: true)
    }

    init(wrapping inner: (any QueueSocketDelegate)?, log: TraceLog, recordsTags: Bool) {
        self.inner = inner
        self.log = log
        self.recordsTags = recordsTags
    }

    /// `tag` as recorded.
    private func recorded(_ tag: Int) -> Int {
        recordsTags ? tag : 0
    }

    /// Puts a new recorder in front of `socket`'s delegate (on the same delegate queue) and labels
    /// the socket `label`. Call it before the socket connects or accepts. Keep the returned recorder.
    @discardableResult
    public static func attach(to socket: QueueSocket, label: String = "socket", log: TraceLog = TraceLog())
        -> QueueTraceRecorder
    {
        let recorder = QueueTraceRecorder(wrapping: socket.delegate, log: log)
        recorder.name(socket, label)
        socket.synchronouslySetDelegate(recorder, delegateQueue: socket.delegateQueue)
        return recorder
    }

    /// Labels `socket` in the trace (for sockets that use this recorder as their delegate directly).
    public func name(_ socket: QueueSocket, _ label: String) {
        log.name(socket, label)
        lock.withLock { seen.append(WeakReference(socket)) }
    }

    /// The traced sockets still alive (named ones and accepted ones).
    var sockets: [QueueSocket] {
        lock.withLock { seen.compactMap(\.object) }
    }

    /// Every event so far.
    public var trace: [TraceEntry] { log.trace }

    // MARK: QueueSocketDelegate

    public func newSocketQueueForConnection(fromAddress address: Data, on sock: QueueSocket) -> DispatchQueue? {
        inner?.newSocketQueueForConnection(fromAddress: address, on: sock) ?? nil
    }

    public func socket(_ sock: QueueSocket, didAcceptNewSocket newSocket: QueueSocket) {
        let child = log.nameChild(newSocket)
        lock.withLock { seen.append(WeakReference(newSocket)) }
        log.record(sock, .accepted(child: child))
        inner?.socket(sock, didAcceptNewSocket: newSocket)
    }

    public func socket(_ sock: QueueSocket, didConnectToHost host: String, port: UInt16) {
        log.record(sock, .connected(host: host))
        inner?.socket(sock, didConnectToHost: host, port: port)
    }

    public func socket(_ sock: QueueSocket, didConnectTo url: URL) {
        log.record(sock, .connected(host: url.path))
        inner?.socket(sock, didConnectTo: url)
    }

    public func socket(_ sock: QueueSocket, didRead data: Data, withTag tag: Int) {
        log.record(sock, .read(tag: recorded(tag), data: data))
        inner?.socket(sock, didRead: data, withTag: tag)
    }

    public func socket(_ sock: QueueSocket, didReadPartialDataOfLength partialLength: Int, tag: Int) {
        log.record(sock, .partialRead(tag: recorded(tag), length: partialLength))
        inner?.socket(sock, didReadPartialDataOfLength: partialLength, tag: tag)
    }

    public func socket(_ sock: QueueSocket, didWriteDataWithTag tag: Int) {
        log.record(sock, .wrote(tag: recorded(tag)))
        inner?.socket(sock, didWriteDataWithTag: tag)
    }

    public func socket(_ sock: QueueSocket, didWritePartialDataOfLength partialLength: Int, tag: Int) {
        log.record(sock, .partialWrite(tag: recorded(tag), length: partialLength))
        inner?.socket(sock, didWritePartialDataOfLength: partialLength, tag: tag)
    }

    public func socket(
        _ sock: QueueSocket, shouldTimeoutReadWithTag tag: Int, elapsed: TimeInterval, bytesDone length: Int
    ) -> TimeInterval {
        let answer = inner?.socket(sock, shouldTimeoutReadWithTag: tag, elapsed: elapsed, bytesDone: length) ?? 0
        log.record(sock, .readTimeout(tag: recorded(tag), extended: answer > 0))
        return answer
    }

    public func socket(
        _ sock: QueueSocket, shouldTimeoutWriteWithTag tag: Int, elapsed: TimeInterval, bytesDone length: Int
    ) -> TimeInterval {
        let answer = inner?.socket(sock, shouldTimeoutWriteWithTag: tag, elapsed: elapsed, bytesDone: length) ?? 0
        log.record(sock, .writeTimeout(tag: recorded(tag), extended: answer > 0))
        return answer
    }

    public func socketDidCloseReadStream(_ sock: QueueSocket) {
        log.record(sock, .readStreamClosed)
        inner?.socketDidCloseReadStream(sock)
    }

    public func socketDidDisconnect(_ sock: QueueSocket, withError error: (any Error)?) {
        log.record(sock, .disconnected(CloseReason(modernError: error)))
        inner?.socketDidDisconnect(sock, withError: error)
    }

    public func socketDidSecure(_ sock: QueueSocket) {
        log.record(sock, .secured)
        inner?.socketDidSecure(sock)
    }

    public func socket(
        _ sock: QueueSocket, didReceiveTrust trust: CertificateChain,
        completionHandler: @escaping @Sendable (Bool) -> Void
    ) {
        guard let inner else { return completionHandler(false) }
        inner.socket(sock, didReceiveTrust: trust, completionHandler: completionHandler)
    }
}
