import AsyncSocketKit
import Dispatch
import Foundation
import Logging

/// The echo of `udp-echo --api queue`: continuous receiving; each datagram is sent back to its sender's
/// address. Used on its delegate queue only.
final class QueueUdpEcho: QueueUdpSocketDelegate {
    let socket: QueueUdpSocket
    private var remaining: Int?
    private let logger: Logger

    init(remaining: Int?, logger: Logger) {
        self.remaining = remaining
        self.logger = logger
        socket = QueueUdpSocket(logger: logger)
        socket.setDelegate(self, delegateQueue: DispatchQueue(label: "udp-echo.delegate"))
    }

    func udpSocket(
        _ sock: QueueUdpSocket, didReceive data: Data, fromAddress address: Data,
        withFilterContext filterContext: (any Sendable)?
    ) {
        logger.debug(
            "echoing", metadata: ["bytes": "\(data.count)", "peer": "\(QueueSocket.host(fromAddress: address) ?? "?")"])
        guard remaining.map({ $0 > 0 }) ?? true else { return }
        sock.send(data, toAddress: address, withTimeout: 5, tag: 0)
        if let left = remaining {
            remaining = left - 1
            if left == 1 {
                sock.pauseReceiving()
                sock.closeAfterSending()
            }
        }
    }

    func udpSocket(_ sock: QueueUdpSocket, didNotSendDataWithTag tag: Int, dueToError error: (any Error)?) {
        logger.warning("could not echo", metadata: ["error": "\(error?.localizedDescription ?? "?")"])
    }

    func udpSocketDidClose(_ sock: QueueUdpSocket, withError error: (any Error)?) {
        if let error {
            print("udp-echo: closed: \(error.localizedDescription)")
        } else {
            print("udp-echo: closed")
        }
        fflush(nil)
        Foundation.exit(error == nil ? 0 : 1)
    }
}
