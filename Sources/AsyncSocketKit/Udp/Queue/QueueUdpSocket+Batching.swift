import Dispatch
import Foundation

// Fewer thread hops per datagram, without changing what the delegate sees.
//
// A delegate answering each datagram from `didReceive` used to cost a hop per answer: its `send` joined
// the socket queue (a `sync` that waits, and wakes a thread, whenever the socket queue is busy reading)
// and its `didSendDataWithTag` came back as a block of its own. Now, while a thread delivers a batch of
// datagrams, the sends it makes for this socket are held in `heldSends`, and join the socket queue
// together, without waiting for it, when the batch's callbacks have returned (sooner at
// `maxBatchSends`). Any later call on this socket, from any thread, first joins the held sends, so it
// does not overtake them (on its thread, or on another one it handed work to); only a call running on
// the socket queue itself goes first, as it did in GCDAsyncUdpSocket, where every send was an `async`. The delegate's
// `didSendDataWithTag` for such a send comes on the delegate queue, which is busy delivering the batch
// until then anyway. What changes is when the datagram leaves: after the batch rather than during it, as
// SwiftNIO flushes a channel's writes on `channelReadComplete` (Migration/README.md). One thread at a
// time delivers this way: on a concurrent delegate queue, a batch delivered while another is delivered
// holds nothing back.
//
// On the socket queue, datagrams at the head of the send queue that need nothing but `sendto` (no filter,
// a destination known without a lookup, no reply address to choose, not a connected socket, not cut into
// segments) leave together, with one `sendmmsg` per descriptor; the first one it did not send takes the
// one-at-a-time path, which meets its `EAGAIN` or error again and handles it as always. A connected
// socket's datagrams go one at a time: the kernel reports an ICMP refusal once, to the call that meets it,
// and `sendmmsg` drops the error of any datagram but the first. The `didSendDataWithTag` reports of one
// pass (`dequeueSends`) go to the delegate queue in one block, in order with every other delegate call
// (QueueUdpSocket+Delegate.swift).
extension QueueUdpSocket {
    /// Sends a delivering thread holds back before it joins them to the socket queue.
    static let maxBatchSends = 64

    /// Whether the calling thread is delivering a batch of this socket's datagrams.
    var isDeliveringThread: Bool {
        deliveringThread.load(ordering: .relaxed) == UInt(pthread_self())
    }

    /// Delivers `body` (a batch of datagrams, on the delegate queue) with this thread marked as the
    /// delivering one, then joins the sends it made to the socket queue. When another thread is
    /// marked (a concurrent delegate queue), delivers without holding anything back.
    func deliveringBatch(_ body: () -> Void) {
        let me = UInt(pthread_self())
        guard deliveringThread.compareExchange(expected: 0, desired: me, ordering: .relaxed).exchanged else {
            return body()
        }
        body()
        deliveringThread.store(0, ordering: .relaxed)
        flushBatchSends()
    }

    /// Queues `packet`: held back when the caller is delivering a batch, else joined to the socket
    /// queue now.
    func enqueue(_ packet: QueueUdpPacket) {
        if isDeliveringThread {
            if heldSends.post(packet) >= Self.maxBatchSends { flushBatchSends() }
            return
        }
        guard socketQueueIsOwn, !blockingFilter.load(ordering: .sequentiallyConsistent) else {
            return async { [self] in
                sends.append(packet)
                dequeueSends()
            }
        }
        sync {
            sends.append(packet)
            dequeueSends()
        }
    }

    /// Joins the held sends to the socket queue (any thread), with `async`, not waiting for it: the
    /// socket queue is usually reading the next datagrams then, and a `sync` would wait for that
    /// (Benchmarks/UDP.md). A caller that finds no sends held is queued behind every join scheduled
    /// before (DispatchMailbox.swift says why). Called from the socket queue (a block there calling the
    /// socket), the join too queues behind the running block, as GCDAsyncUdpSocket queued every send.
    func flushBatchSends() {
        guard heldSends.hasUnscheduled else { return }
        heldSends.schedule()
    }

    /// Drops the sends still held when the socket closes without a call that joins them (a receive
    /// error, the end of `closeAfterSending`), as the close drops the queued ones.
    func dropHeldSends() {
        heldSends.removeAll()
    }

    /// Sends the datagrams at the head of the send queue that need nothing but a system call, to one
    /// descriptor, with one `sendmmsg`; `true` when it sent them all, `false` when fewer than two were
    /// ready or one was not sent (the first of those goes next, alone).
    func sendReadyRun() -> Bool {
        guard sendFilter == nil, created, sends.count > 1,
            let (runFD, firstData, firstAddress) = readyTarget(of: sends[0]),
            let (secondFD, secondData, secondAddress) = readyTarget(of: sends[1]), secondFD == runFD
        else { return false }
        var run: [(data: Data, to: SocketAddress?)] = []
        run.reserveCapacity(min(sends.count, UdpDescriptor.maxSendBatch))
        run.append((firstData, firstAddress))
        run.append((secondData, secondAddress))
        for packet in sends.dropFirst(2).prefix(UdpDescriptor.maxSendBatch - 2) {
            guard let (fd, data, address) = readyTarget(of: packet), fd == runFD else { break }
            run.append((data, address))
        }
        let sent = UdpDescriptor.sendBatch(runFD, run)
        for _ in 0..<sent {
            reportSent(tag: sends.removeFirst().tag)
        }
        return sent == run.count
    }

    /// The descriptor, bytes and address of `packet` when sending it is one system call away.
    private func readyTarget(of packet: QueueUdpPacket) -> (Int32, Data, SocketAddress?)? {
        guard case .datagram(let data, let destination) = packet.kind, destination != .connectedPeer,
            packet.segmentSize == 0
        else { return nil }
        guard !didConnect, let address = knownAddress(of: destination), isUsable(address),
            replySources.source(for: address) == nil
        else { return nil }
        let fd = address.isIPv4 ? socket4 : socket6
        return fd >= 0 ? (fd, data, address) : nil
    }

    /// Reports a datagram sent (or dropped by the send filter) with the others of this pass.
    func reportSent(tag: Int) {
        postDelegateCall(.sent(tag: tag))
    }
}
