import AsyncSocketKit
import Foundation

/// UDP echo as AsyncUdpSocket code writes it: one receive queued at a time; each datagram is sent
/// back to its sender (`send(_:toHost:port:…)` with the host string the callback gave) and the next
/// receive is queued.
public final class RunLoopUdpEchoDelegate: RunLoopUdpSocketDelegate {
    public init() {}

    public func onUdpSocket(
        _ sock: RunLoopUdpSocket, didReceive data: Data, withTag tag: Int, fromHost host: String, port: UInt16
    ) -> Bool {
        sock.send(data, toHost: host, port: port, withTimeout: -1, tag: 0)
        sock.receive(withTimeout: -1, tag: 0)
        return true
    }

    public func onUdpSocket(_ sock: RunLoopUdpSocket, didNotReceiveDataWithTag tag: Int, dueToError error: any Error) {
        sock.receive(withTimeout: -1, tag: 0)
    }
}
