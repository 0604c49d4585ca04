import Foundation

/// A listener with a backlog of 0 that never accepts, and connections filling it: on Linux, SYNs
/// to a full accept queue are dropped, so one more connect hangs in SYN_SENT until it times out.
package final class FullBacklog: @unchecked Sendable {
    package let listener: RawListener
    private var fillers: [Int32] = []

    package init() throws {
        listener = try RawListener(backlog: 0)
        for _ in 0..<8 {
            let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
            fillers.append(fd)
            let address = loopbackAddress(port: listener.port)
            _ = address.withUnsafeBytes {
                connect(fd, $0.baseAddress!.assumingMemoryBound(to: sockaddr.self), socklen_t($0.count))
            }
            var pfd = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
            if poll(&pfd, 1, 200) == 0 {
                return
            }
        }
        throw POSIXError(.EAGAIN, userInfo: [NSLocalizedDescriptionKey: "the backlog never filled"])
    }

    deinit {
        for fd in fillers {
            close(fd)
        }
    }
}
