import Foundation
import Logging

// Every face holds its delegate weakly (Swift's convention), so a listener can outlive its delegate.
// Then an accepted connection has nobody to be handed to: it is closed at once and the listener goes
// on listening (a delegate set later gets the next ones). The user hears about it once per listener,
// at warning level, since it is almost always a delegate that nothing kept alive.
enum AcceptWithoutDelegate {
    /// Closes `child` and warns (see ``warnOnce(peer:warned:logger:face:metadata:)``).
    static func reject(
        _ child: Int32, peer: SocketAddress?, warned: inout Bool, logger: Logger?, face: String,
        metadata: @autoclosure () -> Logger.Metadata
    ) {
        close(child)
        warnOnce(peer: peer, warned: &warned, logger: logger, face: face, metadata: metadata())
    }

    /// The first time for this listener (`warned` is its flag), logs a warning with the listener's
    /// `metadata`.
    static func warnOnce(
        peer: SocketAddress?, warned: inout Bool, logger: Logger?, face: String,
        metadata: @autoclosure () -> Logger.Metadata
    ) {
        guard !warned else { return }
        warned = true
        let from = peer?.description ?? "an unknown peer"
        logger?.warning(
            "\(face) listener has no delegate (delegates are held weakly; keep a strong reference): closed the connection from \(from); still listening",
            metadata: metadata())
    }
}
