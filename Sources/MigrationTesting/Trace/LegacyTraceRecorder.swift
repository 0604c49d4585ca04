import AsyncSocketCore
import AsyncSocketKit
import Foundation

/// A `RunLoopSocketDelegate` that records a normalized trace of every callback and passes each
/// one on, unchanged, to the delegate it wraps (return values included), so the traced program
/// behaves exactly as without it.
///
/// Put it in front of a socket's delegate with ``attach(to:label:log:)``, or make one around a
/// delegate and give it to the socket yourself. A socket holds its delegate weakly: keep the
/// recorder alive as long as the socket. Sockets accepted by a traced listener inherit the
/// recorder, as they inherit any delegate, and are labelled `child1`, `child2`, …
public final class LegacyTraceRecorder: RunLoopSocketDelegate, @unchecked Sendable {
    // @unchecked Sendable: `pendingClose` and `acceptedSockets` are touched under `lock`;
    // `inner` never changes; `log` is thread-safe.

    /// Where the events go.
    public let log: TraceLog
    private let inner: (any RunLoopSocketDelegate)?
    private let lock = Lock()
    private var pendingClose: [ObjectIdentifier: CloseReason] = [:]
    private var acceptedSockets: Set<ObjectIdentifier> = []

    /// A recorder passing every callback on to `inner` (held strongly), writing to `log`.
    public init(wrapping inner: (any RunLoopSocketDelegate)?, log: TraceLog = TraceLog()) {
        self.inner = inner
        self.log = log
    }

    /// Puts a new recorder in front of `socket`'s delegate and labels the socket `label`. Call it on
    /// the socket's thread, before the socket connects or accepts. Keep the returned recorder.
    @discardableResult
    public static func attach(to socket: RunLoopSocket, label: String = "socket", log: TraceLog = TraceLog())
        -> LegacyTraceRecorder
    {
        let recorder = LegacyTraceRecorder(wrapping: socket.delegate, log: log)
        recorder.name(socket, label)
        socket.delegate = recorder
        return recorder
    }

    /// Labels `socket` in the trace (for sockets that use this recorder as their delegate directly).
    public func name(_ socket: RunLoopSocket, _ label: String) {
        log.name(socket, label)
    }

    /// Every event so far.
    public var trace: [TraceEntry] { log.trace }

    // MARK: RunLoopSocketDelegate

    public func onSocket(_ sock: RunLoopSocket, willDisconnectWithError error: (any Error)?) {
        lock.withLock { pendingClose[ObjectIdentifier(sock)] = CloseReason(legacyError: error) }
        inner?.onSocket(sock, willDisconnectWithError: error)
    }

    public func onSocketDidDisconnect(_ sock: RunLoopSocket) {
        let reason = lock.withLock { pendingClose.removeValue(forKey: ObjectIdentifier(sock)) } ?? .byUser
        log.record(sock, .disconnected(reason))
        inner?.onSocketDidDisconnect(sock)
    }

    public func onSocket(_ sock: RunLoopSocket, didAcceptNewSocket newSocket: RunLoopSocket) {
        let child = log.nameChild(newSocket)
        lock.withLock { _ = acceptedSockets.insert(ObjectIdentifier(newSocket)) }
        log.record(sock, .accepted(child: child))
        inner?.onSocket(sock, didAcceptNewSocket: newSocket)
    }

    public func onSocket(_ sock: RunLoopSocket, wantsRunLoopForNewSocket newSocket: RunLoopSocket) -> EventRunLoop? {
        inner?.onSocket(sock, wantsRunLoopForNewSocket: newSocket) ?? nil
    }

    public func onSocketWillConnect(_ sock: RunLoopSocket) -> Bool {
        inner?.onSocketWillConnect(sock) ?? true
    }

    public func onSocket(_ sock: RunLoopSocket, didConnectToHost host: String, port: UInt16) {
        // An accepted socket's didConnectToHost has no GCD counterpart: it is not part of the trace.
        let accepted = lock.withLock { acceptedSockets.remove(ObjectIdentifier(sock)) != nil }
        if !accepted {
            log.record(sock, .connected(host: host))
        }
        inner?.onSocket(sock, didConnectToHost: host, port: port)
    }

    public func onSocket(_ sock: RunLoopSocket, didRead data: Data, withTag tag: Int) {
        log.record(sock, .read(tag: tag, data: data))
        inner?.onSocket(sock, didRead: data, withTag: tag)
    }

    public func onSocket(_ sock: RunLoopSocket, didReadPartialDataOfLength partialLength: Int, tag: Int) {
        log.record(sock, .partialRead(tag: tag, length: partialLength))
        inner?.onSocket(sock, didReadPartialDataOfLength: partialLength, tag: tag)
    }

    public func onSocket(_ sock: RunLoopSocket, didWriteDataWithTag tag: Int) {
        log.record(sock, .wrote(tag: tag))
        inner?.onSocket(sock, didWriteDataWithTag: tag)
    }

    public func onSocket(_ sock: RunLoopSocket, didWritePartialDataOfLength partialLength: Int, tag: Int) {
        log.record(sock, .partialWrite(tag: tag, length: partialLength))
        inner?.onSocket(sock, didWritePartialDataOfLength: partialLength, tag: tag)
    }

    public func onSocket(
        _ sock: RunLoopSocket, shouldTimeoutReadWithTag tag: Int, elapsed: TimeInterval, bytesDone length: Int
    ) -> TimeInterval {
        let answer = inner?.onSocket(sock, shouldTimeoutReadWithTag: tag, elapsed: elapsed, bytesDone: length) ?? 0
        log.record(sock, .readTimeout(tag: tag, extended: answer > 0))
        return answer
    }

    public func onSocket(
        _ sock: RunLoopSocket, shouldTimeoutWriteWithTag tag: Int, elapsed: TimeInterval, bytesDone length: Int
    ) -> TimeInterval {
        let answer = inner?.onSocket(sock, shouldTimeoutWriteWithTag: tag, elapsed: elapsed, bytesDone: length) ?? 0
        log.record(sock, .writeTimeout(tag: tag, extended: answer > 0))
        return answer
    }

    public func onSocketDidSecure(_ sock: RunLoopSocket) {
        log.record(sock, .secured)
        inner?.onSocketDidSecure(sock)
    }
}
