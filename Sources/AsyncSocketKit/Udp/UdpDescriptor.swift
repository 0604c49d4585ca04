import CAsyncSocketShims
// CLibevent as well, for SOCK_DGRAM (see SocketOps.swift).
import CLibevent
import Foundation

/// The system calls of a UDP socket, each returning errno instead of setting it.
package enum UdpDescriptor {
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

    /// Asks the kernel for the local address each datagram was sent to (`IP_PKTINFO` /
    /// `IPV6_RECVPKTINFO`), for a socket bound to a wildcard address.
    static func reportDestinations(_ fd: Int32, family: Int32) {
        if family == AF_INET {
            SocketOps.setOption(fd, level: Int32(IPPROTO_IP), name: IP_PKTINFO)
        } else {
            SocketOps.setOption(fd, level: Int32(IPPROTO_IPV6), name: IPV6_RECVPKTINFO)
        }
    }

    enum SendResult {
        case sent
        case wouldBlock
        case failed(Int32)
    }

    /// Sends `data` as one datagram to `destination` (`nil`: the connected peer), from `source` when
    /// given (a reply leaving from the address its peer reached); when that address cannot send (a
    /// broadcast address: `EINVAL`, `EADDRNOTAVAIL`), the kernel chooses. With a `segmentSize` above 0 the
    /// bytes leave as datagrams of that size, the last one shorter, cut by the kernel (`UDP_SEGMENT`).
    static func send(
        _ fd: Int32, _ data: Data, to destination: SocketAddress?, from source: UdpReplySource? = nil,
        segmentSize: UInt16 = 0
    ) -> SendResult {
        let result = sendOnce(fd, data, to: destination, from: source, segmentSize: segmentSize)
        if source != nil, case .failed(let code) = result, code == EINVAL || code == EADDRNOTAVAIL {
            return sendOnce(fd, data, to: destination, from: nil, segmentSize: segmentSize)
        }
        return result
    }

    private static func sendOnce(
        _ fd: Int32, _ data: Data, to destination: SocketAddress?, from source: UdpReplySource?, segmentSize: UInt16
    ) -> SendResult {
        let sent = data.withUnsafeBytes { bytes -> Int in
            let payload = bytes.baseAddress ?? UnsafeRawPointer(bitPattern: 1)!
            func from(_ to: UnsafePointer<sockaddr>?, _ length: socklen_t) -> Int {
                guard let source else {
                    return ask_send_datagram(fd, payload, bytes.count, to, length, nil, 0, segmentSize)
                }
                return source.local.withSockaddr { local, _ in
                    ask_send_datagram(fd, payload, bytes.count, to, length, local, source.interfaceIndex, segmentSize)
                }
            }
            if let destination {
                return destination.withSockaddr { from($0, $1) }
            }
            return from(nil, 0)
        }
        if sent >= 0 { return .sent }
        let code = ask_errno()
        return code == EAGAIN || code == EWOULDBLOCK ? .wouldBlock : .failed(code)
    }

    /// Sends `datagrams` (each to its address, `nil`: the connected peer; at most `maxSendBatch`) with one
    /// `sendmmsg` and returns how many left, in order; never blocks. The first one not sent met `EAGAIN`
    /// or an error the call does not report: ``send(_:_:to:from:segmentSize:)`` alone on it says which.
    static func sendBatch(_ fd: Int32, _ datagrams: [(data: Data, to: SocketAddress?)]) -> Int {
        let count = min(datagrams.count, maxSendBatch)
        guard count > 0 else { return 0 }
        return withUnsafeTemporaryAllocation(of: ask_outgoing_datagram.self, capacity: count) { items in
            withUnsafeTemporaryAllocation(of: sockaddr_storage.self, capacity: count) { addresses in
                // Each payload is pinned by its own `withUnsafeBytes`, so the calls nest, one per datagram.
                func fill(_ index: Int) -> Int32 {
                    guard index < count else {
                        return ask_send_datagrams(fd, items.baseAddress, UInt32(count))
                    }
                    return datagrams[index].data.withUnsafeBytes { bytes in
                        var to: UnsafePointer<sockaddr>?
                        var length: socklen_t = 0
                        if let address = datagrams[index].to {
                            let slot = UnsafeMutableRawPointer(addresses.baseAddress! + index)
                            length = address.withSockaddr { pointer, size in
                                slot.copyMemory(from: pointer, byteCount: Int(size))
                                return size
                            }
                            to = UnsafePointer(slot.assumingMemoryBound(to: sockaddr.self))
                        }
                        items[index] = ask_outgoing_datagram(
                            bytes: bytes.baseAddress, count: bytes.count, to: to, to_length: length)
                        return fill(index + 1)
                    }
                }
                return max(Int(fill(0)), 0)
            }
        }
    }

    /// The most datagrams ``sendBatch(_:_:)`` sends in one call.
    static let maxSendBatch = Int(ASK_MAX_SEND_BATCH)

    package enum ReceiveResult {
        /// A datagram, its sender, and the local address it was sent to when the socket asks
        /// (`IP_PKTINFO` / `IPV6_RECVPKTINFO`).
        case datagram(Data, from: SocketAddress, to: UdpReplySource?)
        /// A datagram of `size` bytes, more than the buffer held; it is gone.
        case tooLarge(size: Int, from: SocketAddress)
        case wouldBlock
        case failed(Int32)
    }

    enum BatchResult {
        case received(Int)
        case wouldBlock
        case failed(Int32)
    }

    /// Receives up to `items.count` datagrams waiting on `fd` (at most `ASK_MAX_RECEIVE_BATCH`) into the
    /// slots `items` point to, with one `recvmmsg`; never blocks.
    static func receive(_ fd: Int32, into items: UnsafeMutableBufferPointer<ask_incoming_datagram>) -> BatchResult {
        let received = ask_recv_datagrams(fd, items.baseAddress, UInt32(items.count))
        guard received >= 0 else {
            let code = ask_errno()
            return code == EAGAIN || code == EWOULDBLOCK ? .wouldBlock : .failed(code)
        }
        return .received(Int(received))
    }
}

/// The local address (and, for IPv6, interface) a datagram was sent to: a reply sent from there
/// reaches a peer that expects the answer from the address it asked.
package struct UdpReplySource {
    package var local: SocketAddress
    package var interfaceIndex: UInt32
}
