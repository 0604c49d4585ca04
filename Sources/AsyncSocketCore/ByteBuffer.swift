import Foundation

// A malloc'd byte region with a read index and a write index: the prebuffer, and the storage of a
// socket-owned read. Not a ring: when everything written has been read, both indices snap back to
// the start; room at the end is made by moving the unread bytes to the front only when they are
// fewer than the room needed, so a byte moves at most rarely and never twice in a row.
// `takeData()` hands the region to a `Data` without copying (realloc'd to fit, freed by `Data`).
package struct ByteBuffer: ~Copyable {
    private(set) var base: UnsafeMutableRawPointer?
    private(set) var capacity = 0
    package private(set) var readIndex = 0
    package private(set) var writeIndex = 0

    package init() {}

    deinit {
        free(base)
    }

    /// Bytes written and not yet read.
    package var count: Int { writeIndex - readIndex }
    package var isEmpty: Bool { writeIndex == readIndex }

    /// The unread bytes.
    package var readable: UnsafeRawBufferPointer {
        guard let base else { return UnsafeRawBufferPointer(start: nil, count: 0) }
        return UnsafeRawBufferPointer(start: base + readIndex, count: count)
    }

    /// Room for at least `minimum` more bytes at the write end; at most `maximum` of it is returned.
    package mutating func writableSpace(minimum: Int, maximum: Int = .max) -> UnsafeMutableRawBufferPointer {
        if capacity - writeIndex < minimum {
            if readIndex > 0 && count < minimum && capacity - count >= minimum {
                let live = count
                memmove(base!, base! + readIndex, live)
                readIndex = 0
                writeIndex = live
            } else {
                grow(toFit: writeIndex + minimum)
            }
        }
        let room = min(capacity - writeIndex, maximum)
        return UnsafeMutableRawBufferPointer(start: base! + writeIndex, count: room)
    }

    private mutating func grow(toFit needed: Int) {
        var newCapacity = max(capacity, 64)
        while newCapacity < needed {
            newCapacity *= 2
        }
        guard let grown = realloc(base, newCapacity) else {
            fatalError("AsyncSocketKit: out of memory growing a buffer to \(newCapacity) bytes")
        }
        base = grown
        capacity = newCapacity
    }

    /// Records `count` bytes written into the space from ``writableSpace(minimum:maximum:)``.
    package mutating func didWrite(_ count: Int) {
        precondition(count >= 0 && writeIndex + count <= capacity, "ByteBuffer overrun")
        writeIndex += count
    }

    /// Appends a copy of `bytes`.
    package mutating func append(_ bytes: UnsafeRawBufferPointer) {
        guard bytes.count > 0 else { return }
        let space = writableSpace(minimum: bytes.count)
        space.baseAddress!.copyMemory(from: bytes.baseAddress!, byteCount: bytes.count)
        didWrite(bytes.count)
    }

    /// Puts `bytes` in front of the unread bytes.
    package mutating func prepend(_ bytes: UnsafeRawBufferPointer) {
        guard bytes.count > 0 else { return }
        if readIndex >= bytes.count {
            readIndex -= bytes.count
        } else {
            let live = count
            let needed = live + bytes.count
            if capacity < needed {
                grow(toFit: needed)
            }
            memmove(base! + bytes.count, base! + readIndex, live)
            readIndex = 0
            writeIndex = needed
        }
        (base! + readIndex).copyMemory(from: bytes.baseAddress!, byteCount: bytes.count)
    }

    /// Marks `count` unread bytes as read.
    package mutating func consume(_ count: Int) {
        precondition(count >= 0 && count <= self.count, "ByteBuffer underrun")
        readIndex += count
        if readIndex == writeIndex {
            readIndex = 0
            writeIndex = 0
        }
    }

    /// Removes everything unread; keeps the memory.
    package mutating func removeAll() {
        readIndex = 0
        writeIndex = 0
    }

    /// Frees the memory when it is empty and larger than `limit` (idle sockets keep little).
    package mutating func releaseIfEmpty(above limit: Int) {
        guard isEmpty, capacity > limit else { return }
        free(base)
        base = nil
        capacity = 0
    }

    /// A copy of the unread bytes.
    package func copyData() -> Data {
        guard count > 0 else { return Data() }
        return Data(bytes: base! + readIndex, count: count)
    }

    /// Hands the unread bytes over as `Data`, without a copy when nothing was read from the front.
    /// Spare room is given back (an in-place shrink) only when it is worth a call.
    package mutating func takeData() -> Data {
        guard count > 0, let base else {
            removeAll()
            return Data()
        }
        guard readIndex == 0 else {
            let data = copyData()
            removeAll()
            return data
        }
        let live = count
        let fitted = capacity - live > max(256, live / 8) ? realloc(base, live) ?? base : base
        self.base = nil
        capacity = 0
        removeAll()
        return Data(bytesNoCopy: fitted, count: live, deallocator: .free)
    }
}
