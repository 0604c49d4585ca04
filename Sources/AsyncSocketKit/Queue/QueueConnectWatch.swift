import Dispatch
import Foundation

// The watch on one connect in flight. Its writability is watched through a duplicate of the
// descriptor, so the connection itself keeps its number (the legacy `socketFD` seen in
// onSocketWillConnect stays valid) while libdispatch's bookkeeping for the watched number stays apart:
// after a hang-up libdispatch keeps its record of a number until every source on it is gone, and a
// read source made on that number meanwhile would never be registered (a reset right after
// connecting went unreported).
struct QueueConnectWatch {
    /// The duplicate the source watches.
    let watch: Int32
    let source: any DispatchSourceWrite

    /// The connect completed: stop watching; the socket lives on.
    func finish() {
        let watch = watch
        source.setCancelHandler { close(watch) }
        source.cancel()
    }

    /// Abandons the attempt: the socket `fd` closes now (SafeClose), both numbers once the source is
    /// gone.
    func cancel(closing fd: Int32) {
        let watch = watch
        source.setCancelHandler {
            close(watch)
            close(fd)
        }
        SafeClose.detach(watch)
        SafeClose.detach(fd)
        source.cancel()
    }
}
