import CAsyncSocketShims
// CLibevent as well, for SOCK_DGRAM (see SocketOps.swift).
import CLibevent
import Foundation

/// The system calls of a UDP socket, each returning errno instead of setting it.
enum UdpDescriptor {
    /// A non-blocking, close-on-exec datagram socket of `family`; an IPv6 one is IPv6-only, so the
    /// IPv4 socket beside it can bind the same port.
    static func open(family: Int32) -> Int32? {
        let fd = ask_socket(family, Int32(SOCK_DGRAM.rawValue))
        guard fd >= 0 else { return nil }
        if family == AF_INET6 {
            SocketOps.setOption(fd, level: Int32(IPPROTO_IPV6), name: IPV6_V6ONLY)
        }
        return fd
    }

    enum SendResult {
        case sent
        case wouldBlock
        case failed(Int32)
    }

    /// Sends `data` as one datagram to `destination` (`nil`: the connected peer); never blocks.
    static func send(_ fd: Int32, _ data: Data, to destination: SocketAddress?) -> SendResult {
        while true {
            let sent = data.withUnsafeBytes { bytes -> Int in
                if let destination {
                    return destination.withSockaddr {
                        sendto(fd, bytes.baseAddress, bytes.count, Int32(MSG_NOSIGNAL), $0, $1)
                    }
                }
                return Glibc.send(fd, bytes.baseAddress, bytes.count, Int32(MSG_NOSIGNAL))
            }
            if sent >= 0 { return .sent }
            let code = ask_errno()
            switch code {
            case EINTR: continue
            case EAGAIN, EWOULDBLOCK: return .wouldBlock
            default: return .failed(code)
            }
        }
    }

    enum ReceiveResult {
        case datagram(Data, from: SocketAddress)
        /// A datagram of `size` bytes, more than the buffer held; it is gone.
        case tooLarge(size: Int, from: SocketAddress)
        case wouldBlock
        case failed(Int32)
    }

    /// Reads one datagram of at most `maxSize` bytes into a buffer the returned `Data` then owns (no
    /// copy; the buffer is cut to the datagram's size). `MSG_TRUNC` makes the kernel give a larger datagram's real size, so it is reported,
    /// never cut. An empty datagram is an empty `Data`.
    static func receive(_ fd: Int32, maxSize: Int) -> ReceiveResult {
        // No datagram is larger than 64 KiB, whatever the limit is set to.
        let capacity = min(max(maxSize, 1), 65_536)
        guard let buffer = malloc(capacity) else { return .failed(ENOMEM) }
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        var received: Int
        repeat {
            received = withUnsafeMutablePointer(to: &storage) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    recvfrom(fd, buffer, capacity, Int32(MSG_TRUNC), $0, &length)
                }
            }
        } while received < 0 && ask_errno() == EINTR
        guard received >= 0 else {
            let code = ask_errno()
            free(buffer)
            return code == EAGAIN || code == EWOULDBLOCK ? .wouldBlock : .failed(code)
        }
        let source = withUnsafePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { SocketAddress(pointer: $0, length: length) }
        }
        guard received <= maxSize else {
            free(buffer)
            return .tooLarge(size: received, from: source)
        }
        guard received > 0 else {
            free(buffer)
            return .datagram(Data(), from: source)
        }
        let fitted = realloc(buffer, received) ?? buffer
        return .datagram(Data(bytesNoCopy: fitted, count: received, deallocator: .free), from: source)
    }
}
