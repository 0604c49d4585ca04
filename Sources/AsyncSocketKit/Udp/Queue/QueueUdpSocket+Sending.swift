import CAsyncSocketShims
import Dispatch
import Foundation

// The send queue. One entry is current at a time: a datagram goes through its checks (a destination
// only when not connected, its host looked up off the socket queue), the send filter and `sendto`;
// EAGAIN waits for the write source, and only then the send timer runs, as in GCDAsyncUdpSocket. A
// connect is an entry too, so it happens after the sends queued before it. A failed send is
// reported and the next one goes on (GCDAsyncUdpSocket closed the socket; see Migration/README.md).
// Work that leaves the socket queue (a lookup, an asynchronous filter) carries the close count and
// is dropped when the socket closed meanwhile.
//
// On a socket queue the socket made itself, a lone send joins the queue with `sync`, not `async` as
// GCDAsyncUdpSocket did: on an idle serial queue libdispatch runs a `sync` block on the caller's thread,
// so it leaves without waking another thread (an `async` was a thread wake-up per datagram;
// Benchmarks/UDP.md). Sends made while the delegate queue delivers datagrams join together after the
// batch, with `async` (QueueUdpSocket+Batching.swift). The caller waits at most for the socket queue's current
// block, with two exceptions, where `async` stays: a socket queue the caller gave may target the
// caller's own queue (GCD's way to keep a socket on its delegate's thread), and a `sync` from that queue
// would wait for itself (libdispatch stops the program); and a synchronous filter makes the socket queue
// wait in `filter.queue.sync` for a queue whose thread may be the one sending. `blockingFilter` says a
// synchronous filter on another queue is set: raised before such a filter is installed, lowered only
// after the last is gone.
extension QueueUdpSocket {
    /// Sends `data` to the connected peer (`sendData:withTimeout:tag:`); a negative `timeout` waits
    /// for room as long as it takes. An empty `data` is an empty datagram.
    public func send(_ data: Data, withTimeout timeout: TimeInterval, tag: Int) {
        enqueue(QueueUdpPacket(kind: .datagram(data, to: .connectedPeer), timeout: timeout, tag: tag))
    }

    /// Sends `data` to `host` (a name, looked up when the datagram's turn comes, or a numeric
    /// address) and `port` (`sendData:toHost:port:withTimeout:tag:`).
    public func send(_ data: Data, toHost host: String, port: UInt16, withTimeout timeout: TimeInterval, tag: Int) {
        enqueue(QueueUdpPacket(kind: .datagram(data, to: .host(host, port)), timeout: timeout, tag: tag))
    }

    /// Sends `data` to `address`, a `sockaddr_in` or `sockaddr_in6` (`sendData:toAddress:withTimeout:tag:`);
    /// anything else is reported as `badParam` through `didNotSendDataWithTag`.
    public func send(_ data: Data, toAddress address: Data, withTimeout timeout: TimeInterval, tag: Int) {
        guard let parsed = SocketAddress(data: address), parsed.isIPv4 || parsed.isIPv6 else {
            async { [self] in
                notify { $0.udpSocket(self, didNotSendDataWithTag: tag, dueToError: Self.invalidAddress) }
            }
            return
        }
        enqueue(QueueUdpPacket(kind: .datagram(data, to: .address(parsed)), timeout: timeout, tag: tag))
    }

    /// Sends `data` to the connected peer as datagrams of `segmentSize` bytes each, the last one shorter,
    /// which the kernel cuts from one system call (`UDP_SEGMENT`, Linux 4.18 and later; beyond the
    /// original). One `didSendDataWithTag` (or `didNotSendDataWithTag`) for the whole; the send filter
    /// sees the whole. A `segmentSize` outside 1...65507 is reported as `badParam`; more segments than
    /// the kernel takes (64, or 128 on recent kernels) or more bytes than one datagram holds as the
    /// kernel's `EINVAL` or `EMSGSIZE`.
    public func send(_ data: Data, segmentSize: Int, withTimeout timeout: TimeInterval, tag: Int) {
        enqueueSegmented(data, segmentSize: segmentSize, to: .connectedPeer, timeout: timeout, tag: tag)
    }

