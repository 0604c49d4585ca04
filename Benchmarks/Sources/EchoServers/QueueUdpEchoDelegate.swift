import AsyncSocketKit
import Dispatch
import Foundation

/// UDP echo as GCDAsyncUdpSocket code writes it: continuous receiving; each datagram is sent back to
/// the address it came from. Used on its delegate queue only.
public final class QueueUdpEchoDelegate: QueueUdpSocketDelegate {
    /// The delegate queue.
    public let queue = DispatchQueue(label: "QueueUdpEcho.delegate")

    public init() {}

    public func udpSocket(
        _ sock: QueueUdpSocket, didReceive data: Data, fromAddress address: Data,
        withFilterContext filterContext: (any Sendable)?
    ) {
        sock.send(data, toAddress: address, withTimeout: -1, tag: 0)
    }
}
