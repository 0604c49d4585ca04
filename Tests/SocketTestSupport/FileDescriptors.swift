import Foundation

/// The number of open sockets, eventfds, timerfds and epoll instances of this process (what the
/// library opens; pipes and files the test harness may open meanwhile are not counted).
package func openFileDescriptorCount() -> Int {
    openFileDescriptorTargets().count
}

/// What each open socket and anonymous-inode descriptor of the process is ("fd → socket:[…]"), for
/// a leak check to report.
package func openFileDescriptorTargets() -> [String] {
    let names = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
    return names.compactMap { name in
        guard let target = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/\(name)"),
            target.hasPrefix("socket:") || target.hasPrefix("anon_inode:")
        else { return nil }
        return "\(name) → \(target)"
    }
}

/// A connected pair of non-blocking Unix stream sockets.
package func makeSocketPair() -> (Int32, Int32) {
    var fds: [Int32] = [-1, -1]
    let rc = socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &fds)
    precondition(rc == 0, "socketpair failed: errno \(errno)")
    for fd in fds {
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
    }
    return (fds[0], fds[1])
}

/// Writes all of `bytes` to a descriptor with room in its buffer.
package func writeAll(_ fd: Int32, _ bytes: [UInt8]) {
    let written = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
    precondition(written == bytes.count, "short write in test helper")
}

/// Reads and discards whatever is waiting on a non-blocking descriptor.
@discardableResult
package func drain(_ fd: Int32) -> Int {
    var buffer = [UInt8](repeating: 0, count: 4096)
    var total = 0
    while true {
        let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
        if n <= 0 { return total }
        total += n
    }
}
