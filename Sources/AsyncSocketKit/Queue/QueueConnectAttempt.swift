import Dispatch
import Foundation

// One connect in flight. Its writability is watched through a duplicate of the descriptor, so the
// connection itself keeps its number (the legacy `socketFD` seen in onSocketWillConnect stays valid)
// while libdispatch's bookkeeping for the watched number stays apart: after a hang-up libdispatch
// keeps its record of a number until every source on it is gone, and a read source made on that
// number meanwhile would never be registered (a reset right after connecting went unreported).
struct QueueConnectAttempt {
    /// The socket being connected.
    let fd: Int32
    /// The duplicate the source watches.
    let watch: Int32
    let address: SocketAddress
    let source: any DispatchSourceWrite

    /// The connect completed: stop watching; the socket lives on.
    func finish() {
        let watch = watch
        source.setCancelHandler { close(watch) }
        source.cancel()
    }

    /// Abandons the attempt: the socket closes now (SafeClose), both numbers once the source is gone.
    func cancel() {
        let (fd, watch) = (fd, watch)
        source.setCancelHandler {
            close(watch)
            close(fd)
        }
        SafeClose.detach(watch)
        SafeClose.detach(fd)
        source.cancel()
    }
}