    /// Sends `data` to `host` and `port` as datagrams of `segmentSize` bytes each, the last one shorter,
    /// as ``send(_:segmentSize:withTimeout:tag:)`` does.
    ///
    /// Original: none; GCDAsyncUdpSocket has no counterpart.
    public func send(
        _ data: Data, segmentSize: Int, toHost host: String, port: UInt16, withTimeout timeout: TimeInterval, tag: Int
    ) {
        enqueueSegmented(data, segmentSize: segmentSize, to: .host(host, port), timeout: timeout, tag: tag)
    }

    private func enqueueSegmented(
        _ data: Data, segmentSize: Int, to destination: QueueUdpDestination, timeout: TimeInterval, tag: Int
    ) {
        guard let segment = RunLoopUdpSocket.segment(segmentSize) else {
            async { [self] in
                notify {
                    $0.udpSocket(
                        self, didNotSendDataWithTag: tag,
                        dueToError: QueueUdpSocketError(.badParam, "The segment size must be 1 to 65507 bytes."))
                }
            }
            return
        }
        var packet = QueueUdpPacket(kind: .datagram(data, to: destination), timeout: timeout, tag: tag)
        packet.segmentSize = segment
        enqueue(packet)
    }

    /// Filters every datagram before it is sent (`setSendFilter:withQueue:isAsynchronous:`); `nil`
    /// (or no queue) removes the filter.
    public func setSendFilter(
        _ filter: QueueUdpSocketSendFilter?, withQueue queue: DispatchQueue?, isAsynchronous: Bool = true
    ) {
        let value = filter.flatMap { block in
            queue.map { SendFilter(block: block, queue: $0, isAsynchronous: isAsynchronous) }
        }
        filterWillChange(synchronousOn: value.flatMap { $0.isAsynchronous ? nil : $0.queue })
        async { [self] in
            sendFilter = value
            filtersChanged()
        }
    }

    /// Connects to `host` and `port` (`connectToHost:onPort:error:`): queued behind earlier sends; the
    /// name is looked up off the socket queue and the delegate hears `didConnectToAddress` or
    /// `didNotConnect`. Throws `badConfig` without a delegate and its queue, when connecting or
    /// connected already or with both families disabled, and `badParam` for an empty host.
    public func connect(toHost host: String, onPort port: UInt16) throws {
        try sync {
            try checkCanConnect()
            guard !host.isEmpty else {
                throw QueueUdpSocketError(
                    .badParam, "The host param is nil. Should be domain name or IP address string.")
            }
            try startConnect(.host(host, port))
        }
    }

    /// Connects to `address`, a `sockaddr_in` or `sockaddr_in6` (`connectToAddress:error:`); throws
    /// `badParam` for anything else, and as ``connect(toHost:onPort:)``.
    public func connect(toAddress address: Data) throws {
        try sync {
            try checkCanConnect()
            guard let parsed = SocketAddress(data: address), parsed.isIPv4 || parsed.isIPv6 else {
                throw Self.invalidAddress
            }
            try startConnect(.address(parsed))
        }
    }

    private static var invalidAddress: QueueUdpSocketError {
        QueueUdpSocketError(.badParam, "The address param is invalid. Should be a valid sockaddr structure.")
    }

    private func checkCanConnect() throws {
        try requireDelegate()
        guard !connecting, !didConnect else {
            throw QueueUdpSocketError(.badConfig, "Cannot connect a socket more than once.")
        }
        guard ipv4Enabled || ipv6Enabled else {
            throw QueueUdpSocketError(
                .badConfig, "Both IPv4 and IPv6 have been disabled. Must enable at least one protocol first.")
        }
    }

    private func startConnect(_ target: QueueUdpDestination) throws {
        try createSocketsIfNeeded()
        connecting = true
        sends.append(QueueUdpPacket(kind: .connect(target), timeout: -1, tag: 0))
        dequeueSends()
    }

    /// Raises ``blockingFilter`` now when `filter` will block the socket queue on another queue; lowers
    /// it (from the socket queue, once the filters are in place) when neither filter does.
    func filterWillChange(synchronousOn queue: DispatchQueue?) {
        if let queue, queue !== socketQueue {
            blockingFilter.store(true, ordering: .sequentiallyConsistent)
        }
    }

    /// After a filter changed, on the socket queue.
    func filtersChanged() {
        let blocks = [
            sendFilter.map { ($0.queue, $0.isAsynchronous) }, receiveFilter.map { ($0.queue, $0.isAsynchronous) },
        ]
        .contains { $0.map { !$0.1 && $0.0 !== socketQueue } ?? false }
        blockingFilter.store(blocks, ordering: .sequentiallyConsistent)
    }

