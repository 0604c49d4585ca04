import Foundation

/// A plain blocking UDP socket on a loopback address, the other end of a test: it sends datagrams
/// and waits (bounded) for them.
package final class UdpPeer {
    package let fd: Int32
    package let family: Int32
    /// The port it is bound to.
    package private(set) var port: UInt16 = 0

    /// A socket bound to 127.0.0.1 (or ::1 with `ipv6`), port chosen by the system.
    package init(ipv6: Bool = false) {
        family = ipv6 ? AF_INET6 : AF_INET
        fd = socket(family, Int32(SOCK_DGRAM.rawValue), 0)
        precondition(fd >= 0, "socket failed")
        var storage = Self.loopback(ipv6: ipv6, port: 0)
        let length = socklen_t(ipv6 ? MemoryLayout<sockaddr_in6>.size : MemoryLayout<sockaddr_in>.size)
        let rc = withUnsafePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) }
        }
        precondition(rc == 0, "bind failed")
        var bound = sockaddr_storage()
        var boundLength = socklen_t(MemoryLayout<sockaddr_storage>.size)
        _ = withUnsafeMutablePointer(to: &bound) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &boundLength) }
        }
        port = withUnsafeBytes(of: &bound) { UInt16(bigEndian: $0.load(fromByteOffset: 2, as: UInt16.self)) }
    }

    deinit {
        close(fd)
    }

    /// The `sockaddr_storage` of the loopback address of a family with `port`.
    package static func loopback(ipv6: Bool, port: UInt16) -> sockaddr_storage {
        var storage = sockaddr_storage()
        withUnsafeMutableBytes(of: &storage) { raw in
            if ipv6 {
                var address = sockaddr_in6()
                address.sin6_family = sa_family_t(AF_INET6)
                address.sin6_port = port.bigEndian
                address.sin6_addr = in6addr_loopback
                raw.storeBytes(of: address, as: sockaddr_in6.self)
            } else {
                var address = sockaddr_in()
                address.sin_family = sa_family_t(AF_INET)
                address.sin_port = port.bigEndian
                address.sin_addr.s_addr = INADDR_LOOPBACK.bigEndian
                raw.storeBytes(of: address, as: sockaddr_in.self)
            }
        }
        return storage
    }

    /// Sends `bytes` as one datagram to the loopback address of its family at `port` (or to `host`).
    package func send(_ bytes: [UInt8], to port: UInt16, host: String? = nil) {
        var storage = Self.loopback(ipv6: family == AF_INET6, port: port)
        if let host {
            withUnsafeMutableBytes(of: &storage) { raw in
                let offset = family == AF_INET6 ? 8 : 4
                _ = inet_pton(family, host, raw.baseAddress! + offset)
            }
        }
        let length = socklen_t(family == AF_INET6 ? MemoryLayout<sockaddr_in6>.size : MemoryLayout<sockaddr_in>.size)
        let sent = bytes.withUnsafeBytes { payload in
            withUnsafePointer(to: &storage) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    sendto(fd, payload.baseAddress, payload.count, 0, $0, length)
                }
            }
        }
        precondition(sent == bytes.count, "sendto failed: \(String(cString: strerror(errno)))")
    }

    /// Sends from the IPv4 socket through the loopback interface, for multicast groups.
    package func useLoopbackForMulticast() {
        var interface = in_addr(s_addr: INADDR_LOOPBACK.bigEndian)
        _ = setsockopt(fd, Int32(IPPROTO_IP), IP_MULTICAST_IF, &interface, socklen_t(MemoryLayout<in_addr>.size))
    }

    /// The next datagram and the numeric host and port it came from, or `nil` after `timeout`.
    package func receive(timeout: TimeInterval = 10) -> (bytes: [UInt8], host: String, port: UInt16)? {
        var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        guard poll(&poller, 1, Int32(timeout * 1000)) == 1 else { return nil }
        var buffer = [UInt8](repeating: 0, count: 70_000)
        var source = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let n = buffer.withUnsafeMutableBytes { raw in
            withUnsafeMutablePointer(to: &source) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    recvfrom(fd, raw.baseAddress, raw.count, 0, $0, &length)
                }
            }
        }
        guard n >= 0 else { return nil }
        let port = withUnsafeBytes(of: &source) { UInt16(bigEndian: $0.load(fromByteOffset: 2, as: UInt16.self)) }
        var text = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN) + 1)
        withUnsafeBytes(of: &source) { raw in
            _ = inet_ntop(family, raw.baseAddress! + (family == AF_INET6 ? 8 : 4), &text, socklen_t(text.count))
        }
        let host = text.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
        return (Array(buffer[0..<n]), host, port)
    }
}

/// A loopback UDP port nothing is bound to: bound, then released. The system picks ports for other
/// sockets at random from the ephemeral range, so one taking it before the test uses it is unlikely,
/// not impossible.
package func freeUdpPort() -> UInt16 {
    UdpPeer().port
}

/// The memory the datagrams waiting in the receive queue of socket `fd` take, as the kernel counts it
/// (`SO_MEMINFO`); 0 when none waits, -1 when the call fails.
package func receiveQueueMemory(of fd: Int32) -> Int {
    // SO_MEMINFO (asm-generic/socket.h): an array whose first entry is SK_MEMINFO_RMEM_ALLOC.
    var info = [UInt32](repeating: 0, count: 16)
    var length = socklen_t(info.count * MemoryLayout<UInt32>.size)
    let rc = info.withUnsafeMutableBytes { getsockopt(fd, SOL_SOCKET, 55, $0.baseAddress, &length) }
    return rc == 0 ? Int(info[0]) : -1
}

/// Waits (bounded) until `count` datagrams, sent one by one through `send`, wait in the receive queue of
/// the datagram socket `fd`, as the kernel counts that queue's memory (`SO_MEMINFO`, read from the socket
/// itself: `/proc/net/udp` skips sockets while the table changes). The first datagram's share is taken
/// as the unit, so the datagrams must be of one size, and the queue empty before. `false` when they were
/// not all queued in time.
package func sendAndWaitQueued(count: Int, on fd: Int32, _ send: (Int) -> Void) -> Bool {
    func queueMemory() -> Int { receiveQueueMemory(of: fd) }
    guard queueMemory() == 0 else { return false }
    send(0)
    guard waitUntil({ queueMemory() > 0 }) else { return false }
    let unit = queueMemory()
    for index in 1..<max(count, 1) {
        send(index)
    }
    return waitUntil { queueMemory() >= unit * count }
}
