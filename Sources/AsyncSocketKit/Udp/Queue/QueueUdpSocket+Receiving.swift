import Dispatch
import Foundation
import Synchronization

// Receiving, as GCDAsyncUdpSocket does it: no queue of receives, no tags, no timeouts; a mode
// (once, continuous, off) and an optional receive filter. Each readiness event reads up to
// `readBatch` datagrams, then lets other work on the socket queue run (the source fires again while
// datagrams wait). Once mode stops at the first datagram the filter passes; with an asynchronous
// filter it stops reading while the filter decides, and reads again only if every answer was no. The
// datagrams one pass reads go to the delegate queue in one block, in order (QueueUdpSocket+Delegate.swift).
//
// Continuous mode is bounded, unlike the original: a datagram counts as pending from the moment it
// leaves the socket queue (to the filter or the delegate queue) until the delegate has it or the
// filter dropped it. At `maxPendingDatagrams` the read sources are suspended; the delivery that
// brings the count down to half resumes them. The count and the paused flag are atomics because
// deliveries end on other queues; the pause re-checks the count after setting the flag, so a
// delivery racing with it either sees the flag or leaves a count the re-check sees.
extension QueueUdpSocket {
    /// Datagrams read per readiness event before other work on the socket queue gets a turn.
    static let readBatch = 64

    /// Delivers the next datagram, then stops (`receiveOnce:`). Throws `badConfig` before the
    /// descriptors exist (bind, connect or send first).
    public func receiveOnce() throws {
        try sync { try startReceiving(.once) }
    }

    /// Delivers every datagram until ``pauseReceiving()`` or close (`beginReceiving:`). Throws as
    /// ``receiveOnce()``.
    public func beginReceiving() throws {
        try sync { try startReceiving(.continuous) }
    }

    /// Stops reading (`pauseReceiving`); datagrams already dispatched to the delegate still arrive.
    public func pauseReceiving() {
        async { [self] in
            receiveMode = .off
            watchReadable(false)
        }
    }

    /// Filters every datagram received (`setReceiveFilter:withQueue:isAsynchronous:`); `nil` (or no
    /// queue) removes the filter. A synchronous filter on the socket queue itself runs inline.
    public func setReceiveFilter(
        _ filter: QueueUdpSocketReceiveFilter?, withQueue queue: DispatchQueue?, isAsynchronous: Bool = true
    ) {
        let value = filter.flatMap { block in
            queue.map { ReceiveFilter(block: block, queue: $0, isAsynchronous: isAsynchronous) }
        }
        filterWillChange(synchronousOn: value.flatMap { $0.isAsynchronous ? nil : $0.queue })
        async { [self] in
            receiveFilter = value
            filtersChanged()
        }
    }

    /// Datagrams read and not yet delivered or dropped (at most ``maxPendingDatagrams``), for tests.
    package var pendingDatagramCount: Int { pendingDeliveries.load(ordering: .sequentiallyConsistent) }

    private func startReceiving(_ mode: ReceiveMode) throws {
        guard created else {
            throw QueueUdpSocketError(
                .badConfig,
                "Must bind socket before you can receive data. You can do this explicitly via bind, or implicitly via connect or by sending data."
            )
        }
        receiveMode = mode
        resumeReading()
    }

    /// Watches both descriptors unless receiving is off, waits for a filter, or is paused for the
    /// delegate queue to catch up.
    func resumeReading() {
        let waits =
            receiveMode == .off || (receiveMode == .once && pendingFilterReplies > 0)
            || readingPaused.load(ordering: .sequentiallyConsistent)
        watchReadable(!waits)
        if !waits { readHeldLater() }
    }

    /// Reads the datagrams of a coalesced buffer still held (``enableReceiveCoalescing(_:)``) in a pass of
    /// their own: the kernel's buffer may be empty, so no read source fires for them.
    private func readHeldLater() {
        guard let fd = reader.heldDescriptor else { return }
        socketQueue.async { [self] in
            guard fd == socket4 || fd == socket6 else { return }
            readable(fd)
        }
    }

    func watchReadable(_ watching: Bool) {
        channel4?.watchReadable(watching)
        channel6?.watchReadable(watching)
    }

