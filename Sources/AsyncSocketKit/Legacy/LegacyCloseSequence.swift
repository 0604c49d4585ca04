import Foundation

// The legacy close grammar, in one place for every RunLoopSocket backend (native, queue core,
// AsyncSocketTesting's embedded one): an error close — or the peer's clean end, a nil error — tells
// onSocket(_:willDisconnectWithError:) while the socket still answers its getters and unreadData,
// then runs the full close unless the delegate disconnected (or reconnected) meanwhile; the full
// close's last act is onSocketDidDisconnect. A disconnect (the user's, or a disconnect-after) is the
// full close alone.

/// A RunLoopSocket backend's part in the close sequence.
package protocol LegacyClosing: AnyObject {
    /// The public socket the callbacks name.
    var closeOwner: RunLoopSocket? { get }
    /// Changes with every full close: a willDisconnect that closed or reconnected the socket shows here.
    var closeGeneration: Int { get }
    /// The error close begins: from here the backend is closing (`isClosingWithError`), keeps what
    /// `unreadData` returns, and reports itself not connected when the close is the peer's end.
    func beginErrorClose(atEnd: Bool)
    /// Releases everything; a started socket's full close ends with ``reportDisconnected(_:)``.
    func fullClose()
}

extension LegacyClosing {
    /// willDisconnect with `error` (nil: the peer's clean end), then the full close unless the
    /// delegate closed the socket itself.
    package func closeWithLegacyError(_ error: (any Error)?) {
        beginErrorClose(atEnd: error == nil)
        if let owner = closeOwner, let delegate = owner.delegateForCallbacks {
            let mark = closeGeneration
            delegate.onSocket(owner, willDisconnectWithError: error)
            guard mark == closeGeneration else { return }
        }
        fullClose()
    }

    /// The last act of the full close of a socket that was started.
    package func reportDisconnected(_ owner: RunLoopSocket?) {
        guard let owner else { return }
        owner.delegateForCallbacks?.onSocketDidDisconnect(owner)
        owner.tracker?.remove(owner)
    }
}
