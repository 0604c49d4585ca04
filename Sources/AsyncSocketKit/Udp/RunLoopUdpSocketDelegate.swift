import Foundation

/// The delegate of a ``RunLoopUdpSocket``: the Swift spelling of the original's informal
/// `AsyncUdpSocketDelegate` protocol. Every method is optional; each default does what the original
/// did when the delegate did not respond to the selector. All calls arrive on the socket's run-loop
/// thread, while the loop runs in one of the socket's modes.
///
/// As with ``RunLoopSocketDelegate``, Swift binds each requirement once, when a class declares its
/// conformance: a method spelled slightly differently is never called. For a delegate class
/// hierarchy, subclass ``RunLoopUdpSocketDelegateBase`` and write `override`.
public protocol RunLoopUdpSocketDelegate: AnyObject {
    /// `onUdpSocket:didSendDataWithTag:` — the datagram was handed to the kernel.
    func onUdpSocket(_ sock: RunLoopUdpSocket, didSendDataWithTag tag: Int)

    /// `onUdpSocket:didNotSendDataWithTag:dueToError:` — the send failed (`send`/`sendto` reported an
    /// error, as an `NSPOSIXErrorDomain` error) or timed out (``AsyncUdpSocketError/Code/sendTimeout``).
    /// The socket stays open and the next send goes on.
    func onUdpSocket(_ sock: RunLoopUdpSocket, didNotSendDataWithTag tag: Int, dueToError error: any Error)

    /// `onUdpSocket:didReceiveData:withTag:fromHost:port:` — a datagram arrived for the current receive;
    /// `host` is numeric. Return `true` to complete the receive. Return `false` to treat the datagram
    /// as never received: the same receive (same tag, same timer, still counting from when it began)
    /// waits for the next one. The default returns `true` (the datagram is consumed).
    func onUdpSocket(
        _ sock: RunLoopUdpSocket, didReceive data: Data, withTag tag: Int, fromHost host: String, port: UInt16
    ) -> Bool

    /// `onUdpSocket:didNotReceiveDataWithTag:dueToError:` — the current receive timed out
    /// (``AsyncUdpSocketError/Code/receiveTimeout``) or reading failed (an `NSPOSIXErrorDomain` error:
    /// `ECONNREFUSED` after an ICMP "port unreachable" on a connected socket, `EMSGSIZE` for a datagram
    /// larger than ``RunLoopUdpSocket/maxReceiveBufferSize``, which is dropped, never cut). The
    /// socket stays open and the next receive goes on.
    func onUdpSocket(_ sock: RunLoopUdpSocket, didNotReceiveDataWithTag tag: Int, dueToError error: any Error)

    /// `onUdpSocketDidClose:` — the socket closed (``RunLoopUdpSocket/close()`` or one of the
    /// close-after calls); always after the call that closed it has returned.
    func onUdpSocketDidClose(_ sock: RunLoopUdpSocket)
}

extension RunLoopUdpSocketDelegate {
    /// Does nothing.
    ///
    /// Original: `onUdpSocket:didSendDataWithTag:` (AsyncUdpSocketDelegate).
    public func onUdpSocket(_ sock: RunLoopUdpSocket, didSendDataWithTag tag: Int) {}

    /// Does nothing.
    ///
    /// Original: `onUdpSocket:didNotSendDataWithTag:dueToError:` (AsyncUdpSocketDelegate).
    public func onUdpSocket(_ sock: RunLoopUdpSocket, didNotSendDataWithTag tag: Int, dueToError error: any Error) {}

    /// Returns `true`: the datagram completes the receive and is dropped, as when the original's
    /// delegate did not implement the method.
    ///
    /// Original: `onUdpSocket:didReceiveData:withTag:fromHost:port:` (AsyncUdpSocketDelegate).
    public func onUdpSocket(
        _ sock: RunLoopUdpSocket, didReceive data: Data, withTag tag: Int, fromHost host: String, port: UInt16
    ) -> Bool {
        true
    }

    /// Does nothing.
    ///
    /// Original: `onUdpSocket:didNotReceiveDataWithTag:dueToError:` (AsyncUdpSocketDelegate).
    public func onUdpSocket(_ sock: RunLoopUdpSocket, didNotReceiveDataWithTag tag: Int, dueToError error: any Error) {
    }

    /// Does nothing.
    ///
    /// Original: `onUdpSocketDidClose:` (AsyncUdpSocketDelegate).
    public func onUdpSocketDidClose(_ sock: RunLoopUdpSocket) {}
}

/// A base class for ``RunLoopUdpSocketDelegate`` classes that are subclassed: every method is
/// `open` and does what the protocol's default does, so a subclass's `override` is the one called
/// and a misspelled `override` does not compile (see ``RunLoopSocketDelegateBase``).
open class RunLoopUdpSocketDelegateBase: RunLoopUdpSocketDelegate {
    /// A delegate that does what an Objective-C delegate implementing none of the methods did.
    public init() {}

    /// `onUdpSocket:didSendDataWithTag:`; does nothing.
    open func onUdpSocket(_ sock: RunLoopUdpSocket, didSendDataWithTag tag: Int) {}

    /// `onUdpSocket:didNotSendDataWithTag:dueToError:`; does nothing.
    open func onUdpSocket(_ sock: RunLoopUdpSocket, didNotSendDataWithTag tag: Int, dueToError error: any Error) {}

    /// `onUdpSocket:didReceiveData:withTag:fromHost:port:`; returns `true`.
    open func onUdpSocket(
        _ sock: RunLoopUdpSocket, didReceive data: Data, withTag tag: Int, fromHost host: String, port: UInt16
    ) -> Bool {
        true
    }

    /// `onUdpSocket:didNotReceiveDataWithTag:dueToError:`; does nothing.
    open func onUdpSocket(_ sock: RunLoopUdpSocket, didNotReceiveDataWithTag tag: Int, dueToError error: any Error) {}

    /// `onUdpSocketDidClose:`; does nothing.
    open func onUdpSocketDidClose(_ sock: RunLoopUdpSocket) {}
}
