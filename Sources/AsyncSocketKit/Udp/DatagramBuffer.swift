// Where a UDP socket receives each datagram before it is copied once into the `Data` handed over: one
// buffer per socket, kept between datagrams and grown to the largest size asked for. A datagram then
// costs the allocations of its `Data` and nothing else (receiving straight into a fresh allocation
// of the largest size and trimming it cost two more, measured in Benchmarks/UDP.md).

/// A socket's receive buffer. Used only where the socket does its work (its loop's thread, its
/// queue), one receive at a time.
final class DatagramBuffer {
    private var memory = UnsafeMutableRawBufferPointer(start: nil, count: 0)

    /// The buffer, at least `capacity` bytes long (what it held before is not kept).
    func memory(atLeast capacity: Int) -> UnsafeMutableRawBufferPointer {
        if memory.count < capacity {
            memory.deallocate()
            memory = .allocate(byteCount: capacity, alignment: 16)
        }
        return memory
    }

    deinit {
        memory.deallocate()
    }
}
