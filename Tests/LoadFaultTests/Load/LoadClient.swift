import Foundation
import SocketTestSupport

/// The client side of the connection-load test, run in a child process (the descriptor limit is
/// per process): plain non-blocking sockets and poll(), nothing from the library under test. It
/// opens `connections` connections (at most 512 connects in flight), keeps every one open until
/// all are done, sends `bytes` bytes of a per-connection pattern on each and checks every echoed
/// byte against it.
enum LoadClient {
    struct Report: Codable, Sendable {
        var connected = 0
        var mostOpen = 0
        var bytesVerified = 0
        var problems: [String] = []
    }

    /// Byte `offset` of connection `index`'s pattern.
    static func patternByte(_ index: Int, _ offset: Int) -> UInt8 {
        UInt8(truncatingIfNeeded: offset &* 31 &+ offset >> 8 &+ index &* 7 &+ index >> 8)
    }

    private struct Connection {
        var fd: Int32
        var connected = false
        var sent = 0
        var received = 0
    }

    static func run(port: UInt16, connections: Int, bytes: Int, timeout: TimeInterval) -> Report {
        var report = Report()
        raiseDescriptorLimit()
        var open: [Int: Connection] = [:]
        var next = 0
        var inFlight = 0
        var done = 0
        var buffer = [UInt8](repeating: 0, count: 65_536)
        let deadline = Date(timeIntervalSinceNow: timeout)
        let address = loopbackAddress(port: port)
        while done < connections {
            guard Date() < deadline else {
                report.problems.append("timed out: \(report.connected) connected, \(done) of \(connections) verified")
                break
            }
            while next < connections && inFlight < 512 {
                let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
                guard fd >= 0 else {
                    report.problems.append("socket() failed for connection \(next): errno \(errno)")
                    return report
                }
                _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
                _ = address.withUnsafeBytes {
                    connect(fd, $0.baseAddress!.assumingMemoryBound(to: sockaddr.self), socklen_t($0.count))
                }
                open[next] = Connection(fd: fd)
                next += 1
                inFlight += 1
            }
            let indexes = Array(open.keys.filter { open[$0]!.received < bytes })
            var fds = indexes.map { index -> pollfd in
                let connection = open[index]!
                let wantsOut = !connection.connected || connection.sent < bytes
                let events = (connection.connected ? POLLIN : 0) | (wantsOut ? POLLOUT : 0)
                return pollfd(fd: connection.fd, events: Int16(events), revents: 0)
            }
            guard poll(&fds, nfds_t(fds.count), 100) > 0 else { continue }
            for (position, index) in indexes.enumerated() where fds[position].revents != 0 {
                var connection = open[index]!
                let revents = Int32(fds[position].revents)
                if !connection.connected {
                    var code: Int32 = 0
                    var length = socklen_t(MemoryLayout<Int32>.size)
                    getsockopt(connection.fd, SOL_SOCKET, SO_ERROR, &code, &length)
                    guard code == 0, revents & Int32(POLLOUT) != 0 else {
                        report.problems.append("connection \(index) failed to connect: errno \(code)")
                        return report
                    }
                    connection.connected = true
                    report.connected += 1
                    inFlight -= 1
                }
                if revents & Int32(POLLOUT) != 0 && connection.sent < bytes {
                    let count = min(buffer.count, bytes - connection.sent)
                    for offset in 0..<count {
                        buffer[offset] = patternByte(index, connection.sent + offset)
                    }
                    let n = buffer.withUnsafeBytes { send(connection.fd, $0.baseAddress, count, Int32(MSG_NOSIGNAL)) }
                    if n > 0 { connection.sent += n }
                }
                if revents & Int32(POLLIN | POLLHUP | POLLERR) != 0 {
                    let n = buffer.withUnsafeMutableBytes { recv(connection.fd, $0.baseAddress, $0.count, 0) }
                    if n <= 0 {
                        if n < 0 && (errno == EAGAIN || errno == EINTR) {
                            open[index] = connection
                            continue
                        }
                        report.problems.append("connection \(index) ended after \(connection.received) bytes")
                        return report
                    }
                    for offset in 0..<n where buffer[offset] != patternByte(index, connection.received + offset) {
                        report.problems.append("connection \(index): byte \(connection.received + offset) differs")
                        return report
                    }
                    connection.received += n
                    report.bytesVerified += n
                    if connection.received == bytes {
                        done += 1
                    }
                }
                open[index] = connection
            }
        }
        report.mostOpen = open.count
        for connection in open.values {
            close(connection.fd)
        }
        return report
    }

    /// Raises this process's soft descriptor limit to its hard limit.
    static func raiseDescriptorLimit() {
        var limit = rlimit()
        getrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &limit)
        limit.rlim_cur = limit.rlim_max
        setrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &limit)
    }
}
