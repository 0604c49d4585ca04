import AsyncSocketKit
import Foundation

/// A ``RunLoopUdpSocketDelegate`` that writes down every callback as a line ("send 1", "receive 2
/// hello from 127.0.0.1", "not-receive 3 AsyncUdpSocketErrorDomain 5", "close"), with whether it came
/// on the socket's loop thread, and answers receives with `answer` (default `true`).
package final class UdpRecorder: RunLoopUdpSocketDelegate {
    package private(set) var events: [String] = []
    package private(set) var errors: [NSError] = []
    package private(set) var received: [(data: Data, tag: Int, host: String, port: UInt16)] = []
    /// Whether every callback came on the thread of the socket's loop.
    package private(set) var allOnLoopThread = true
    package var answer: (Data) -> Bool = { _ in true }
    /// Called inside each callback, after it is written down.
    package var onEvent: (RunLoopUdpSocket, String) -> Void = { _, _ in }

    package init() {}

    private func note(_ sock: RunLoopUdpSocket, _ event: String) {
        if !sock.runLoop.isCurrent { allOnLoopThread = false }
        events.append(event)
        onEvent(sock, event)
    }

    package func onUdpSocket(_ sock: RunLoopUdpSocket, didSendDataWithTag tag: Int) {
        note(sock, "send \(tag)")
    }

    package func onUdpSocket(_ sock: RunLoopUdpSocket, didNotSendDataWithTag tag: Int, dueToError error: any Error) {
        let error = error as NSError
        errors.append(error)
        note(sock, "not-send \(tag) \(error.domain) \(error.code)")
    }

    package func onUdpSocket(
        _ sock: RunLoopUdpSocket, didReceive data: Data, withTag tag: Int, fromHost host: String, port: UInt16
    ) -> Bool {
        received.append((data, tag, host, port))
        let accepted = answer(data)
        note(sock, "receive \(tag) \(String(decoding: data, as: UTF8.self)) from \(host)\(accepted ? "" : " ignored")")
        return accepted
    }

    package func onUdpSocket(_ sock: RunLoopUdpSocket, didNotReceiveDataWithTag tag: Int, dueToError error: any Error) {
        let error = error as NSError
        errors.append(error)
        note(sock, "not-receive \(tag) \(error.domain) \(error.code)")
    }

    package func onUdpSocketDidClose(_ sock: RunLoopUdpSocket) {
        note(sock, "close")
    }
}
