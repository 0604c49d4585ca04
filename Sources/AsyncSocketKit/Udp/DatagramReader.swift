import CAsyncSocketShims
import CLibevent
import Foundation

// Where a UDP socket receives datagrams before each is copied once into the `Data` handed over: slots
// kept between reads, grown to the largest size asked for. A datagram costs the allocation of its
// `Data` and nothing else (receiving straight into a fresh allocation of the largest size and trimming
// it cost two more, measured in Benchmarks/UDP.md).
//
// A reader that reads ahead takes every datagram waiting, up to its slots, with one `recvmmsg`, and
// hands them out one at a time before it reads again: a socket that serves one receive at a time
// (RunLoopUdpSocket) then makes one system call per batch instead of one per datagram. Its slots start
// at one and double, up to ASK_MAX_RECEIVE_BATCH and 256 KiB, each time a read fills them all, and go
// back to one when a read finds nothing: a burst is read in batches, while a conversation of a few
// datagrams at a time is read one by one. Kept at their size instead, the slots emptied the kernel's
// buffer so often that one peer's echo went idle and was woken more (one peer, 4 in flight: 28 % fewer
// datagrams a second on the queue-core engine; Benchmarks/UDP.md). What was read ahead is the socket's as the
// kernel's buffer was: handed out in arrival order, checked against the receive limit when handed out,
// dropped with the descriptor it came from.
//
// With receive coalescing on (`UDP_GRO`, beyond the originals), the kernel may put several datagrams of
// one sender, of one size but the last, into one buffer and say that size; the reader reads into slots
// of 64 KiB whatever the limit, and hands such a buffer out one datagram at a time, each checked against
// the limit on its own: the delegate sees the datagrams the sender sent, never the buffer.

/// A socket's datagram reader. Used only where the socket does its work (its loop's thread, its
/// queue), one receive at a time.
package final class DatagramReader {
    /// The most bytes a reader's slots take together, whatever the receive limit.
    package static let slotBytesLimit = 256 * 1024

    private let readsAhead: Bool
    private var memory = UnsafeMutableRawBufferPointer(start: nil, count: 0)
    private var slotCapacity = 0
    /// How many slots the next read fills at most.
    private var slotsWanted = 1
    private var items: UnsafeMutableBufferPointer<ask_incoming_datagram>
    private var addresses: UnsafeMutableBufferPointer<sockaddr_storage>
    /// The datagrams of the last read not handed out yet: `items[next..<count]`, read from `heldFrom`.
    private var next = 0
    private var count = 0
    private var heldFrom: Int32 = -1
    /// Where in `items[next]` the next datagram starts, when the kernel coalesced several into it.
    private var segmentOffset = 0

    /// Whether the descriptors read from have `UDP_GRO` on: slots are then 64 KiB, the most the kernel
    /// coalesces into one buffer.
    package var coalescing = false

    /// A reader that reads one datagram per call, or, with `readingAhead`, all that wait (see above).
    package init(readingAhead: Bool) {
        readsAhead = readingAhead
        let slots = readingAhead ? Int(ASK_MAX_RECEIVE_BATCH) : 1
        items = .allocate(capacity: slots)
        addresses = .allocate(capacity: 2 * slots)
    }

    deinit {
        memory.deallocate()
        items.deallocate()
        addresses.deallocate()
    }

    /// Whether datagrams read ahead wait to be handed out.
    package var holdsDatagrams: Bool { next < count }

    /// The descriptor the datagrams waiting to be handed out came from, `nil` when none waits.
    package var heldDescriptor: Int32? { next < count ? heldFrom : nil }

    /// The next datagram of at most `maxSize` bytes: one read ahead, else one (with those waiting
    /// behind it, when reading ahead) read now from `fd`. `MSG_TRUNC` makes the kernel give a larger
    /// datagram's real size, so it is reported, never cut. An empty datagram is an empty `Data`.
    package func receive(_ fd: Int32, maxSize: Int) -> UdpDescriptor.ReceiveResult {
        if next < count {
            return take(maxSize: maxSize)
        }
        // No datagram, and no coalesced buffer, is larger than 64 KiB, whatever the limit is set to.
        let capacity = coalescing ? 65_536 : min(max(maxSize, 1), 65_536)
        let slots = readsAhead ? max(1, min(slotsWanted, Self.slotBytesLimit / capacity)) : 1
        prepare(slots: slots, capacity: capacity)
        switch UdpDescriptor.receive(fd, into: UnsafeMutableBufferPointer(rebasing: items[0..<slots])) {
        case .received(let received) where received > 0:
            next = 0
            segmentOffset = 0
            count = received
            heldFrom = fd
            if received == slots, slotsWanted < Int(ASK_MAX_RECEIVE_BATCH) {
                slotsWanted *= 2
            }
            return take(maxSize: maxSize)
        case .received, .wouldBlock:
            slotsWanted = 1
            return .wouldBlock
        case .failed(let code):
            return .failed(code)
        }
    }

    /// Drops what was read ahead from `fd` (its descriptor is closing).
    package func discardHeld(from fd: Int32) {
        guard heldFrom == fd else { return }
        next = 0
        count = 0
        segmentOffset = 0
    }

    /// Points `slots` items at slots of `capacity` bytes each, growing the memory when it is short.
    private func prepare(slots: Int, capacity: Int) {
        if memory.count < slots * capacity {
            memory.deallocate()
            memory = .allocate(byteCount: slots * capacity, alignment: 16)
        }
        slotCapacity = capacity
        for index in 0..<slots {
            items[index] = ask_incoming_datagram(
                buffer: memory.baseAddress! + index * capacity, capacity: capacity,
                source: addresses.baseAddress! + 2 * index, destination: addresses.baseAddress! + 2 * index + 1,
                size: 0, source_length: 0, has_destination: 0, interface_index: 0, segment_size: 0)
        }
    }

    /// Hands out the next datagram read (a larger one than `maxSize`, or than its slot held, as
    /// `tooLarge`); of a coalesced buffer, the next datagram in it.
    private func take(maxSize: Int) -> UdpDescriptor.ReceiveResult {
        let item = items[next]
        let segment = Int(item.segment_size)
        let (start, size) =
            segment > 0 && item.size <= slotCapacity
            ? (segmentOffset, min(segment, item.size - segmentOffset)) : (0, item.size)
        if start + size < item.size {
            segmentOffset = start + size
        } else {
            segmentOffset = 0
            next += 1
        }
        let sender = Self.address(item.source, length: item.source_length)
        guard size <= min(maxSize, slotCapacity) else {
            return .tooLarge(size: size, from: sender)
        }
        let local =
            item.has_destination != 0
            ? UdpReplySource(
                local: Self.address(item.destination, length: socklen_t(MemoryLayout<sockaddr_storage>.size)),
                interfaceIndex: item.interface_index)
            : nil
        return .datagram(Data(bytes: item.buffer + start, count: size), from: sender, to: local)
    }

    private static func address(_ storage: UnsafeMutablePointer<sockaddr_storage>, length: socklen_t) -> SocketAddress {
        storage.withMemoryRebound(to: sockaddr.self, capacity: 1) { SocketAddress(pointer: $0, length: length) }
    }
}
