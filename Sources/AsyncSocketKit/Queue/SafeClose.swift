import AsyncSocketCore
import Foundation

// Closing a descriptor watched by a DispatchSource: libdispatch wants the descriptor to stay open
// until the source's cancel handler runs, but a socket's port must be free (and its peer must see
// the close) before the disconnect callback, which is queued at once. dup2 of /dev/null over the
// descriptor closes the socket immediately while the descriptor number stays valid; the cancel
// handler then closes the /dev/null copy.
enum SafeClose {
    private static let devNull = Lock<Int32>(-1)

    /// Closes the socket behind `fd` now, leaving `fd` open on /dev/null.
    static func detach(_ fd: Int32) {
        let null = devNull.withLock { fd -> Int32 in
            if fd < 0 {
                fd = open("/dev/null", O_RDWR | O_CLOEXEC)
            }
            return fd
        }
        if null < 0 || dup2(null, fd) < 0 {
            // Could not keep the number: closing is still better than leaving the socket open.
            shutdown(fd, Int32(SHUT_RDWR))
        }
    }
}
