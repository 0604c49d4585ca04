import Dispatch
import Foundation

/// Where a queued datagram (or the connect GCDAsyncUdpSocket queues among them) goes.
enum QueueUdpDestination: Sendable, Equatable {
    /// The connected peer (`sendData:withTimeout:tag:`).
    case connectedPeer
    /// A name or numeric host, looked up when the packet's turn comes.
    case host(String, UInt16)
    case address(SocketAddress)
}

/// An entry of a ``QueueUdpSocket``'s send queue: a datagram, or a connect, which GCDAsyncUdpSocket
/// queued behind the sends before it.
struct QueueUdpPacket: Sendable {
    enum Kind: Sendable {
        case datagram(Data, to: QueueUdpDestination)
        case connect(QueueUdpDestination)
    }

    let kind: Kind
    let timeout: TimeInterval
    let tag: Int
    /// Above 0: the datagram's bytes leave as datagrams of this size, the last one shorter (`UDP_SEGMENT`).
    var segmentSize: UInt16 = 0
}

/// `setSendFilter:withQueue:isAsynchronous:`: decides, on `queue`, whether a datagram (its bytes,
/// its destination's `sockaddr`, its tag) is sent; `false` drops it, and the delegate still hears
/// `didSendDataWithTag`, as in the original.
public typealias QueueUdpSocketSendFilter = @Sendable (_ data: Data, _ address: Data, _ tag: Int) -> Bool

/// `setReceiveFilter:withQueue:isAsynchronous:`: decides, on `queue`, whether a datagram (its bytes,
/// its sender's `sockaddr`) reaches the delegate; it may set a context the delegate receives.
public typealias QueueUdpSocketReceiveFilter =
    @Sendable (_ data: Data, _ address: Data, _ context: inout (any Sendable)?) -> Bool

extension QueueUdpSocket {
    struct SendFilter {
        let block: QueueUdpSocketSendFilter
        let queue: DispatchQueue
        let isAsynchronous: Bool
    }

    struct ReceiveFilter {
        let block: QueueUdpSocketReceiveFilter
        let queue: DispatchQueue
        let isAsynchronous: Bool
    }
}
