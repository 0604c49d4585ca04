import CAsyncSocketShims
// CLibevent as well: in a compile batch where HostResolver.swift (which imports it) looks up
// SOCK_STREAM first, Clang files the declaration under CLibevent, and a file without this import
// cannot see it ("cannot find SOCK_STREAM in scope" once AsyncSocketKit has more than 50 files).
import CLibevent
import Foundation

/// The few socket system calls the sockets make, each returning errno instead of setting it.
enum SocketOps {
    /// A non-blocking, close-on-exec stream socket of `family`.
    static func makeStreamSocket(family: Int32) -> Result<Int32, NSError> {
        let fd = ask_socket(family, Int32(SOCK_STREAM.rawValue))
        return fd >= 0 ? .success(fd) : .failure(SystemError.posix(ask_errno(), "socket"))
    }

    static func setOption(_ fd: Int32, level: Int32, name: Int32, value: Int32 = 1) {
        var value = value
        _ = setsockopt(fd, level, name, &value, socklen_t(MemoryLayout<Int32>.size))
    }

    static func bind(_ fd: Int32, to address: SocketAddress) -> Int32? {
        let rc = address.withSockaddr { Glibc.bind(fd, $0, $1) }
        return rc == 0 ? nil : ask_errno()
    }

    static func listen(_ fd: Int32, backlog: Int32 = 1024) -> Int32? {
        Glibc.listen(fd, backlog) == 0 ? nil : ask_errno()
    }

    enum ConnectStart {
        case connected
        case inProgress
        case failed(Int32)
    }

    /// Starts a non-blocking connect.
    static func connect(_ fd: Int32, to address: SocketAddress) -> ConnectStart {
        while true {
            let rc = address.withSockaddr { Glibc.connect(fd, $0, $1) }
            if rc == 0 { return .connected }
            let code = ask_errno()
            if code == EINTR { continue }
            return code == EINPROGRESS ? .inProgress : .failed(code)
        }
    }

    /// The outcome of a non-blocking connect once the descriptor became writable (0 = connected).
    static func pendingError(_ fd: Int32) -> Int32 {
        var code: Int32 = 0
        var length = socklen_t(MemoryLayout<Int32>.size)
        guard getsockopt(fd, SOL_SOCKET, SO_ERROR, &code, &length) == 0 else { return ask_errno() }
        return code
    }

    enum Accepted {
        case socket(Int32, SocketAddress)
        case wouldBlock
        /// Out of descriptors or memory (EMFILE, ENFILE, ENOBUFS, ENOMEM): the connection stays in the
        /// backlog and the listener stays readable, so watching it again at once would spin.
        case outOfResources(Int32)
        case failed(Int32)
    }

    static func accept(_ fd: Int32) -> Accepted {
        var storage = sockaddr_storage()
        var length = UInt32(MemoryLayout<sockaddr_storage>.size)
        while true {
            let child = ask_accept(fd, &storage, &length)
            if child >= 0 {
                let address = withUnsafePointer(to: &storage) {
                    $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                        SocketAddress(pointer: $0, length: socklen_t(length))
                    }
                }
                return .socket(child, address)
            }
            let code = ask_errno()
            switch code {
            case EINTR, ECONNABORTED: continue
            case EAGAIN, EWOULDBLOCK: return .wouldBlock
            case _ where isOutOfResources(code): return .outOfResources(code)
            default: return .failed(code)
            }
        }
    }

    /// Whether an `accept` failed for want of descriptors or memory (EMFILE, ENFILE, ENOBUFS, ENOMEM):
    /// the connection waits in the backlog; anything else is unexpected for a listening socket.
    static func isOutOfResources(_ code: Int32) -> Bool {
        code == EMFILE || code == ENFILE || code == ENOBUFS || code == ENOMEM
    }

    static func localAddress(_ fd: Int32) -> SocketAddress? {
        address(fd) { getsockname($0, $1, $2) }
    }

    static func peerAddress(_ fd: Int32) -> SocketAddress? {
        address(fd) { getpeername($0, $1, $2) }
    }

    private static func address(
        _ fd: Int32, _ call: (Int32, UnsafeMutablePointer<sockaddr>, UnsafeMutablePointer<socklen_t>) -> Int32
    ) -> SocketAddress? {
        guard fd >= 0 else { return nil }
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let rc = withUnsafeMutablePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { call(fd, $0, &length) }
        }
        guard rc == 0 else { return nil }
        return withUnsafePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { SocketAddress(pointer: $0, length: length) }
        }
    }

    /// Reads into `buffer`; never blocks.
    static func receive(_ fd: Int32, _ buffer: UnsafeMutableRawBufferPointer) -> (Int, Int32) {
        while true {
            let n = recv(fd, buffer.baseAddress, buffer.count, 0)
            if n >= 0 { return (n, 0) }
            let code = ask_errno()
            if code != EINTR { return (-1, code) }
        }
    }

    /// Writes from `bytes` without raising SIGPIPE; never blocks.
    /// Sends the `count` buffers of `vectors` with one system call.
    static func send(_ fd: Int32, _ vectors: UnsafeMutablePointer<iovec>, count: Int) -> (Int, Int32) {
        var message = msghdr()
        message.msg_iov = vectors
        message.msg_iovlen = count
        while true {
            let n = sendmsg(fd, &message, Int32(MSG_NOSIGNAL))
            if n >= 0 { return (n, 0) }
            let code = ask_errno()
            if code != EINTR { return (-1, code) }
        }
    }

    static func send(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) -> (Int, Int32) {
        while true {
            let n = Glibc.send(fd, bytes.baseAddress, bytes.count, Int32(MSG_NOSIGNAL))
            if n >= 0 { return (n, 0) }
            let code = ask_errno()
            if code != EINTR { return (-1, code) }
        }
    }

    /// Whether the peer has closed: a one-byte peek reads 0 (`true`), data (`false`), or `nil`
    /// when nothing is there yet; an error is returned as its errno.
    static func peekEnd(_ fd: Int32) -> Result<Bool?, NSError> {
        var byte: UInt8 = 0
        while true {
            let n = recv(fd, &byte, 1, Int32(MSG_PEEK | MSG_DONTWAIT))
            if n == 0 { return .success(true) }
            if n > 0 { return .success(false) }
            let code = ask_errno()
            if code == EINTR { continue }
            if code == EAGAIN || code == EWOULDBLOCK { return .success(nil) }
            return .failure(SystemError.posix(code, "recv"))
        }
    }

    /// What a descriptor reported readable holds, found without consuming a pending error (a
    /// failing recv takes SO_ERROR with it): nothing yet, bytes, or the end or an error.
    enum Readiness {
        case nothing
        case bytes
        case endOrError
    }

    static func readiness(_ fd: Int32) -> Readiness {
        var pfd = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        while poll(&pfd, 1, 0) < 0 {
            if ask_errno() != EINTR { return .endOrError }
        }
        if pfd.revents == 0 { return .nothing }
        if pfd.revents & Int16(POLLERR | POLLNVAL) != 0 { return .endOrError }
        switch peekEnd(fd) {
        case .success(nil): return .nothing
        case .success(false): return .bytes
        case .success(true), .failure: return .endOrError
        }
    }
}
