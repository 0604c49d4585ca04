import Foundation

/// A base class for ``RunLoopSocketDelegate`` classes that are subclassed: the Objective-C delegate
/// hierarchy of ported code, with `override` checked by the compiler.
///
/// Every requirement of the protocol is an `open` method here that does what the protocol's default
/// does (nothing; `nil` from ``onSocket(_:wantsRunLoopForNewSocket:)``, `true` from
/// ``onSocketWillConnect(_:)``, `0` from the timeout questions). Because this class implements them
/// all, the socket calls them through the class's method table, so a subclass's `override` is the
/// one called, at any depth, as in an Objective-C class hierarchy:
///
/// ```swift
/// class LineReader: RunLoopSocketDelegateBase {
///     override func onSocket(_ sock: RunLoopSocket, didConnectToHost host: String, port: UInt16) {
///         sock.readData(to: RunLoopSocket.lfData, withTimeout: 10, tag: 0)
///     }
/// }
///
/// final class Greeter: LineReader {
///     override func onSocket(_ sock: RunLoopSocket, didRead data: Data, withTag tag: Int) { /* called */ }
///     override func onSocketDidDisconnect(_ sock: RunLoopSocket) { /* called */ }
/// }
/// ```
///
/// A plain class conforming to ``RunLoopSocketDelegate`` does not give that: Swift binds each
/// requirement the class does not implement to the protocol extension's default when the class
/// conforms, so a method a subclass adds is never called, and neither is a method whose name is
/// slightly wrong — silently. Here a misspelled `override` does not compile.
///
/// The class has no state. Its methods are called on the socket's run-loop thread, like every
/// delegate call; a subclass's state needs no lock as long as its sockets share one loop.
open class RunLoopSocketDelegateBase: RunLoopSocketDelegate {
    /// A delegate that does what an Objective-C delegate implementing none of the methods did.
    public init() {}

    /// `onSocket:willDisconnectWithError:`; does nothing. See
    /// ``RunLoopSocketDelegate/onSocket(_:willDisconnectWithError:)``.
    open func onSocket(_ sock: RunLoopSocket, willDisconnectWithError error: (any Error)?) {}

    /// `onSocketDidDisconnect:`; does nothing. See ``RunLoopSocketDelegate/onSocketDidDisconnect(_:)``.
    open func onSocketDidDisconnect(_ sock: RunLoopSocket) {}

    /// `onSocket:didAcceptNewSocket:`; does nothing, so the new socket, unless kept elsewhere, is
    /// closed. See ``RunLoopSocketDelegate/onSocket(_:didAcceptNewSocket:)``.
    open func onSocket(_ sock: RunLoopSocket, didAcceptNewSocket newSocket: RunLoopSocket) {}

    /// `onSocket:wantsRunLoopForNewSocket:`; `nil`: the listener's own loop. See
    /// ``RunLoopSocketDelegate/onSocket(_:wantsRunLoopForNewSocket:)``.
    open func onSocket(_ sock: RunLoopSocket, wantsRunLoopForNewSocket newSocket: RunLoopSocket) -> EventRunLoop? {
        nil
    }

    /// `onSocketWillConnect:`; `true`. See ``RunLoopSocketDelegate/onSocketWillConnect(_:)``.
    open func onSocketWillConnect(_ sock: RunLoopSocket) -> Bool { true }

    /// `onSocket:didConnectToHost:port:`; does nothing. See
    /// ``RunLoopSocketDelegate/onSocket(_:didConnectToHost:port:)``.
    open func onSocket(_ sock: RunLoopSocket, didConnectToHost host: String, port: UInt16) {}

    /// `onSocket:didReadData:withTag:`; does nothing. See
    /// ``RunLoopSocketDelegate/onSocket(_:didRead:withTag:)``.
    open func onSocket(_ sock: RunLoopSocket, didRead data: Data, withTag tag: Int) {}

    /// `onSocket:didReadPartialDataOfLength:tag:`; does nothing. See
    /// ``RunLoopSocketDelegate/onSocket(_:didReadPartialDataOfLength:tag:)``.
    open func onSocket(_ sock: RunLoopSocket, didReadPartialDataOfLength partialLength: Int, tag: Int) {}

    /// `onSocket:didWriteDataWithTag:`; does nothing. See
    /// ``RunLoopSocketDelegate/onSocket(_:didWriteDataWithTag:)``.
    open func onSocket(_ sock: RunLoopSocket, didWriteDataWithTag tag: Int) {}

    /// `onSocket:didWritePartialDataOfLength:tag:`; does nothing. See
    /// ``RunLoopSocketDelegate/onSocket(_:didWritePartialDataOfLength:tag:)``.
    open func onSocket(_ sock: RunLoopSocket, didWritePartialDataOfLength partialLength: Int, tag: Int) {}

    /// `onSocket:shouldTimeoutReadWithTag:elapsed:bytesDone:`; `0`: the read times out. See
    /// ``RunLoopSocketDelegate/onSocket(_:shouldTimeoutReadWithTag:elapsed:bytesDone:)``.
    open func onSocket(
        _ sock: RunLoopSocket, shouldTimeoutReadWithTag tag: Int, elapsed: TimeInterval, bytesDone length: Int
    ) -> TimeInterval { 0 }

    /// `onSocket:shouldTimeoutWriteWithTag:elapsed:bytesDone:`; `0`: the write times out. See
    /// ``RunLoopSocketDelegate/onSocket(_:shouldTimeoutWriteWithTag:elapsed:bytesDone:)``.
    open func onSocket(
        _ sock: RunLoopSocket, shouldTimeoutWriteWithTag tag: Int, elapsed: TimeInterval, bytesDone length: Int
    ) -> TimeInterval { 0 }

    /// `onSocketDidSecure:`; does nothing. See ``RunLoopSocketDelegate/onSocketDidSecure(_:)``.
    open func onSocketDidSecure(_ sock: RunLoopSocket) {}

    /// The write queue drained to its low watermark; does nothing. See
    /// ``RunLoopSocketDelegate/onSocketDidBecomeWritable(_:)``.
    ///
    /// Original: none; AsyncSocketDelegate has no counterpart.
    open func onSocketDidBecomeWritable(_ sock: RunLoopSocket) {}
}
