import Dispatch
import Foundation

// A watch on a descriptor for the dispatch scheduler (a connect in flight, a listener). A connect
// is watched through a duplicate of the descriptor, so the socket itself keeps its number (the
// legacy `socketFD` seen in onSocketWillConnect stays valid) while libdispatch's bookkeeping for
// the watched number stays apart: after a hang-up libdispatch keeps its record of a number until
// every source on it is gone, and a read source made on that number meanwhile would never be
// registered (a reset right after connecting went unreported). A listener is watched on its own
// number, as it always was: nothing else is ever registered on it.
final class DispatchWatch {
    /// The number the source watches: a duplicate (connects) or the descriptor itself (listeners).
    private let watched: Int32
    private let isDuplicate: Bool
    private let source: any DispatchSourceProtocol
    private var suspended = false

    /// Watches `fd` on `queue`; throws when the duplicate a connect needs cannot be made.
    init(_ fd: Int32, for kind: WatchKind, on queue: DispatchQueue, _ fired: @escaping @Sendable () -> Void) throws {
        switch kind {
        case .connectCompletion:
            watched = fcntl(fd, F_DUPFD_CLOEXEC, 0)
            guard watched >= 0 else { throw SystemError.posix(errno, "dup") }
            isDuplicate = true
            source = DispatchSource.makeWriteSource(fileDescriptor: watched, queue: queue)
        case .incomingConnections:
            watched = fd
            isDuplicate = false
            source = DispatchSource.makeReadSource(fileDescriptor: watched, queue: queue)
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

    /// Ends the watch; with `closing`, the socket `fd` closes now (SafeClose: its number stays taken
    /// until the source is gone), and every number once the source is gone.
    func stop(closing fd: Int32?) {
        let (watched, isDuplicate) = (watched, isDuplicate)
        switch (fd, isDuplicate) {
        case (let fd?, true):
            source.setCancelHandler {
                close(watched)
                close(fd)
            }
            SafeClose.detach(watched)
            SafeClose.detach(fd)
        case (let fd?, false):
            source.setCancelHandler { close(fd) }
            SafeClose.detach(fd)
        case (nil, true):
            source.setCancelHandler { close(watched) }
        case (nil, false):
            break
        }
        resume()
        source.cancel()
    }
}
