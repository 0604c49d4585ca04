import Foundation

// Sends: queued (each call returns whether it was), tried one at a time from a later pass of the loop;
// a send that would block waits for the descriptor to become writable, under its timeout. A send
// that fails is reported and the next one goes on: errors never close the socket.
extension RunLoopUdpSocket {
    /// Queues `data` as one datagram to the connected peer (`sendData:withTimeout:tag:`). `false`, and
    /// nothing queued, when the socket is not connected, is closed or closing, or `data` is empty
    /// (the original could not send an empty datagram). A negative `timeout` waits for good.
    @discardableResult
    public func send(_ data: Data, withTimeout timeout: TimeInterval, tag: Int) -> Bool {
        checkThread("send(_:withTimeout:tag:)")
        guard !data.isEmpty, !closed, didConnect else { return false }
        return enqueue(UdpSend(data: data, destination: nil, timeout: timeout, tag: tag))
    }

    /// Queues `data` as one datagram to `host` and `port` (`sendData:toHost:port:withTimeout:tag:`).
    /// The name is looked up now, on this thread, as the original did (a numeric address needs no
    /// lookup); IPv4 is used when the IPv4 socket is open and an IPv4 address was found, else IPv6.
    /// `false`, and nothing queued, when the socket is connected, closed or closing, `data` is empty,
    /// or no address of an open family was found.
    @discardableResult
    public func send(_ data: Data, toHost host: String, port: UInt16, withTimeout timeout: TimeInterval, tag: Int)
        -> Bool
    {
        checkThread("send(_:toHost:port:withTimeout:tag:)")
        guard !data.isEmpty, !closed, !didConnect, !operations.refusesNew,
            let destination = usableAddress(for: host, port: port)
        else { return false }
        return enqueue(UdpSend(data: data, destination: destination, timeout: timeout, tag: tag))
    }

    /// Queues `data` as one datagram to `address`, a `sockaddr_in` or `sockaddr_in6`
    /// (`sendData:toAddress:withTimeout:tag:`). `false`, and nothing queued, when the socket is
    /// connected, closed or closing, `data` is empty, or `address` is not an IP address of an open
    /// family.
    @discardableResult
    public func send(_ data: Data, toAddress address: Data, withTimeout timeout: TimeInterval, tag: Int) -> Bool {
        checkThread("send(_:toAddress:withTimeout:tag:)")
        guard !data.isEmpty, !closed, !didConnect, let destination = SocketAddress(data: address),
            destination.isIPv4 ? socket4 >= 0 : destination.isIPv6 && socket6 >= 0
        else { return false }
        return enqueue(UdpSend(data: data, destination: destination, timeout: timeout, tag: tag))
    }

    /// Queues `data` to the connected peer as datagrams of `segmentSize` bytes each, the last one
    /// shorter, which the kernel cuts from one system call (`UDP_SEGMENT`, Linux 4.18 and later; beyond
    /// the original). One `didSendDataWithTag` (or `didNotSendDataWithTag`) for the whole. `false`, and
    /// nothing queued, as ``send(_:withTimeout:tag:)``, and when `segmentSize` is not in 1...65507. More
    /// segments than the kernel takes (64, or 128 on recent kernels) or more bytes than one datagram
    /// holds are reported as a failed send (`EINVAL`, `EMSGSIZE`).
    @discardableResult
    public func send(_ data: Data, segmentSize: Int, withTimeout timeout: TimeInterval, tag: Int) -> Bool {
        checkThread("send(_:segmentSize:withTimeout:tag:)")
        guard !data.isEmpty, !closed, didConnect, let segment = Self.segment(segmentSize) else { return false }
        return enqueue(UdpSend(data: data, destination: nil, timeout: timeout, tag: tag, segmentSize: segment))
    }

    /// Queues `data` to `host` and `port` as datagrams of `segmentSize` bytes each, the last one
    /// shorter, as ``send(_:segmentSize:withTimeout:tag:)`` does; `false`, and nothing queued, as
    /// ``send(_:toHost:port:withTimeout:tag:)``, and when `segmentSize` is not in 1...65507.
    ///
    /// Original: none; AsyncUdpSocket has no counterpart.
    @discardableResult
    public func send(
        _ data: Data, segmentSize: Int, toHost host: String, port: UInt16, withTimeout timeout: TimeInterval, tag: Int
    ) -> Bool {
        checkThread("send(_:segmentSize:toHost:port:withTimeout:tag:)")
        guard !data.isEmpty, !closed, !didConnect, !operations.refusesNew, let segment = Self.segment(segmentSize),
            let destination = usableAddress(for: host, port: port)
        else { return false }
        return enqueue(UdpSend(data: data, destination: destination, timeout: timeout, tag: tag, segmentSize: segment))
    }

