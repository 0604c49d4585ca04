import Dispatch
import Foundation

// A watch on a descriptor for the dispatch scheduler (a connect in flight, a listener). The source
// watches a duplicate of the descriptor, so the socket itself keeps its number (the legacy `socketFD`
// seen in onSocketWillConnect stays valid) while libdispatch's bookkeeping for the watched number
// stays apart: after a hang-up libdispatch keeps its record of a number until every source on it is
// gone, and a read source made on that number meanwhile would never be registered (a reset right
// after connecting went unreported).
final class DispatchWatch {
    /// The duplicate the source watches.
    private let watched: Int32
    private let source: any DispatchSourceProtocol
    private var suspended = false

    /// Watches `fd` (through a duplicate) on `queue`; throws when the duplicate cannot be made.
    init(_ fd: Int32, for kind: WatchKind, on queue: DispatchQueue, _ fired: @escaping @Sendable () -> Void) throws {
        watched = fcntl(fd, F_DUPFD_CLOEXEC, 0)
        guard watched >= 0 else { throw SystemError.posix(errno, "dup") }
        switch kind {
        case .connectCompletion: source = DispatchSource.makeWriteSource(fileDescriptor: watched, queue: queue)
        case .incomingConnections: source = DispatchSource.makeReadSource(fileDescriptor: watched, queue: queue)
        }
        source.setEventHandler(handler: fired)
        source.activate()
    }

    func pause() {
        guard !suspended else { return }
        suspended = true
        source.suspend()
    }

    func resume() {
        guard suspended else { return }
        suspended = false
        source.resume()
    }

    /// Ends the watch; with `closing`, the socket `fd` closes now (SafeClose), both numbers once the
    /// source is gone.
    func stop(closing fd: Int32?) {
        let watched = watched
        if let fd {
            source.setCancelHandler {
                close(watched)
                close(fd)
            }
            SafeClose.detach(watched)
            SafeClose.detach(fd)
        } else {
            source.setCancelHandler { close(watched) }
        }
        resume()
        source.cancel()
    }
}