    /// A descriptor's read source fired.
    func readable(_ fd: Int32) {
        defer { scheduleDelegateCalls() }
        for _ in 0..<Self.readBatch {
            guard receiveMode != .off, !(receiveMode == .once && pendingFilterReplies > 0),
                !readingPaused.load(ordering: .sequentiallyConsistent)
            else {
                return watchReadable(false)
            }
            let maxSize = fd == socket4 ? Int(maxReceive4) : Int(maxReceive6)
            switch reader.receive(fd, maxSize: maxSize) {
            case .wouldBlock:
                return
            case .failed(let code):
                scheduleDelegateCalls()
                return closeNow(error: SystemError.posix(code, "recvfrom"))
            case .tooLarge(let size, let sender):
                logger?.warning(
                    "QueueUdpSocket: dropped a datagram larger than the receive maximum",
                    metadata: udpLogMetadata(descriptor: fd).metadata([
                        "size": "\(size)", "maximum": "\(maxSize)", "from": .string("\(sender)"),
                    ]))
            case .datagram(let data, let sender, let local):
                if didConnect, let peer = cachedPeer, peer != sender { continue }
                if let local {
                    replySources.remember(local, for: sender)
                }
                received(data, from: senderBytes(sender))
                pauseIfBehind()
            }
        }
        readHeldLater()
    }

    /// The `sockaddr` bytes of `sender`: those of the previous datagram's sender again when it is the
    /// same (a conversation costs no allocation per datagram for its address).
    private func senderBytes(_ sender: SocketAddress) -> Data {
        if let last = lastSender, last.address == sender {
            return last.bytes
        }
        let bytes = sender.data
        lastSender = (sender, bytes)
        return bytes
    }

    private func received(_ data: Data, from address: Data) {
        guard let filter = receiveFilter else {
            deliver(data, from: address, context: nil)
            return
        }
        if filter.isAsynchronous {
            pendingFilterReplies += 1
            pendingDeliveries.add(1, ordering: .sequentiallyConsistent)
            let epoch = closeCount
            filter.queue.async { [self] in
                var context: (any Sendable)?
                let allowed = filter.block(data, address, &context)
                let decided = context
                async { [self] in
                    filterAnswered(allowed, data, address, decided, epoch: epoch)
                }
            }
            return
        }
        var context: (any Sendable)?
        let allowed: Bool
        if filter.queue === socketQueue {
            allowed = filter.block(data, address, &context)
        } else {
            (allowed, context) = filter.queue.sync {
                var inner: (any Sendable)?
                let answer = filter.block(data, address, &inner)
                return (answer, inner)
            }
        }
        if allowed {
            deliver(data, from: address, context: context)
        }
    }

    private func filterAnswered(
        _ allowed: Bool, _ data: Data, _ address: Data, _ context: (any Sendable)?, epoch: Int
    ) {
        deliveryEnded()
        guard epoch == closeCount else { return }
        pendingFilterReplies -= 1
        if allowed {
            deliver(data, from: address, context: context)
            scheduleDelegateCalls()
        }
        resumeReading()
    }

    /// Posts a datagram for the delegate (counted until the delegate has it); in once mode it is the one.
    private func deliver(_ data: Data, from address: Data, context: (any Sendable)?) {
        if receiveMode == .once {
            receiveMode = .off
            watchReadable(false)
        }
        pendingDeliveries.add(1, ordering: .sequentiallyConsistent)
        postDelegateCall(.received(QueueUdpDelivery(data: data, address: address, context: context)))
    }

    /// A pending datagram reached the delegate or was dropped (any queue).
    func deliveryEnded() {
        let left = pendingDeliveries.subtract(1, ordering: .sequentiallyConsistent).newValue
        if left == Self.maxPendingDatagrams / 2, readingPaused.load(ordering: .sequentiallyConsistent) {
            async { [self] in resumeAfterCatchingUp() }
        }
    }

    private func pauseIfBehind() {
        guard pendingDeliveries.load(ordering: .sequentiallyConsistent) >= Self.maxPendingDatagrams else { return }
        readingPaused.store(true, ordering: .sequentiallyConsistent)
        watchReadable(false)
        if pendingDeliveries.load(ordering: .sequentiallyConsistent) <= Self.maxPendingDatagrams / 2 {
            resumeAfterCatchingUp()
        }
    }

    private func resumeAfterCatchingUp() {
        guard readingPaused.load(ordering: .sequentiallyConsistent),
            pendingDeliveries.load(ordering: .sequentiallyConsistent) <= Self.maxPendingDatagrams / 2
        else { return }
        readingPaused.store(false, ordering: .sequentiallyConsistent)
        resumeReading()
    }
}

/// A datagram on its way to the delegate.
struct QueueUdpDelivery: Sendable {
    let data: Data
    let address: Data
    let context: (any Sendable)?
}