    // MARK: The queue

    /// Starts queued entries until one has to wait (a lookup, a filter, room to send) or none is left.
    func dequeueSends() {
        guard !dequeuingSends else { return }
        dequeuingSends = true
        defer {
            dequeuingSends = false
            scheduleDelegateCalls()
        }
        while currentSend == nil {
            if sendReadyRun() { continue }
            guard let next = sends.popFirst() else {
                if closesAfterSends { closeNow(error: nil) }
                return
            }
            currentSend = next
            start(next)
        }
    }

    private func start(_ packet: QueueUdpPacket) {
        switch packet.kind {
        case .connect(let target):
            resolve(target) { [self] result in
                switch result {
                case .success(let address): connectNow(to: address)
                case .failure(let error): connectFailed(error)
                }
            }
        case .datagram(_, let destination):
            if didConnect, destination != .connectedPeer {
                return failSend(
                    QueueUdpSocketError(.badConfig, "Cannot specify destination of packet for connected socket"))
            }
            if !didConnect, destination == .connectedPeer {
                return failSend(
                    QueueUdpSocketError(.badConfig, "You must specify destination of packet for a non-connected socket")
                )
            }
            if destination == .connectedPeer {
                return filterThenSend(to: nil)
            }
            if let known = knownAddress(of: destination) {
                // An address, or a numeric host: chosen here, without a completion to carry.
                switch choose(known) {
                case .success(let address): return filterThenSend(to: address)
                case .failure(let error): return failSend(error)
                }
            }
            resolve(destination) { [self] result in
                switch result {
                case .success(let address): filterThenSend(to: address)
                case .failure(let error): failSend(error)
                }
            }
        }
    }

    /// Looks `destination` up (numeric ones at once, names on a global queue) and picks the address
    /// the open, enabled families and the preference allow; `completion` runs on the socket queue,
    /// unless the socket closed meanwhile.
    private func resolve(
        _ destination: QueueUdpDestination, _ completion: @escaping @Sendable (Result<SocketAddress, any Error>) -> Void
    ) {
        switch destination {
        case .connectedPeer:
            return
        case .address(let address):
            completion(choose(among: [address]))
        case .host(let host, let port):
            if let numeric = SocketAddress.numeric(host, port: port) {
                return completion(choose(among: [numeric]))
            }
            let epoch = closeCount
            DispatchQueue.global().async { [self] in
                let found: Result<[SocketAddress], any Error> = Result {
                    if let reason = HostNames.invalidReason(host) {
                        throw SystemError.netDB(EAI_NONAME, message: "Invalid host name: \(reason)")
                    }
                    return try QueueSocket.lookupHost(host, port: port).compactMap(SocketAddress.init(data:))
                }
                async { [self] in
                    guard epoch == closeCount else { return }
                    completion(found.flatMap(choose(among:)))
                }
            }
        }
    }

    /// The one address `destination` stands for when no lookup is needed.
    func knownAddress(of destination: QueueUdpDestination) -> SocketAddress? {
        switch destination {
        case .address(let address): address
        case .host(let host, let port): SocketAddress.numeric(host, port: port)
        case .connectedPeer: nil
        }
    }

    /// `address` when its family is enabled and its descriptor open (or not made yet).
    private func choose(_ address: SocketAddress) -> Result<SocketAddress, any Error> {
        guard isUsable(address) else { return choose(among: [address]) }
        return .success(address)
    }

    func isUsable(_ address: SocketAddress) -> Bool {
        let (enabled, fd) = address.isIPv4 ? (ipv4Enabled, socket4) : (ipv6Enabled, socket6)
        return (address.isIPv4 || address.isIPv6) && enabled && (!created || fd >= 0)
    }

    /// The address to use among `addresses`: of an enabled family whose descriptor is open (or not
    /// made yet), the preferred family first, else the resolver's order.
    private func choose(among addresses: [SocketAddress]) -> Result<SocketAddress, any Error> {
        let usable = addresses.filter(isUsable)
        let preferred: SocketAddress? =
            switch preference {
            case .ipv4: usable.first(where: \.isIPv4) ?? usable.first
            case .ipv6: usable.first(where: \.isIPv6) ?? usable.first
            case .neutral: usable.first
            }
        if let preferred { return .success(preferred) }
        let family = addresses.contains(where: \.isIPv4) ? "IPv4" : "IPv6"
        return .failure(
            QueueUdpSocketError(.other, "The address is \(family), and \(family) is disabled or its socket is closed."))
    }

