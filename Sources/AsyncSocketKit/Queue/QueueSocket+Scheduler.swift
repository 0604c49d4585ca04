import Dispatch
import Foundation

/// The dispatch scheduler of the drivers: sources and timers on the socket queue.
extension QueueSocket: SocketScheduler {
    func watch(_ fd: Int32, for kind: WatchKind, _ fired: @escaping (QueueSocket) -> Void) throws -> DispatchWatch {
        let handler = TimerHandler(fired)
        return try DispatchWatch(fd, for: kind, on: socketQueue) { [weak self] in
            if let self { onSocketQueue { handler.fired(self) } }
        }
    }

    func pause(_ watch: DispatchWatch) {
        watch.pause()
    }

    func resume(_ watch: DispatchWatch) {
        watch.resume()
    }

    func stopWatching(_ watch: DispatchWatch, fd: Int32, closing: Bool) {
        watch.stop(closing: closing ? fd : nil)
    }

    func timer(after seconds: Double, _ fired: @escaping (QueueSocket) -> Void) -> any DispatchSourceTimer {
        armDispatchTimer(nil, after: seconds, fired)
    }

    func cancelTimer(_ timer: any DispatchSourceTimer) {
        timer.cancel()
    }
}
