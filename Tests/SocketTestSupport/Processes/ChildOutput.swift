import Foundation

/// The standard output, standard error and exit status of a ``ChildProcess``, filled by its
/// collecting thread and read, with waits, by the test.
final class ChildOutput: @unchecked Sendable {
    private let condition = NSCondition()
    private var output = Data()
    private var errors = Data()
    private var exitStatus: Int32?

    /// Both texts so far.
    var texts: (output: String, errors: String) {
        condition.withLock { (String(decoding: output, as: UTF8.self), String(decoding: errors, as: UTF8.self)) }
    }

    /// The exit status (128 + the signal for a process killed by one), once reaped.
    var status: Int32? { condition.withLock { exitStatus } }

    /// Waits until `holds` is true for (standard output, standard error, exit status), checked
    /// under the lock after every change, or `timeout` passes.
    @discardableResult
    func wait(timeout: TimeInterval, until holds: (String, String, Int32?) -> Bool) -> Bool {
        let deadline = Date(timeIntervalSinceNow: timeout)
        return condition.withLock {
            var timedOut = false
            while true {
                let holdsNow = holds(
                    String(decoding: output, as: UTF8.self), String(decoding: errors, as: UTF8.self), exitStatus)
                if holdsNow || timedOut {
                    return holdsNow
                }
                timedOut = !condition.wait(until: deadline)
            }
        }
    }

    /// On the collecting thread: reads both pipes until both end (the child and anything it
    /// passed them to have exited), closes them, then reaps the child.
    func collect(pid: pid_t, output outputFD: Int32, errors errorFD: Int32) {
        var fds = [outputFD, errorFD].map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while fds.contains(where: { $0.fd >= 0 }) {
            guard poll(&fds, nfds_t(fds.count), -1) > 0 else { continue }
            for index in fds.indices where fds[index].fd >= 0 && fds[index].revents != 0 {
                let count = buffer.withUnsafeMutableBytes { read(fds[index].fd, $0.baseAddress, $0.count) }
                if count > 0 {
                    append(buffer[0..<count], toErrors: index == 1)
                } else if count == 0 || errno != EINTR {
                    close(fds[index].fd)
                    fds[index].fd = -1
                }
            }
        }
        var waitStatus: Int32 = 0
        while waitpid(pid, &waitStatus, 0) < 0 && errno == EINTR {}
        let signal = waitStatus & 0x7F
        condition.withLock {
            exitStatus = signal == 0 ? (waitStatus >> 8) & 0xFF : 128 + signal
            condition.broadcast()
        }
    }

    private func append(_ bytes: ArraySlice<UInt8>, toErrors: Bool) {
        condition.withLock {
            if toErrors {
                errors.append(contentsOf: bytes)
            } else {
                output.append(contentsOf: bytes)
            }
            condition.broadcast()
        }
    }
}