    // MARK: Connecting

    private func connectNow(to address: SocketAddress) {
        do {
            try createSocketsIfNeeded()
        } catch {
            return connectFailed(error)
        }
        let fd = address.isIPv4 ? socket4 : socket6
        let rc = fd < 0 ? -1 : address.withSockaddr { Glibc.connect(fd, $0, $1) }
        guard rc == 0 else {
            return connectFailed(SystemError.posix(fd < 0 ? EAFNOSUPPORT : ask_errno(), "connect"))
        }
        closeSocket(ipv4: !address.isIPv4)
        connecting = false
        didConnect = true
        didBind = true
        let peer = SocketOps.peerAddress(fd) ?? address
        cachedPeer = peer
        let bytes = peer.data
        notify { [self] in $0.udpSocket(self, didConnectToAddress: bytes) }
        finishSend()
    }

    private func connectFailed(_ error: any Error) {
        connecting = false
        notify { [self] in $0.udpSocket(self, didNotConnect: error) }
        finishSend()
    }

    // MARK: Sending

    private func filterThenSend(to address: SocketAddress?) {
        guard case .datagram(let data, _) = currentSend?.kind, let tag = currentSend?.tag else { return }
        do {
            try createSocketsIfNeeded()
        } catch {
            return failSend(error)
        }
        let fd = address.map { $0.isIPv4 ? socket4 : socket6 } ?? (socket4 >= 0 ? socket4 : socket6)
        guard fd >= 0 else {
            return failSend(QueueUdpSocketError(.other, "The socket of the destination's family is closed."))
        }
        currentTarget = (fd, address)
        guard let filter = sendFilter else { return sendCurrent() }
        let addressBytes = (address ?? cachedPeer)?.data ?? Data()
        guard filter.isAsynchronous else {
            let allowed =
                filter.queue === socketQueue
                ? filter.block(data, addressBytes, tag) : filter.queue.sync { filter.block(data, addressBytes, tag) }
            return allowed ? sendCurrent() : reportSent()
        }
        let epoch = closeCount
        filter.queue.async { [self] in
            let allowed = filter.block(data, addressBytes, tag)
            async { [self] in
                guard epoch == closeCount else { return }
                if allowed { sendCurrent() } else { reportSent() }
            }
        }
    }

    /// Tries `sendto` for the current datagram; on EAGAIN waits for the write source, with the timer.
    func sendCurrent() {
        guard case .datagram(let data, _) = currentSend?.kind, let (fd, address) = currentTarget,
            let timeout = currentSend?.timeout
        else { return }
        let source = address.flatMap(replySources.source(for:))
        switch UdpDescriptor.send(fd, data, to: address, from: source, segmentSize: currentSend?.segmentSize ?? 0) {
        case .sent:
            reportSent()
        case .wouldBlock:
            channel(of: fd)?.watchWritable(true)
            if sendTimer == nil, timeout >= 0 {
                let timer = DispatchSource.makeTimerSource(queue: socketQueue)
                timer.setEventHandler { [weak self] in self?.sendTimedOut() }
                timer.schedule(deadline: .now() + timeout)
                timer.activate()
                sendTimer = timer
            }
        case .failed(let code):
            failSend(SystemError.posix(code, "sendto"))
        }
    }

    /// The write source of a descriptor fired: room for the waiting datagram.
    func writable(_ fd: Int32) {
        channel(of: fd)?.watchWritable(false)
        sendCurrent()
    }

    private func sendTimedOut() {
        if let (fd, _) = currentTarget { channel(of: fd)?.watchWritable(false) }
        failSend(QueueUdpSocketError(.sendTimeout, "Send operation timed out"))
    }

    private func reportSent() {
        guard let tag = currentSend?.tag else { return }
        reportSent(tag: tag)
        finishSend()
    }

    private func failSend(_ error: any Error) {
        guard let tag = currentSend?.tag else { return }
        notify { [self] in $0.udpSocket(self, didNotSendDataWithTag: tag, dueToError: error) }
        finishSend()
    }

    /// The current entry is over: the next one starts.
    private func finishSend() {
        currentSend = nil
        currentTarget = nil
        sendTimer?.cancel()
        sendTimer = nil
        dequeueSends()
    }

    func channel(of fd: Int32) -> UdpChannel? {
        fd == socket4 ? channel4 : fd == socket6 ? channel6 : nil
    }
}
