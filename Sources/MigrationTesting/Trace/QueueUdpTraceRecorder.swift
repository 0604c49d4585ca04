import AsyncSocketCore
import AsyncSocketKit
import Foundation

/// A `QueueUdpSocketDelegate` that records a normalized trace of every callback and passes each
/// one on, unchanged, to the delegate it wraps, on the same delegate queue, so the traced program
/// behaves exactly as without it.
///
/// Put it in front of a socket's delegate with ``attach(to:label:log:)``. A socket holds its delegate
/// weakly: keep the recorder alive as long as the socket.
public final class QueueUdpTraceRecorder: QueueUdpSocketDelegate, @unchecked Sendable {
    // @unchecked Sendable: `inner` never changes; `seen` is touched under `lock`; `log` is
    // thread-safe.

    /// Where the events go.
    public let log: TraceLog
    private let inner: (any QueueUdpSocketDelegate)?
    private let lock = Lock()
    private var seen: [WeakReference<QueueUdpSocket>] = []

    /// A recorder passing every callback on to `inner` (held strongly), writing to `log`.
    public init(wrapping inner: (any QueueUdpSocketDelegate)?, log: TraceLog = TraceLog()) {
        self.inner = inner
        self.log = log
    }

    /// Puts a new recorder in front of `socket`'s delegate (on the same delegate queue) and labels
    /// the socket `label`. Keep the returned recorder.
    @discardableResult
    public static func attach(to socket: QueueUdpSocket, label: String = "socket", log: TraceLog = TraceLog())
        -> QueueUdpTraceRecorder
    {
        let recorder = QueueUdpTraceRecorder(wrapping: socket.delegate, log: log)
        log.name(socket, label)
        recorder.lock.withLock { recorder.seen.append(WeakReference(socket)) }
        socket.synchronouslySetDelegate(recorder, delegateQueue: socket.delegateQueue)
        return recorder
    }

    /// The sockets this recorder was attached to that are still alive.
    var sockets: [QueueUdpSocket] {
        lock.withLock { seen.compactMap(\.object) }
    }

    // The connect's outcome is not recorded: the run-loop class connects synchronously, without a
    // callback, so a port and its original would always differ there.
    public func udpSocket(_ sock: QueueUdpSocket, didConnectToAddress address: Data) {
        inner?.udpSocket(sock, didConnectToAddress: address)
    }

    public func udpSocket(_ sock: QueueUdpSocket, didNotConnect error: (any Error)?) {
        inner?.udpSocket(sock, didNotConnect: error)
    }

    public func udpSocket(_ sock: QueueUdpSocket, didSendDataWithTag tag: Int) {
        log.record(sock, .datagramSent(tag: tag))
        inner?.udpSocket(sock, didSendDataWithTag: tag)
    }

    public func udpSocket(_ sock: QueueUdpSocket, didNotSendDataWithTag tag: Int, dueToError error: (any Error)?) {
        log.record(sock, .datagramNotSent(tag: tag, CloseReason(udpError: error)))
        inner?.udpSocket(sock, didNotSendDataWithTag: tag, dueToError: error)
    }

    public func udpSocket(
        _ sock: QueueUdpSocket, didReceive data: Data, fromAddress address: Data,
        withFilterContext context: (any Sendable)?
    ) {
        log.record(sock, .datagramReceived(data))
        inner?.udpSocket(sock, didReceive: data, fromAddress: address, withFilterContext: context)
    }

    public func udpSocketDidClose(_ sock: QueueUdpSocket, withError error: (any Error)?) {
        log.record(sock, .disconnected(CloseReason(udpError: error)))
        inner?.udpSocketDidClose(sock, withError: error)
    }
}