    /// A segment size `UDP_SEGMENT` takes: 1 to 65507 bytes.
    static func segment(_ size: Int) -> UInt16? {
        (1...65507).contains(size) ? UInt16(size) : nil
    }

    private func enqueue(_ send: UdpSend) -> Bool {
        guard operations.enqueue(send) else { return false }
        scheduleSendDequeue()
        return true
    }

    /// Runs the next send from a later pass of the loop (coalesced: at most one pending).
    func scheduleSendDequeue() {
        let item =
            sendDequeue
            ?? PerformItem(modes: modes) { [weak self] in
                self?.fromLoop { $0.maybeDequeueSend() }
            }
        sendDequeue = item
        loop.schedule(item)
    }

    private func maybeDequeueSend() {
        guard !closed else { return }
        if operations.currentSend != nil {
            sendPass()
            return
        }
        guard let send = operations.startNextSend() else {
            maybeScheduleClose()
            return
        }
        if send.timeout >= 0 {
            armTimer(send: true, after: send.timeout)
        }
        sendPass()
    }

    /// Tries the current send once: sent, failed, or waiting for room.
    func sendPass() {
        guard let send = operations.currentSend else { return }
        let fd = send.destination.map { $0.isIPv4 ? socket4 : socket6 } ?? (socket4 >= 0 ? socket4 : socket6)
        let source = fd == socket4 ? source4 : source6
        guard fd >= 0 else {
            finishSend(
                send, error: AsyncUdpSocketError(send.destination?.isIPv4 == true ? .ipv4Unavailable : .ipv6Unavailable)
            )
            return
        }
        let reply = send.destination.flatMap(replySources.source(for:))
        switch UdpDescriptor.send(fd, send.data, to: send.destination, from: reply, segmentSize: send.segmentSize) {
        case .sent:
            didBind = true
            finishSend(send, error: nil)
        case .wouldBlock:
            source?.wantsWritable = true
        case .failed(let code):
            finishSend(send, error: SystemError.posix(code, send.destination == nil ? "send" : "sendto"))
        }
    }

    private func finishSend(_ send: UdpSend, error: (any Error)?) {
        disarmTimer(send: true)
        pendingArrival?.sendRemaining = nil
        source4?.wantsWritable = false
        source6?.wantsWritable = false
        operations.finishSend()
        if let error {
            delegateForCallbacks?.onUdpSocket(self, didNotSendDataWithTag: send.tag, dueToError: error)
        } else {
            delegateForCallbacks?.onUdpSocket(self, didSendDataWithTag: send.tag)
        }
        // A callback that closed the socket or moved it to another loop decides what comes next.
        guard !closed, loop.isCurrent else { return }
        scheduleSendDequeue()
    }

    func sendTimedOut() {
        guard let send = operations.currentSend else { return }
        finishSend(send, error: AsyncUdpSocketError(.sendTimeout))
    }

    /// The address to send to for `host`: IPv4 when the IPv4 socket is open and one was found, else
    /// IPv6 when that socket is open; `nil` when no usable address was found.
    func usableAddress(for host: String, port: UInt16) -> SocketAddress? {
        if let numeric = SocketAddress.numeric(host, port: port) {
            // The common case of a reply to the address a datagram came from: no list to make.
            return (numeric.isIPv4 ? socket4 : socket6) >= 0 ? numeric : nil
        }
        return (try? Self.addresses(of: host, port: port)).flatMap(preferredAddress(among:))
    }

    /// The first address of an open family among `addresses`, IPv4 first (the original's rule).
    func preferredAddress(among addresses: [SocketAddress]) -> SocketAddress? {
        if socket4 >= 0, let v4 = addresses.first(where: \.isIPv4) {
            return v4
        }
        if socket6 >= 0, let v6 = addresses.first(where: \.isIPv6) {
            return v6
        }
        return nil
    }

    /// The addresses of `host` with `port`: a numeric address as it is, a name looked up now
    /// (`getaddrinfo`, on this thread, as the original did). Throws a `kCFStreamErrorDomainNetDB` error
    /// when it is not found.
    static func addresses(of host: String, port: UInt16) throws -> [SocketAddress] {
        if let numeric = SocketAddress.numeric(host, port: port) {
            return [numeric]
        }
        return try QueueSocket.lookupHost(host, port: port).compactMap(SocketAddress.init(data:))
    }
}
