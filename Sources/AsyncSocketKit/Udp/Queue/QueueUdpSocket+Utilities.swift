import Dispatch
import Foundation

// The rest of GCDAsyncUdpSocket's surface: the other ways to set the delegate, the socket queue's
// target queues, running a block on the socket queue with access to the descriptors, a send without
// a timeout, and the address family of a sockaddr. (The host and port of a sockaddr are
// QueueSocket's static utilities: GCDAsyncUdpSocket's class methods of the same names did the same.)
extension QueueUdpSocket {
    /// Sets the delegate and returns once it is in place.
    ///
    /// Original: `synchronouslySetDelegate:` (GCDAsyncUdpSocket).
    public func synchronouslySetDelegate(_ delegate: (any QueueUdpSocketDelegate)?) {
        sync { storedDelegate = delegate }
    }

    /// Sets the delegate queue and returns once it is in place.
    ///
    /// Original: `synchronouslySetDelegateQueue:` (GCDAsyncUdpSocket).
    public func synchronouslySetDelegateQueue(_ delegateQueue: DispatchQueue?) {
        sync { storedDelegateQueue = delegateQueue }
    }

    /// Sets both, asynchronously (`setDelegate:delegateQueue:`).
    public func setDelegate(_ delegate: (any QueueUdpSocketDelegate)?, delegateQueue: DispatchQueue?) {
        let box = DelegateBox(delegate)
        async { [self] in
            storedDelegate = box.delegate
            storedDelegateQueue = delegateQueue
        }
    }

    /// Reads the delegate and its queue together (`getDelegate:delegateQueue:`).
    public func getDelegate(_ delegate: inout (any QueueUdpSocketDelegate)?, delegateQueue: inout DispatchQueue?) {
        (delegate, delegateQueue) = sync { (storedDelegate, storedDelegateQueue) }
    }

    /// Makes calls from `queue`, a queue the socket queue targets, run inline instead of deadlocking
    /// (`markSocketQueueTargetQueue:`).
    public func markSocketQueueTargetQueue(_ queue: DispatchQueue) {
        queue.setSpecific(key: Self.queueKey, value: identity)
    }

    /// Undoes ``markSocketQueueTargetQueue(_:)``.
    ///
    /// Original: `unmarkSocketQueueTargetQueue:` (GCDAsyncUdpSocket).
    public func unmarkSocketQueueTargetQueue(_ queue: DispatchQueue) {
        queue.setSpecific(key: Self.queueKey, value: nil)
    }

    /// Runs `block` synchronously on the socket queue (`performBlock:`); inside it ``socketFD``,
    /// ``socket4FD`` and ``socket6FD`` answer.
    public func perform(_ block: () -> Void) {
        sync(block)
    }

    /// The descriptor in use: the only one, or the IPv4 one when both are open; -1 when none is, and
    /// outside ``perform(_:)``.
    ///
    /// Original: `socketFD` (GCDAsyncUdpSocket).
    public var socketFD: Int32 {
        guard isOnSocketQueue else {
            logger?.warning(
                "QueueUdpSocket: socketFD is only available inside perform(_:)",
                metadata: SocketLogMetadata(id: logID, face: "QueueUdpSocket", engine: "dispatch").metadata())
            return -1
        }
        return socket4 >= 0 ? socket4 : socket6
    }

    /// The IPv4 descriptor; -1 when closed, and outside ``perform(_:)``.
    ///
    /// Original: `socket4FD` (GCDAsyncUdpSocket).
    public var socket4FD: Int32 { isOnSocketQueue ? socket4 : -1 }

    /// The IPv6 descriptor; -1 when closed, and outside ``perform(_:)``.
    ///
    /// Original: `socket6FD` (GCDAsyncUdpSocket).
    public var socket6FD: Int32 { isOnSocketQueue ? socket6 : -1 }

    /// Sends `data` to the connected peer with no timeout (`sendData:withTag:`).
    public func send(_ data: Data, withTag tag: Int) {
        send(data, withTimeout: -1, tag: tag)
    }

    /// The family of a `sockaddr` (`AF_INET`, `AF_INET6`), or `AF_UNSPEC` for bytes that are not an IP
    /// address (`familyFromAddress:`).
    public static func family(fromAddress address: Data) -> Int32 {
        guard let parsed = SocketAddress(data: address), parsed.isIP else { return AF_UNSPEC }
        return parsed.family
    }

    /// The label of the socket queue a ``QueueUdpSocket`` makes (`GCDAsyncUdpSocketQueueName`).
    public static let queueName = "GCDAsyncUdpSocket"
}
