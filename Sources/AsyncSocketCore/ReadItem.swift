import Foundation

/// A queued read and its progress. Its bytes live in socket-owned storage or in the caller's
/// `NSMutableData`, and go there straight from the transport or from the prebuffer, copied once.
package final class ReadItem {
    package let kind: ReadKind
    package let tag: Int
    /// The timeout as granted so far: the original one plus every extension (2.10).
    package var timeout: TimeInterval
    package private(set) var bytesDone = 0
    private var owned = ByteBuffer()
    /// A whole result taken in one piece (see ``adoptWhole(_:)``).
    private var whole: Data?
    private let callerBuffer: NSMutableData?
    private let callerOffset: Int
    private let callerOriginalLength: Int

    package init(_ request: ReadRequest) {
        kind = request.kind
        tag = request.tag
        timeout = request.timeout
        callerBuffer = request.buffer
        callerOffset = request.bufferOffset
        callerOriginalLength = request.buffer?.length ?? 0
    }

    /// Bytes the item may still take before its maximum (`Int.max` without one).
    package var remainingAllowance: Int {
        switch kind {
        case .available(let maxLength): return maxLength > 0 ? maxLength - bytesDone : .max
        case .length(let length): return length - bytesDone
        case .separator(_, let maxLength): return maxLength > 0 ? maxLength - bytesDone : .max
        }
    }

    /// Room for more bytes, at least `minimum` (unless the allowance is smaller) and at most
    /// `maximum`; for a caller buffer, its free space is used before it is lengthened.
    package func writableSpace(minimum: Int, maximum: Int) -> UnsafeMutableRawBufferPointer {
        let maximum = min(maximum, remainingAllowance)
        let minimum = min(minimum, maximum)
        guard let callerBuffer else {
            return owned.writableSpace(minimum: minimum, maximum: maximum)
        }
        let position = callerOffset + bytesDone
        if callerBuffer.length - position < minimum {
            callerBuffer.length = position + minimum
        }
        let room = min(callerBuffer.length - position, maximum)
        return UnsafeMutableRawBufferPointer(start: callerBuffer.mutableBytes + position, count: room)
    }

    /// Records `count` bytes placed into the space from ``writableSpace(minimum:maximum:)``.
    package func didWrite(_ count: Int) {
        if callerBuffer == nil {
            owned.didWrite(count)
        }
        bytesDone += count
    }

    /// Whether ``adoptWhole(_:)`` may be used: nothing read yet, no caller buffer.
    package var canAdoptWhole: Bool { bytesDone == 0 && callerBuffer == nil }

    /// Takes `bytes` as the complete result in one copy, skipping the item's own storage (the common
    /// case of a line found whole in the prebuffer).
    package func adoptWhole(_ bytes: UnsafeRawBufferPointer) {
        whole = Data(bytes: bytes.baseAddress!, count: bytes.count)
        bytesDone = bytes.count
    }

    /// Appends a copy of `bytes`.
    package func append(_ bytes: UnsafeRawBufferPointer) {
        guard bytes.count > 0 else { return }
        let space = writableSpace(minimum: bytes.count, maximum: bytes.count)
        space.baseAddress!.copyMemory(from: bytes.baseAddress!, byteCount: bytes.count)
        didWrite(bytes.count)
    }

    /// The bytes read so far.
    package var bytes: UnsafeRawBufferPointer {
        guard let callerBuffer else { return owned.readable }
        return UnsafeRawBufferPointer(start: callerBuffer.bytes + callerOffset, count: bytesDone)
    }

    /// Whether the item has what it waited for (a read of available bytes is decided by its pass).
    package var isComplete: Bool {
        switch kind {
        case .available(let maxLength): return maxLength > 0 && bytesDone >= maxLength
        case .length(let length): return bytesDone == length
        case .separator(let separator, _):
            let tail = bytes
            guard tail.count >= separator.count else { return false }
            return separator.withUnsafeBytes {
                memcmp(tail.baseAddress! + tail.count - separator.count, $0.baseAddress!, separator.count) == 0
            }
        }
    }

    /// The finished read's data. Socket-owned bytes are handed over without a copy; for a caller
    /// buffer the buffer is trimmed back (1.10) and the data is a no-copy view into it.
    package func finish() -> Data {
        if let whole {
            return whole
        }
        guard let callerBuffer else { return owned.takeData() }
        let end = callerOffset + bytesDone
        if callerBuffer.length > max(end, callerOriginalLength) {
            callerBuffer.length = max(end, callerOriginalLength)
        }
        guard bytesDone > 0 else { return Data() }
        return Data(bytesNoCopy: callerBuffer.mutableBytes + callerOffset, count: bytesDone, deallocator: .none)
    }

    /// Takes the bytes read so far out of the item (for `unreadData`), trimming a caller buffer.
    package func takePartialBytes(into prebuffer: inout ByteBuffer) {
        prebuffer.prepend(bytes)
        if let callerBuffer, callerBuffer.length > max(callerOffset + bytesDone, callerOriginalLength) {
            callerBuffer.length = max(callerOffset + bytesDone, callerOriginalLength)
        }
    }
}
