import Foundation

/// The delegate of a ``RunLoopSocket``: the Swift spelling of the original's informal
/// `AsyncSocketDelegate` protocol. Every method is optional (each has a default implementation that
/// does what the original did when the delegate did not respond to the selector). All calls arrive
/// on the socket's run-loop thread.
///
/// ## A method that is never called
///
/// Objective-C looked each selector up when it sent it; Swift decides once, when a class declares
/// its conformance, and uses the protocol extension's default for every requirement the class does
/// not implement there — silently. Two kinds of ported method are therefore never called:
///
/// - one spelled slightly wrong, such as `onSocket(_:didReadData:withTag:)` (the Objective-C name)
///   for ``onSocket(_:didRead:withTag:)``, or with a different parameter type: it is just another
///   method of the class;
/// - one that a subclass adds while only its superclass conforms: the superclass's conformance
///   already uses the default, whatever subclasses declare.
///
/// `swift run asyncsocket migrate-scan <sources>` warns about near misses and gives the exact
/// signature. For a delegate class hierarchy, subclass ``RunLoopSocketDelegateBase`` instead of
/// conforming directly: it implements every method, so subclasses write `override`, each override is
/// called as in Objective-C, and a misspelled `override` does not compile.
public protocol RunLoopSocketDelegate: AnyObject {
    /// `onSocket:willDisconnectWithError:` — the socket is closing because of an error, a timeout, a
    /// max-out, a failed connect, or a clean close by the peer (`error` is `nil` then). The socket is
    /// still open here: ``RunLoopSocket/unreadData()`` answers only inside this call, and
    /// ``RunLoopSocket/socketFD``, the hosts, ports and addresses still answer (on both engines).
    /// Reads, writes and `startTLS` called here are dropped (with a `.debug` log line), as the full
    /// close that follows drops everything queued.
    func onSocket(_ sock: RunLoopSocket, willDisconnectWithError error: (any Error)?)

    /// `onSocketDidDisconnect:` — the last callback of every close of a started socket. A user
    /// `disconnect()` calls it before returning.
    func onSocketDidDisconnect(_ sock: RunLoopSocket)

    /// `onSocket:didAcceptNewSocket:` — a listening socket accepted `newSocket`, which has the same
    /// delegate. Keep a reference to it: one that nobody keeps is closed at once (and reported).
    func onSocket(_ sock: RunLoopSocket, didAcceptNewSocket newSocket: RunLoopSocket)

    /// `onSocket:wantsRunLoopForNewSocket:` — the loop the accepted socket should live on; `nil`
    /// (the default) keeps it on the listener's loop.
    func onSocket(_ sock: RunLoopSocket, wantsRunLoopForNewSocket newSocket: RunLoopSocket) -> EventRunLoop?

    /// `onSocketWillConnect:` — called inside the connect methods (and for an accepted socket after
    /// `wantsRunLoopForNewSocket`); returning `false` cancels. ``RunLoopSocket/socketFD`` is the
    /// place to set socket options, where the original offered its CF streams.
    func onSocketWillConnect(_ sock: RunLoopSocket) -> Bool

    /// `onSocket:didConnectToHost:port:` — connected; `host` is numeric.
    func onSocket(_ sock: RunLoopSocket, didConnectToHost host: String, port: UInt16)

    /// `onSocket:didReadData:withTag:` — a queued read finished.
    func onSocket(_ sock: RunLoopSocket, didRead data: Data, withTag tag: Int)

    /// `onSocket:didReadPartialDataOfLength:tag:` — a read to a length or a separator made progress:
    /// `partialLength` bytes in this pass (not a running total). Never for reads of what is available.
    func onSocket(_ sock: RunLoopSocket, didReadPartialDataOfLength partialLength: Int, tag: Int)

    /// `onSocket:didWriteDataWithTag:` — a queued write finished.
    func onSocket(_ sock: RunLoopSocket, didWriteDataWithTag tag: Int)

    /// `onSocket:didWritePartialDataOfLength:tag:` — a write made progress: bytes of this pass.
    func onSocket(_ sock: RunLoopSocket, didWritePartialDataOfLength partialLength: Int, tag: Int)

    /// `onSocket:shouldTimeoutReadWithTag:elapsed:bytesDone:` — a read's timer fired. Return a
    /// positive number of seconds to extend it; 0 (the default) or less times it out. `elapsed` is
    /// the original timeout plus every extension granted so far.
    func onSocket(
        _ sock: RunLoopSocket, shouldTimeoutReadWithTag tag: Int, elapsed: TimeInterval, bytesDone length: Int
    ) -> TimeInterval

