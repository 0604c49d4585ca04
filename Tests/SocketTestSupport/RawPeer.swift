import CAsyncSocketShims
import Foundation

/// A plain blocking TCP socket for the other end of a test: exact bytes in and out, half-close,
/// reset. Reads wait with a deadline (poll), never forever.
package final class RawPeer {
    package private(set) var fd: Int32

    /// Connects to 127.0.0.1 (or ::1) at `port`.
    package init(port: UInt16, ipv6: Bool = false) throws {
        fd = socket(ipv6 ? AF_INET6 : AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw POSIXError(.init(rawValue: errno)!) }
        let rc: Int32
        if ipv6 {
            var address = sockaddr_in6()
            address.sin6_family = sa_family_t(AF_INET6)
            address.sin6_port = port.bigEndian
            address.sin6_addr = in6addr_loopback
            rc = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in6>.size))
                }
            }
        } else {
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = port.bigEndian
            address.sin_addr.s_addr = INADDR_LOOPBACK.bigEndian
            rc = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                }
            }
        }
        guard rc == 0 else {
            let code = errno
            close(fd)
            // The instance is complete, so its deinit runs when this throws: it must not close the
            // number again (by then another thread's new descriptor may have it).
            fd = -1
            throw POSIXError(.init(rawValue: code)!)
        }
    }

    /// Wraps an accepted descriptor.
    package init(fd: Int32) {
        self.fd = fd
    }

    deinit {
        if fd >= 0 {
            close(fd)
        }
    }

    package func send(_ bytes: [UInt8]) {
        var offset = 0
        while offset < bytes.count {
            let n = bytes[offset...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if n <= 0 { return }
            offset += n
        }
    }

    package func send(_ text: String) {
        send(Array(text.utf8))
    }

    /// Reads until `count` bytes arrived, the peer closed, or `timeout` passed.
    package func receive(count: Int, timeout: TimeInterval = 10) -> [UInt8] {
        var received: [UInt8] = []
        let deadline = Date(timeIntervalSinceNow: timeout)
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while received.count < count {
            let remaining = deadline.timeIntervalSinceNow
            if remaining <= 0 { break }
            var pfd = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard poll(&pfd, 1, Int32(remaining * 1000) + 1) > 0 else { continue }
            let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, min($0.count, count - received.count), 0) }
            if n <= 0 { break }
            received += buffer[0..<n]
        }
        return received
    }

    /// Whether the other side closed (a read returns 0 within `timeout`).
    package func sawClose(timeout: TimeInterval = 10) -> Bool {
        var pfd = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        guard poll(&pfd, 1, Int32(timeout * 1000)) > 0 else { return false }
        var byte: UInt8 = 0
        return recv(fd, &byte, 1, Int32(MSG_DONTWAIT)) == 0
    }

    /// Stops sending (the other side reads end of file); keeps receiving.
    package func shutdownWrite() {
        shutdown(fd, Int32(SHUT_WR))
    }

    /// Resets the connection (RST instead of FIN) and closes the descriptor.
    package func reset() {
        var linger = Glibc.linger(l_onoff: 1, l_linger: 0)
        setsockopt(fd, SOL_SOCKET, SO_LINGER, &linger, socklen_t(MemoryLayout<Glibc.linger>.size))
        close(fd)
        fd = -1
    }
}

/// Bytes waiting in the kernel on `fd`, peeked without consuming them.
package func kernelPending(_ fd: Int32) -> [UInt8] {
    var buffer = [UInt8](repeating: 0, count: 65_536)
    let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, Int32(MSG_PEEK | MSG_DONTWAIT)) }
    return n > 0 ? Array(buffer[0..<n]) : []
}

/// The `sockaddr_in` bytes of 127.0.0.1:`port`.
package func loopbackAddress(port: UInt16) -> Data {
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = port.bigEndian
    address.sin_addr.s_addr = INADDR_LOOPBACK.bigEndian
    return withUnsafeBytes(of: &address) { Data($0) }
}

/// A port on 127.0.0.1 that refuses connections for the rest of the process. The socket bound to it
/// (never listening) stays open on purpose: released, the port could be taken by a parallel test's
/// listener, or become the source port of the very connect aimed at it (a loopback connect to a free
/// port in the ephemeral range can connect to itself), and the "refused" connect would succeed.
package func unusedPort() -> UInt16 {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = INADDR_LOOPBACK.bigEndian
    _ = withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
    }
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    _ = withUnsafeMutablePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
    }
    return UInt16(bigEndian: address.sin_port)
}

/// A plain listening socket on 127.0.0.1 with a bounded, blocking accept.
package final class RawListener: @unchecked Sendable {
    package let fd: Int32
    package let port: UInt16

    package init(backlog: Int32 = 16) throws {
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var one: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = INADDR_LOOPBACK.bigEndian
        let fd = self.fd
        _ = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard listen(fd, backlog) == 0 else { throw POSIXError(.init(rawValue: errno)!) }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        port = UInt16(bigEndian: address.sin_port)
    }

    deinit {
        close(fd)
    }

    /// The next connection, or `nil` after `timeout`.
    package func accept(timeout: TimeInterval = 10) -> RawPeer? {
        var pfd = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        guard poll(&pfd, 1, Int32(timeout * 1000)) > 0 else { return nil }
        let child = Glibc.accept(fd, nil, nil)
        return child >= 0 ? RawPeer(fd: child) : nil
    }
}
