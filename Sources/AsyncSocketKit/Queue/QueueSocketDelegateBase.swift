import Dispatch
import Foundation

/// A base class for ``QueueSocketDelegate`` classes that are subclassed: the Objective-C
/// `GCDAsyncSocketDelegate` hierarchy of ported code, with `override` checked by the compiler.
///
/// Every requirement of the protocol is an `open` method here that does what the protocol's default
/// does (nothing; `nil` from ``newSocketQueueForConnection(fromAddress:on:)``, `0` from the timeout
/// questions, a refusal from ``socket(_:didReceiveTrust:completionHandler:)``). Because this class
/// implements them all, the socket calls them through the class's method table, so a subclass's
/// `override` is the one called, at any depth, as in an Objective-C class hierarchy:
///
/// ```swift
/// class LineReader: QueueSocketDelegateBase {
///     override func socket(_ sock: QueueSocket, didConnectToHost host: String, port: UInt16) {
///         sock.readData(to: QueueSocket.lfData, withTimeout: 10, tag: 0)
///     }
/// }
///
/// final class Greeter: LineReader {
///     override func socket(_ sock: QueueSocket, didRead data: Data, withTag tag: Int) { /* called */ }
///     override func socketDidDisconnect(_ sock: QueueSocket, withError error: (any Error)?) { /* called */ }
/// }
/// ```
///
/// A plain class conforming to ``QueueSocketDelegate`` does not give that: Swift binds each
/// requirement the class does not implement to the protocol extension's default when the class
/// conforms, so a method a subclass adds is never called, and neither is a method whose name is
/// slightly wrong — silently. Here a misspelled `override` does not compile.
///
/// The class has no state and is not `Sendable`, like the protocol: the socket hands it to its
/// delegate queue itself. Its methods run on that queue; a subclass keeps its own state safe there
/// (one serial delegate queue for all its sockets, or a lock).
open class QueueSocketDelegateBase: QueueSocketDelegate {
    /// A delegate that does what an Objective-C delegate implementing none of the methods did.
    public init() {}

    /// `newSocketQueueForConnectionFromAddress:onSocket:`; `nil`: the accepted socket makes its own
    /// queue. See ``QueueSocketDelegate/newSocketQueueForConnection(fromAddress:on:)``.
    open func newSocketQueueForConnection(fromAddress address: Data, on sock: QueueSocket) -> DispatchQueue? {
        nil
    }

    /// `socket:didAcceptNewSocket:`; does nothing, so the accepted socket, unless kept elsewhere, is
    /// closed. See ``QueueSocketDelegate/socket(_:didAcceptNewSocket:)``.
    open func socket(_ sock: QueueSocket, didAcceptNewSocket newSocket: QueueSocket) {}

    /// `socket:didConnectToHost:port:`; does nothing. See
    /// ``QueueSocketDelegate/socket(_:didConnectToHost:port:)``.
    open func socket(_ sock: QueueSocket, didConnectToHost host: String, port: UInt16) {}

    /// `socket:didConnectToUrl:`; does nothing. See ``QueueSocketDelegate/socket(_:didConnectTo:)``.
    open func socket(_ sock: QueueSocket, didConnectTo url: URL) {}

    /// `socket:didReadData:withTag:`; does nothing. See ``QueueSocketDelegate/socket(_:didRead:withTag:)``.
    open func socket(_ sock: QueueSocket, didRead data: Data, withTag tag: Int) {}

    /// `socket:didReadPartialDataOfLength:tag:`; does nothing. See
    /// ``QueueSocketDelegate/socket(_:didReadPartialDataOfLength:tag:)``.
    open func socket(_ sock: QueueSocket, didReadPartialDataOfLength partialLength: Int, tag: Int) {}

    /// `socket:didWriteDataWithTag:`; does nothing. See
    /// ``QueueSocketDelegate/socket(_:didWriteDataWithTag:)``.
    open func socket(_ sock: QueueSocket, didWriteDataWithTag tag: Int) {}

    /// `socket:didWritePartialDataOfLength:tag:`; does nothing. See
    /// ``QueueSocketDelegate/socket(_:didWritePartialDataOfLength:tag:)``.
    open func socket(_ sock: QueueSocket, didWritePartialDataOfLength partialLength: Int, tag: Int) {}

    /// `socket:shouldTimeoutReadWithTag:elapsed:bytesDone:`; `0`: the read times out. See
    /// ``QueueSocketDelegate/socket(_:shouldTimeoutReadWithTag:elapsed:bytesDone:)``.
    open func socket(
        _ sock: QueueSocket, shouldTimeoutReadWithTag tag: Int, elapsed: TimeInterval, bytesDone length: Int
    ) -> TimeInterval { 0 }

    /// `socket:shouldTimeoutWriteWithTag:elapsed:bytesDone:`; `0`: the write times out. See
    /// ``QueueSocketDelegate/socket(_:shouldTimeoutWriteWithTag:elapsed:bytesDone:)``.
    open func socket(
        _ sock: QueueSocket, shouldTimeoutWriteWithTag tag: Int, elapsed: TimeInterval, bytesDone length: Int
    ) -> TimeInterval { 0 }

    /// `socketDidCloseReadStream:`; does nothing. See ``QueueSocketDelegate/socketDidCloseReadStream(_:)``.
    open func socketDidCloseReadStream(_ sock: QueueSocket) {}

    /// `socketDidDisconnect:withError:`; does nothing. See
    /// ``QueueSocketDelegate/socketDidDisconnect(_:withError:)``.
    open func socketDidDisconnect(_ sock: QueueSocket, withError error: (any Error)?) {}

    /// `socketDidSecure:`; does nothing. See ``QueueSocketDelegate/socketDidSecure(_:)``.
    open func socketDidSecure(_ sock: QueueSocket) {}

    /// The write queue drained to its low watermark; does nothing. See
    /// ``QueueSocketDelegate/socketDidBecomeWritable(_:)``.
    ///
    /// Original: none; GCDAsyncSocketDelegate has no counterpart.
    open func socketDidBecomeWritable(_ sock: QueueSocket) {}

    /// `socket:didReceiveTrust:completionHandler:`; refuses (`completionHandler(false)`), so a
    /// handshake with manual trust evaluation fails with `errSSLPeerBadCert` (-9825) unless a
    /// subclass answers. See ``QueueSocketDelegate/socket(_:didReceiveTrust:completionHandler:)``.
    open func socket(
        _ sock: QueueSocket, didReceiveTrust trust: CertificateChain,
        completionHandler: @escaping @Sendable (Bool) -> Void
    ) {
        completionHandler(false)
    }
}
