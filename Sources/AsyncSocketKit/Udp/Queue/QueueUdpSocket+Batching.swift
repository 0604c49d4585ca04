import Dispatch
import Foundation

// Fewer thread hops per datagram, without changing what the delegate sees.
//
// A delegate answering each datagram from `didReceive` used to cost a hop per answer: its `send` joined
// the socket queue (a `sync` that waits, and wakes a thread, whenever the socket queue is busy reading)
// and its `didSendDataWithTag` came back as a block of its own. Now, while a thread delivers a batch of
// datagrams, the sends it makes for this socket wait in `batchSends`, and join the socket queue
// together, without waiting for it, when the batch's callbacks have returned; sooner at
// `maxBatchSends`, and before any other call the same thread makes on the socket (that call then queues
// behind them, so nothing overtakes them). The delegate cannot tell: its `didSendDataWithTag` for such a
// send comes on the delegate queue, which is busy delivering the batch until then anyway. What changes
// is when the datagram leaves: after the batch rather than during it, as SwiftNIO flushes a channel's
// writes on `channelReadComplete` (Migration/README.md).
//
// On the socket queue, datagrams at the head of the send queue that need nothing but `sendto` (no
// filter, a destination known without a lookup, no reply address to choose) leave together, with one
// `sendmmsg` per descriptor; the first one it did not send takes the one-at-a-time path, which meets its
// `EAGAIN` or error again and handles it as always. The `didSendDataWithTag` reports of one pass
// (`dequeueSends`) go to the delegate queue in one block (`sentTags`); any other delegate call first
// sends the reports gathered before it, so the order the delegate sees is the order things happened in.
extension QueueUdpSocket {
    /// Sends a delivering thread holds back before it joins them to the socket queue.
    static let maxBatchSends = 64

    /// Whether the calling thread is delivering a batch of this socket's datagrams.
    var isDeliveringThread: Bool {
        deliveringThread.load(ordering: .relaxed) == UInt(pthread_self())
    }

    /// Delivers `body` (a batch of datagrams, on the delegate queue) with this thread marked as the
    /// delivering one, then joins the sends it made to the socket queue.
    func deliveringBatch(_ body: () -> Void) {
        deliveringThread.store(UInt(pthread_self()), ordering: .relaxed)
        body()
        deliveringThread.store(0, ordering: .relaxed)
        flushBatchSends()
    }

    /// Queues `packet`: held back when the caller is delivering a batch, else joined to the socket
    /// queue now.
    func enqueue(_ packet: QueueUdpPacket) {
        if isDeliveringThread {
            batchSends.append(packet)
            if batchSends.count >= Self.maxBatchSends { flushBatchSends() }
            return
        }
        join([packet], waiting: true)
    }

    /// Joins the sends held back by a delivering thread to the socket queue (that thread only).
    func flushBatchSends() {
        guard !batchSends.isEmpty else { return }
        var packets: [QueueUdpPacket] = []
        swap(&packets, &batchSends)
        join(packets, waiting: false)
    }

    /// Appends `packets` to the send queue and starts it. A lone send waits with `sync` where that
    /// cannot wait for the caller's own queue (QueueUdpSocket+Sending.swift); a batch's sends do not
    /// wait: the socket queue is then usually reading the next datagrams, and a `sync` would wait for it
    /// (Benchmarks/UDP.md).
    private func join(_ packets: [QueueUdpPacket], waiting: Bool) {
        guard socketQueueIsOwn, !blockingFilter.load(ordering: .sequentiallyConsistent), waiting || isOnSocketQueue
        else {
            return async { [self] in
                sends.append(contentsOf: packets)
                dequeueSends()
            }
        }
        sync {
            sends.append(contentsOf: packets)
            dequeueSends()
        }
    }

    /// Sends the datagrams at the head of the send queue that need nothing but a system call, to one
    /// descriptor, with one `sendmmsg`; `false` when fewer than two are ready or none left.
    func sendReadyRun() -> Bool {
        guard sendFilter == nil, created, sends.count > 1 else { return false }
        var run: [(data: Data, to: SocketAddress?)] = []
        var runFD: Int32 = -1
        for packet in sends.prefix(UdpDescriptor.maxSendBatch) {
            guard let (fd, data, address) = readyTarget(of: packet), runFD < 0 || fd == runFD else { break }
            runFD = fd
            run.append((data, address))
        }
        guard run.count > 1 else { return false }
        let sent = UdpDescriptor.sendBatch(runFD, run)
        for _ in 0..<sent {
            reportSent(tag: sends.removeFirst().tag)
        }
        return sent > 0
    }

    /// The descriptor, bytes and address of `packet` when sending it is one system call away.
    private func readyTarget(of packet: QueueUdpPacket) -> (Int32, Data, SocketAddress?)? {
        guard case .datagram(let data, let destination) = packet.kind else { return nil }
        if destination == .connectedPeer {
            guard didConnect else { return nil }
            let fd = socket4 >= 0 ? socket4 : socket6
            return fd >= 0 ? (fd, data, nil) : nil
        }
        guard !didConnect, let address = knownAddress(of: destination), isUsable(address),
            replySources.source(for: address) == nil
        else { return nil }
        let fd = address.isIPv4 ? socket4 : socket6
        return fd >= 0 ? (fd, data, address) : nil
    }

    /// Reports a datagram sent (or dropped by the send filter) with the others of this pass.
    func reportSent(tag: Int) {
        sentTags.append(tag)
    }

    /// Sends the gathered `didSendDataWithTag` reports to the delegate queue in one block (socket queue).
    func flushSentReports() {
        guard !sentTags.isEmpty else { return }
        var tags: [Int] = []
        swap(&tags, &sentTags)
        guard let delegate = storedDelegate, let queue = storedDelegateQueue else { return }
        let box = DelegateBox(delegate)
        let reported = tags
        queue.async { [self] in
            guard let delegate = box.delegate else { return }
            for tag in reported {
                delegate.udpSocket(self, didSendDataWithTag: tag)
            }
        }
    }
}
