import Dispatch
import Foundation

/// The delegate of a ``QueueSocket``: GCDAsyncSocketDelegate in Swift. Every method is optional. All
/// calls arrive on the socket's delegate queue, in the order the socket produced them.
///
/// ## A method that is never called
///
/// Objective-C looked each selector up when it sent it; Swift decides once, when a class declares
/// its conformance, and uses the protocol extension's default for every requirement the class does
/// not implement there — silently. Two kinds of ported method are therefore never called:
///
/// - one spelled slightly wrong, such as `socket(_:didReadData:withTag:)` (the Objective-C name) for
///   ``socket(_:didRead:withTag:)``, or with a different parameter type: it is just another method
///   of the class;
/// - one that a subclass adds while only its superclass conforms: the superclass's conformance
///   already uses the default, whatever subclasses declare.
///
/// `swift run asyncsocket migrate-scan <sources>` warns about near misses and gives the exact
/// signature. For a delegate class hierarchy, subclass ``QueueSocketDelegateBase`` instead of
/// conforming directly: it implements every method, so subclasses write `override`, each override is
/// called as in Objective-C, and a misspelled `override` does not compile.
public protocol QueueSocketDelegate: AnyObject {
    /// `newSocketQueueForConnectionFromAddress:onSocket:` — the socket queue for an accepted
    /// connection (`nil`: the new socket makes its own).
    func newSocketQueueForConnection(fromAddress address: Data, on sock: QueueSocket) -> DispatchQueue?
    /// `socket:didAcceptNewSocket:` — keep a reference to `newSocket`; one nobody keeps is closed and
    /// reported. Accepted sockets never receive `didConnectToHost`.
    func socket(_ sock: QueueSocket, didAcceptNewSocket newSocket: QueueSocket)
    /// `socket:didConnectToHost:port:`.
    func socket(_ sock: QueueSocket, didConnectToHost host: String, port: UInt16)
    /// `socket:didConnectToUrl:` — a Unix-domain connect finished.
    func socket(_ sock: QueueSocket, didConnectTo url: URL)
    /// `socket:didReadData:withTag:`.
    func socket(_ sock: QueueSocket, didRead data: Data, withTag tag: Int)
    /// `socket:didReadPartialDataOfLength:tag:` — bytes of this pass, not a running total.
    func socket(_ sock: QueueSocket, didReadPartialDataOfLength partialLength: Int, tag: Int)
    /// `socket:didWriteDataWithTag:`.
    func socket(_ sock: QueueSocket, didWriteDataWithTag tag: Int)
    /// `socket:didWritePartialDataOfLength:tag:`.
    func socket(_ sock: QueueSocket, didWritePartialDataOfLength partialLength: Int, tag: Int)
    /// `socket:shouldTimeoutReadWithTag:elapsed:bytesDone:` — a positive answer extends the read.
    func socket(_ sock: QueueSocket, shouldTimeoutReadWithTag tag: Int, elapsed: TimeInterval, bytesDone length: Int)
        -> TimeInterval
    /// `socket:shouldTimeoutWriteWithTag:elapsed:bytesDone:` — a positive answer extends the write.
    func socket(_ sock: QueueSocket, shouldTimeoutWriteWithTag tag: Int, elapsed: TimeInterval, bytesDone length: Int)
        -> TimeInterval
    /// `socketDidCloseReadStream:` — the peer closed its side while `autoDisconnectOnClosedReadStream`
    /// is off; the socket stays open for writing.
    func socketDidCloseReadStream(_ sock: QueueSocket)
    /// `socketDidDisconnect:withError:` — the one final callback of every started socket; `nil` for a
    /// user disconnect, ``QueueSocketError/Code/closed`` when the peer closed.
    func socketDidDisconnect(_ sock: QueueSocket, withError error: (any Error)?)
    /// `socketDidSecure:`.
    func socketDidSecure(_ sock: QueueSocket)
    /// The write queue, which had gone above the high mark of ``QueueSocket/writeWatermarks``, drained to
    /// the low mark: ``QueueSocket/isWritable`` is `true` again. Beyond the original, which had no
    /// watermarks; called after the write callbacks of the pass that sent the bytes.
    func socketDidBecomeWritable(_ sock: QueueSocket)
    /// `socket:didReceiveTrust:completionHandler:` — with manual trust evaluation
    /// (`GCDAsyncSocketManuallyEvaluateTrust` / `TLSSettings.manualTrustEvaluation`), the peer's
    /// certificate chain, and what OpenSSL's own verification said; call `completionHandler` once,
    /// from any thread, with whether to trust it. The handshake waits until then.
    func socket(
        _ sock: QueueSocket, didReceiveTrust trust: CertificateChain,
        completionHandler: @escaping @Sendable (Bool) -> Void)
}

