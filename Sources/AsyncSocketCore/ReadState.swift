import Foundation

// The progress of the current read, kept in the engine's value rather than in the read's object:
// the engine updates it inout (no run-time exclusivity check per field, see SocketEngine.swift).
// Its bytes live in socket-owned storage or in the caller's `NSMutableData`, and go there straight
// from the transport or from the prebuffer, copied once. `start(_:)` readies it for the next read.
struct ReadState: ~Copyable {
    /// The timeout as granted so far: the original one plus every extension.
    var timeout: TimeInterval = 0
    private(set) var bytesDone = 0
    private var owned = ByteBuffer()
    /// A whole result taken in one piece (see ``adoptWhole(_:)``).
    private var whole: Data?

    init() {}

    /// Readies the state for `item`, which just became current.
    mutating func start(_ item: ReadItem) {
        timeout = item.timeout
        bytesDone = 0
        whole = nil
        owned.removeAll()
    }

    /// Bytes `item` may still take before its maximum (`Int.max` without one).
    func remainingAllowance(_ item: ReadItem) -> Int {
        switch item.kind {
        case .available(let maxLength): return maxLength > 0 ? maxLength - bytesDone : .max
        case .length(let length): return length - bytesDone
        case .separator(_, let maxLength): return maxLength > 0 ? maxLength - bytesDone : .max
        }
    }

    /// Room for more bytes, at least `minimum` (unless the allowance is smaller) and at most
    /// `maximum`; for a caller buffer, its free space is used before it is lengthened.
    mutating func writableSpace(_ item: ReadItem, minimum: Int, maximum: Int) -> UnsafeMutableRawBufferPointer {
        let maximum = min(maximum, remainingAllowance(item))
        let minimum = min(minimum, maximum)
        guard let callerBuffer = item.callerBuffer else {
            return owned.writableSpace(minimum: minimum, maximum: maximum)
        }
        let position = item.callerOffset + bytesDone
        if callerBuffer.length - position < minimum {
            callerBuffer.length = position + minimum
        }
        let room = min(callerBuffer.length - position, maximum)
        return UnsafeMutableRawBufferPointer(start: callerBuffer.mutableBytes + position, count: room)
    }

    /// Records `count` bytes placed into the space from ``writableSpace(_:minimum:maximum:)``.
    mutating func didWrite(_ item: ReadItem, _ count: Int) {
        if item.callerBuffer == nil {
            owned.didWrite(count)
        }
        bytesDone += count
    }

    /// Whether ``adoptWhole(_:)`` may be used: nothing read yet, no caller buffer.
    func canAdoptWhole(_ item: ReadItem) -> Bool { bytesDone == 0 && item.callerBuffer == nil }

    /// Takes `bytes` as the complete result in one copy, skipping the owned storage (the common case
    /// of a line found whole in the prebuffer).
    mutating func adoptWhole(_ bytes: UnsafeRawBufferPointer) {
        whole = Data(bytes: bytes.baseAddress!, count: bytes.count)
        bytesDone = bytes.count
    }

    /// Appends a copy of `bytes`.
    mutating func append(_ item: ReadItem, _ bytes: UnsafeRawBufferPointer) {
        guard bytes.count > 0 else { return }
        let space = writableSpace(item, minimum: bytes.count, maximum: bytes.count)
        space.baseAddress!.copyMemory(from: bytes.baseAddress!, byteCount: bytes.count)
        didWrite(item, bytes.count)
    }

    /// The bytes read so far.
    func bytes(_ item: ReadItem) -> UnsafeRawBufferPointer {
        guard let callerBuffer = item.callerBuffer else { return owned.readable }
        return UnsafeRawBufferPointer(start: callerBuffer.bytes + item.callerOffset, count: bytesDone)
    }

    /// Whether `item` has what it waited for (a read of available bytes is decided by its pass).
    func isComplete(_ item: ReadItem) -> Bool {
        switch item.kind {
        case .available(let maxLength): return maxLength > 0 && bytesDone >= maxLength
        case .length(let length): return bytesDone == length
        case .separator(let separator, _):
            let tail = bytes(item)
            guard tail.count >= separator.count else { return false }
            return separator.withUnsafeBytes {
                memcmp(tail.baseAddress! + tail.count - separator.count, $0.baseAddress!, separator.count) == 0
            }
        }
    }

    /// The finished read's data. Socket-owned bytes are handed over without a copy; for a caller
    /// buffer the buffer is trimmed back and the data is a no-copy view into it.
    mutating func finish(_ item: ReadItem) -> Data {
        if let whole {
            self.whole = nil
            return whole
        }
        guard let callerBuffer = item.callerBuffer else { return owned.takeData() }
        let end = item.callerOffset + bytesDone
        if callerBuffer.length > max(end, item.callerOriginalLength) {
            callerBuffer.length = max(end, item.callerOriginalLength)
        }
        guard bytesDone > 0 else { return Data() }
        return Data(bytesNoCopy: callerBuffer.mutableBytes + item.callerOffset, count: bytesDone, deallocator: .none)
    }

    /// Copies the bytes read so far in front of `prebuffer` (for `unreadData`), trimming a caller
    /// buffer; the engine then drops this state (`prepareErrorClose`).
    mutating func takePartialBytes(_ item: ReadItem, into prebuffer: inout ByteBuffer) {
        prebuffer.prepend(bytes(item))
        if let callerBuffer = item.callerBuffer,
            callerBuffer.length > max(item.callerOffset + bytesDone, item.callerOriginalLength)
        {
            callerBuffer.length = max(item.callerOffset + bytesDone, item.callerOriginalLength)
        }
    }
}
