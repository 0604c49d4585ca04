import AsyncSocketCore
import Foundation

/// A read to queue: its kind, and optionally a caller buffer with its original bytes and the offset
/// the read's bytes go to.
package struct PlannedRead {
    package let kind: ReadKind
    package let buffer: NSMutableData?
    package let bufferOriginal: [UInt8]
    package let offset: Int

    package init(kind: ReadKind, bufferOriginal: [UInt8]? = nil, offset: Int = 0) {
        self.kind = kind
        buffer = bufferOriginal.map { NSMutableData(bytes: $0, length: $0.count) }
        self.bufferOriginal = bufferOriginal ?? []
        self.offset = offset
    }

    /// What is wrong with the caller buffer after the read completed with `data`, or `nil`: it must
    /// hold its original bytes with `data` written at the offset (lengthened only as far as needed).
    package func bufferProblem(completedWith data: [UInt8], tag: Int) -> String? {
        guard let buffer else { return nil }
        var expected = bufferOriginal
        let end = offset + data.count
        if expected.count < end {
            expected += [UInt8](repeating: 0, count: end - expected.count)
        }
        expected.replaceSubrange(offset..<end, with: data)
        let actual = Array(buffer as Data)
        return actual == expected ? nil : "read \(tag): caller buffer \(actual) ≠ \(expected)"
    }
}