extension QueueSocketDelegate {
    /// `nil`: the accepted socket makes its own queue.
    ///
    /// Original: `newSocketQueueForConnectionFromAddress:onSocket:` (GCDAsyncSocketDelegate).
    public func newSocketQueueForConnection(fromAddress address: Data, on sock: QueueSocket) -> DispatchQueue? {
        nil
    }
    /// Does nothing (so the accepted socket, unless kept elsewhere, is closed).
    ///
    /// Original: `socket:didAcceptNewSocket:` (GCDAsyncSocketDelegate).
    public func socket(_ sock: QueueSocket, didAcceptNewSocket newSocket: QueueSocket) {}
    /// Does nothing.
    ///
    /// Original: `socket:didConnectToHost:port:` (GCDAsyncSocketDelegate).
    public func socket(_ sock: QueueSocket, didConnectToHost host: String, port: UInt16) {}
    /// Does nothing.
    ///
    /// Original: `socket:didConnectToUrl:` (GCDAsyncSocketDelegate).
    public func socket(_ sock: QueueSocket, didConnectTo url: URL) {}
    /// Does nothing.
    ///
    /// Original: `socket:didReadData:withTag:` (GCDAsyncSocketDelegate).
    public func socket(_ sock: QueueSocket, didRead data: Data, withTag tag: Int) {}
    /// Does nothing.
    ///
    /// Original: `socket:didReadPartialDataOfLength:tag:` (GCDAsyncSocketDelegate).
    public func socket(_ sock: QueueSocket, didReadPartialDataOfLength partialLength: Int, tag: Int) {}
    /// Does nothing.
    ///
    /// Original: `socket:didWriteDataWithTag:` (GCDAsyncSocketDelegate).
    public func socket(_ sock: QueueSocket, didWriteDataWithTag tag: Int) {}
    /// Does nothing.
    ///
    /// Original: `socket:didWritePartialDataOfLength:tag:` (GCDAsyncSocketDelegate).
    public func socket(_ sock: QueueSocket, didWritePartialDataOfLength partialLength: Int, tag: Int) {}
    /// 0: the read times out.
    ///
    /// Original: `socket:shouldTimeoutReadWithTag:elapsed:bytesDone:` (GCDAsyncSocketDelegate).
    public func socket(
        _ sock: QueueSocket, shouldTimeoutReadWithTag tag: Int, elapsed: TimeInterval, bytesDone length: Int
    ) -> TimeInterval { 0 }
    /// 0: the write times out.
    ///
    /// Original: `socket:shouldTimeoutWriteWithTag:elapsed:bytesDone:` (GCDAsyncSocketDelegate).
    public func socket(
        _ sock: QueueSocket, shouldTimeoutWriteWithTag tag: Int, elapsed: TimeInterval, bytesDone length: Int
    ) -> TimeInterval { 0 }
    /// Does nothing.
    ///
    /// Original: `socketDidCloseReadStream:` (GCDAsyncSocketDelegate).
    public func socketDidCloseReadStream(_ sock: QueueSocket) {}
    /// Does nothing.
    ///
    /// Original: `socketDidDisconnect:withError:` (GCDAsyncSocketDelegate).
    public func socketDidDisconnect(_ sock: QueueSocket, withError error: (any Error)?) {}
    /// Does nothing.
    ///
    /// Original: `socketDidSecure:` (GCDAsyncSocketDelegate).
    public func socketDidSecure(_ sock: QueueSocket) {}
    /// Does nothing.
    ///
    /// Original: none; GCDAsyncSocketDelegate has no counterpart.
    public func socketDidBecomeWritable(_ sock: QueueSocket) {}
    /// Refuses: a delegate asking for manual trust must answer it (the handshake then fails with
    /// `errSSLPeerBadCert`, -9825).
    ///
    /// Original: `socket:didReceiveTrust:completionHandler:` (GCDAsyncSocketDelegate).
    public func socket(
        _ sock: QueueSocket, didReceiveTrust trust: CertificateChain,
        completionHandler: @escaping @Sendable (Bool) -> Void
    ) {
        completionHandler(false)
    }
}
