import Foundation
import SocketTestSupport

/// Fills this process's descriptor table (after lowering its soft limit close to what is open) with
/// /dev/null, so the next socket(), accept() or open() fails with EMFILE; `release()` gives them
/// back. Only for a child process (an exit test): the limit is process-wide.
final class DescriptorExhaustion {
    private var held: [Int32] = []

    /// Lowers RLIMIT_NOFILE to a little above the highest open descriptor, then fills the rest.
    init() {
        let highest =
            ((try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? [])
            .compactMap(Int32.init).max() ?? 64
        var limit = rlimit()
        getrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &limit)
        limit.rlim_cur = rlim_t(highest + 64)
        setrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &limit)
        fill()
    }

    /// Takes every free descriptor (again).
    func fill() {
        while held.count < 100_000 {
            let fd = open("/dev/null", O_RDONLY | O_CLOEXEC)
            if fd < 0 { break }
            held.append(fd)
        }
    }

    /// Closes the descriptors it took.
    func release() {
        for fd in held {
            close(fd)
        }
        held.removeAll()
    }

    deinit {
        release()
    }
}

/// CPU time this process has used, in seconds.
func processCPUTime() -> TimeInterval {
    var time = timespec()
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &time)
    return TimeInterval(time.tv_sec) + TimeInterval(time.tv_nsec) / 1e9
}

/// `count` non-blocking TCP sockets, made while descriptors are still free; `connect(to:)` starts
/// their connects (which need no new descriptor).
final class PreparedClients {
    private(set) var fds: [Int32]

    init(count: Int) {
        fds = (0..<count).map { _ in
            let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
            return fd
        }
    }

    func connect(to port: UInt16) {
        let address = loopbackAddress(port: port)
        for fd in fds {
            _ = address.withUnsafeBytes {
                Glibc.connect(fd, $0.baseAddress!.assumingMemoryBound(to: sockaddr.self), socklen_t($0.count))
            }
        }
    }

    deinit {
        for fd in fds {
            close(fd)
        }
    }
}