    /// `onSocket:shouldTimeoutWriteWithTag:elapsed:bytesDone:` — as for reads.
    func onSocket(
        _ sock: RunLoopSocket, shouldTimeoutWriteWithTag tag: Int, elapsed: TimeInterval, bytesDone length: Int
    ) -> TimeInterval

    /// `onSocketDidSecure:` — the TLS handshake finished.
    func onSocketDidSecure(_ sock: RunLoopSocket)

    /// The write queue, which had gone above the high mark of ``RunLoopSocket/writeWatermarks``, drained
    /// to the low mark: ``RunLoopSocket/isWritable`` is `true` again. Beyond the original, which had no
    /// watermarks; called after the write callbacks of the pass that sent the bytes.
    func onSocketDidBecomeWritable(_ sock: RunLoopSocket)
}

extension RunLoopSocketDelegate {
    /// Does nothing.
    ///
    /// Original: `onSocket:willDisconnectWithError:` (AsyncSocketDelegate).
    public func onSocket(_ sock: RunLoopSocket, willDisconnectWithError error: (any Error)?) {}
    /// Does nothing.
    ///
    /// Original: `onSocketDidDisconnect:` (AsyncSocketDelegate).
    public func onSocketDidDisconnect(_ sock: RunLoopSocket) {}
    /// Does nothing (so the new socket, unless kept elsewhere, is closed).
    ///
    /// Original: `onSocket:didAcceptNewSocket:` (AsyncSocketDelegate).
    public func onSocket(_ sock: RunLoopSocket, didAcceptNewSocket newSocket: RunLoopSocket) {}
    /// `nil`: the listener's own loop.
    ///
    /// Original: `onSocket:wantsRunLoopForNewSocket:` (AsyncSocketDelegate).
    public func onSocket(_ sock: RunLoopSocket, wantsRunLoopForNewSocket newSocket: RunLoopSocket) -> EventRunLoop? {
        nil
    }
    /// `true`.
    ///
    /// Original: `onSocketWillConnect:` (AsyncSocketDelegate).
    public func onSocketWillConnect(_ sock: RunLoopSocket) -> Bool { true }
    /// Does nothing.
    ///
    /// Original: `onSocket:didConnectToHost:port:` (AsyncSocketDelegate).
    public func onSocket(_ sock: RunLoopSocket, didConnectToHost host: String, port: UInt16) {}
    /// Does nothing.
    ///
    /// Original: `onSocket:didReadData:withTag:` (AsyncSocketDelegate).
    public func onSocket(_ sock: RunLoopSocket, didRead data: Data, withTag tag: Int) {}
    /// Does nothing.
    ///
    /// Original: `onSocket:didReadPartialDataOfLength:tag:` (AsyncSocketDelegate).
    public func onSocket(_ sock: RunLoopSocket, didReadPartialDataOfLength partialLength: Int, tag: Int) {}
    /// Does nothing.
    ///
    /// Original: `onSocket:didWriteDataWithTag:` (AsyncSocketDelegate).
    public func onSocket(_ sock: RunLoopSocket, didWriteDataWithTag tag: Int) {}
    /// Does nothing.
    ///
    /// Original: `onSocket:didWritePartialDataOfLength:tag:` (AsyncSocketDelegate).
    public func onSocket(_ sock: RunLoopSocket, didWritePartialDataOfLength partialLength: Int, tag: Int) {}
    /// 0: the read times out.
    ///
    /// Original: `onSocket:shouldTimeoutReadWithTag:elapsed:bytesDone:` (AsyncSocketDelegate).
    public func onSocket(
        _ sock: RunLoopSocket, shouldTimeoutReadWithTag tag: Int, elapsed: TimeInterval, bytesDone length: Int
    ) -> TimeInterval { 0 }
    /// 0: the write times out.
    ///
    /// Original: `onSocket:shouldTimeoutWriteWithTag:elapsed:bytesDone:` (AsyncSocketDelegate).
    public func onSocket(
        _ sock: RunLoopSocket, shouldTimeoutWriteWithTag tag: Int, elapsed: TimeInterval, bytesDone length: Int
    ) -> TimeInterval { 0 }
    /// Does nothing.
    ///
    /// Original: `onSocketDidSecure:` (AsyncSocketDelegate).
    public func onSocketDidSecure(_ sock: RunLoopSocket) {}
    /// Does nothing.
    ///
    /// Original: none; AsyncSocketDelegate has no counterpart.
    public func onSocketDidBecomeWritable(_ sock: RunLoopSocket) {}
}
