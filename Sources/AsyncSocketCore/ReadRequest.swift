import Foundation

/// What a queued read waits for.
package enum ReadKind: Equatable, Sendable {
    /// Whatever is available, at least one byte; at most `maxLength` when it is not 0.
    case available(maxLength: Int)
    /// Exactly `length` bytes.
    case length(Int)
    /// Everything up to and including `separator`; failing with max-out past `maxLength` (0 = none).
    case separator([UInt8], maxLength: Int)
}

/// A read as the caller asked for it: kind, optional caller buffer and offset, timeout and tag.
package struct ReadRequest {
    package var kind: ReadKind
    /// The caller's buffer (`NSMutableData`, as in the original): bytes go in at `bufferOffset`.
    package var buffer: NSMutableData?
    package var bufferOffset: Int
    /// Seconds; negative means none, 0 fires on the next pass.
    package var timeout: TimeInterval
    package var tag: Int

    package init(
        kind: ReadKind, buffer: NSMutableData? = nil, bufferOffset: Int = 0, timeout: TimeInterval, tag: Int
    ) {
        self.kind = kind
        self.buffer = buffer
        self.bufferOffset = bufferOffset
        self.timeout = timeout
        self.tag = tag
    }

    /// Why the original would silently ignore this request, or `nil` when it is valid.
    package var rejection: String? {
        if bufferOffset < 0 || bufferOffset > (buffer?.length ?? 0) {
            return "buffer offset \(bufferOffset) is past the buffer's length \(buffer?.length ?? 0)"
        }
        switch kind {
        case .available(let maxLength):
            if maxLength < 0 { return "negative maxLength" }
        case .length(let length):
            if length <= 0 { return "length is 0" }
        case .separator(let separator, let maxLength):
            if separator.isEmpty { return "the separator is empty" }
            if maxLength < 0 { return "negative maxLength" }
            if maxLength > 0 && maxLength < separator.count {
                return "maxLength \(maxLength) is shorter than the separator (\(separator.count) bytes)"
            }
        }
        return nil
    }
}
