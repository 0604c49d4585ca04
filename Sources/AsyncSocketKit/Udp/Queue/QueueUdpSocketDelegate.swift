import Foundation

/// The delegate of a ``QueueUdpSocket``: GCDAsyncUdpSocket's `GCDAsyncUdpSocketDelegate`. Every
/// method is optional (each default does nothing); every call arrives on the socket's delegate queue.
///
/// Swift binds each requirement once, when a class declares its conformance: a method spelled
/// slightly differently is never called. For a delegate class hierarchy, subclass
/// ``QueueUdpSocketDelegateBase`` and write `override`.
public protocol QueueUdpSocketDelegate: AnyObject {
    /// `udpSocket:didConnectToAddress:` — a ``QueueUdpSocket/connect(toHost:onPort:)`` or
    /// ``QueueUdpSocket/connect(toAddress:)`` succeeded; `address` is the peer's `sockaddr`.
    func udpSocket(_ sock: QueueUdpSocket, didConnectToAddress address: Data)

    /// `udpSocket:didNotConnect:` — the name was not found or `connect` failed.
    func udpSocket(_ sock: QueueUdpSocket, didNotConnect error: (any Error)?)

    /// `udpSocket:didSendDataWithTag:` — the datagram was handed to the kernel, or the send filter
    /// dropped it.
    func udpSocket(_ sock: QueueUdpSocket, didSendDataWithTag tag: Int)

    /// `udpSocket:didNotSendDataWithTag:dueToError:` — the send timed out
    /// (``QueueUdpSocketError/Code/sendTimeout``), its destination did not fit the connection
    /// (`badConfig`), its host was not found, or the system refused it (an `NSPOSIXErrorDomain`
    /// error: `EMSGSIZE`, `ECONNREFUSED`, `EHOSTUNREACH` …; the socket stays open, unlike
    /// GCDAsyncUdpSocket, see `Migration/README.md`).
    func udpSocket(_ sock: QueueUdpSocket, didNotSendDataWithTag tag: Int, dueToError error: (any Error)?)

    /// `udpSocket:didReceiveData:fromAddress:withFilterContext:` — a datagram arrived and passed the
    /// receive filter; `address` is the sender's `sockaddr`, `filterContext` what the filter set.
    func udpSocket(
        _ sock: QueueUdpSocket, didReceive data: Data, fromAddress address: Data,
        withFilterContext filterContext: (any Sendable)?)

    /// `udpSocketDidClose:withError:` — the socket closed: `nil` after ``QueueUdpSocket/close()`` or
    /// ``QueueUdpSocket/closeAfterSending()``, the error when reading failed. Called only when the
    /// socket had opened its descriptors.
    func udpSocketDidClose(_ sock: QueueUdpSocket, withError error: (any Error)?)
}

extension QueueUdpSocketDelegate {
    /// Does nothing.
    ///
    /// Original: `udpSocket:didConnectToAddress:` (GCDAsyncUdpSocketDelegate).
    public func udpSocket(_ sock: QueueUdpSocket, didConnectToAddress address: Data) {}
    /// Does nothing.
    ///
    /// Original: `udpSocket:didNotConnect:` (GCDAsyncUdpSocketDelegate).
    public func udpSocket(_ sock: QueueUdpSocket, didNotConnect error: (any Error)?) {}
    /// Does nothing.
    ///
    /// Original: `udpSocket:didSendDataWithTag:` (GCDAsyncUdpSocketDelegate).
    public func udpSocket(_ sock: QueueUdpSocket, didSendDataWithTag tag: Int) {}
    /// Does nothing.
    ///
    /// Original: `udpSocket:didNotSendDataWithTag:dueToError:` (GCDAsyncUdpSocketDelegate).
    public func udpSocket(_ sock: QueueUdpSocket, didNotSendDataWithTag tag: Int, dueToError error: (any Error)?) {}
    /// Does nothing.
    ///
    /// Original: `udpSocket:didReceiveData:fromAddress:withFilterContext:` (GCDAsyncUdpSocketDelegate).
    public func udpSocket(
        _ sock: QueueUdpSocket, didReceive data: Data, fromAddress address: Data,
        withFilterContext filterContext: (any Sendable)?
    ) {}
    /// Does nothing.
    ///
    /// Original: `udpSocketDidClose:withError:` (GCDAsyncUdpSocketDelegate).
    public func udpSocketDidClose(_ sock: QueueUdpSocket, withError error: (any Error)?) {}
}

/// A ``QueueUdpSocketDelegate`` whose methods a subclass overrides (each does nothing here), so a
/// delegate class hierarchy gets every override called.
open class QueueUdpSocketDelegateBase: QueueUdpSocketDelegate {
    /// A delegate that does what an Objective-C delegate implementing none of the methods did.
    public init() {}

    /// Does nothing.
    ///
    /// Original: `udpSocket:didConnectToAddress:` (GCDAsyncUdpSocketDelegate).
    open func udpSocket(_ sock: QueueUdpSocket, didConnectToAddress address: Data) {}
    /// Does nothing.
    ///
    /// Original: `udpSocket:didNotConnect:` (GCDAsyncUdpSocketDelegate).
    open func udpSocket(_ sock: QueueUdpSocket, didNotConnect error: (any Error)?) {}
    /// Does nothing.
    ///
    /// Original: `udpSocket:didSendDataWithTag:` (GCDAsyncUdpSocketDelegate).
    open func udpSocket(_ sock: QueueUdpSocket, didSendDataWithTag tag: Int) {}
    /// Does nothing.
    ///
    /// Original: `udpSocket:didNotSendDataWithTag:dueToError:` (GCDAsyncUdpSocketDelegate).
    open func udpSocket(_ sock: QueueUdpSocket, didNotSendDataWithTag tag: Int, dueToError error: (any Error)?) {}
    /// Does nothing.
    ///
    /// Original: `udpSocket:didReceiveData:fromAddress:withFilterContext:` (GCDAsyncUdpSocketDelegate).
    open func udpSocket(
        _ sock: QueueUdpSocket, didReceive data: Data, fromAddress address: Data,
        withFilterContext filterContext: (any Sendable)?
    ) {}
    /// Does nothing.
    ///
    /// Original: `udpSocketDidClose:withError:` (GCDAsyncUdpSocketDelegate).
    open func udpSocketDidClose(_ sock: QueueUdpSocket, withError error: (any Error)?) {}
}
