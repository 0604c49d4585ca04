import AsyncSocketKit
import Foundation

/// A `RunLoopUdpSocketDelegate` that records a normalized trace of every callback and passes each
/// one on, unchanged, to the delegate it wraps (the answer to a datagram included), so the traced
/// program behaves exactly as without it. A datagram the delegate answers `false` to is not recorded:
/// for the program it was never received.
///
/// Put it in front of a socket's delegate with ``attach(to:label:log:)``. A socket holds its delegate
/// weakly: keep the recorder alive as long as the socket.
public final class LegacyUdpTraceRecorder: RunLoopUdpSocketDelegate, @unchecked Sendable {
    // @unchecked Sendable: `inner` never changes; `log` is thread-safe; the callbacks run on the
    // socket's loop thread.

    /// Where the events go.
    public let log: TraceLog
    private let inner: (any RunLoopUdpSocketDelegate)?

    /// A recorder passing every callback on to `inner` (held strongly), writing to `log`.
    public init(wrapping inner: (any RunLoopUdpSocketDelegate)?, log: TraceLog = TraceLog()) {
        self.inner = inner
        self.log = log
    }

    /// Puts a new recorder in front of `socket`'s delegate and labels the socket `label`. Call it on
    /// the socket's thread. Keep the returned recorder.
    @discardableResult
    public static func attach(to socket: RunLoopUdpSocket, label: String = "socket", log: TraceLog = TraceLog())
        -> LegacyUdpTraceRecorder
    {
        let recorder = LegacyUdpTraceRecorder(wrapping: socket.delegate, log: log)
        log.name(socket, label)
        socket.delegate = recorder
        return recorder
    }

    public func onUdpSocket(_ sock: RunLoopUdpSocket, didSendDataWithTag tag: Int) {
        log.record(sock, .datagramSent(tag: tag))
        inner?.onUdpSocket(sock, didSendDataWithTag: tag)
    }

    public func onUdpSocket(_ sock: RunLoopUdpSocket, didNotSendDataWithTag tag: Int, dueToError error: any Error) {
        log.record(sock, .datagramNotSent(tag: tag, CloseReason(udpError: error)))
        inner?.onUdpSocket(sock, didNotSendDataWithTag: tag, dueToError: error)
    }

    public func onUdpSocket(
        _ sock: RunLoopUdpSocket, didReceive data: Data, withTag tag: Int, fromHost host: String, port: UInt16
    ) -> Bool {
        // Recorded once the delegate has answered (what its calls cause is reported from a later
        // pass, so it still comes after), and only when it took the datagram.
        let answer = inner?.onUdpSocket(sock, didReceive: data, withTag: tag, fromHost: host, port: port) ?? true
        if answer {
            log.record(sock, .datagramReceived(data))
        }
        return answer
    }

    public func onUdpSocket(_ sock: RunLoopUdpSocket, didNotReceiveDataWithTag tag: Int, dueToError error: any Error) {
        log.record(sock, .datagramNotReceived(CloseReason(udpError: error)))
        inner?.onUdpSocket(sock, didNotReceiveDataWithTag: tag, dueToError: error)
    }

    public func onUdpSocketDidClose(_ sock: RunLoopUdpSocket) {
        log.record(sock, .disconnected(.byUser))
        inner?.onUdpSocketDidClose(sock)
    }
}
