import Foundation

// Finding a separator in bytes that arrive in pieces. Each new byte is examined once by the full
// search (memchr on the separator's first byte, then a compare), plus at most separator.count − 1
// bytes of the item's tail for a separator straddling the boundary, so a long line costs time
// linear in its length whatever the chunking. `scannedBytes` counts the examined bytes for the
// engine benchmark.
package enum SeparatorSearch {
    /// The number of bytes of `new` to take so that `tail + new[0..<n]` ends with the first
    /// separator after `tail`, or `nil` when `new` holds no completion. `tail` is the item's bytes so
    /// far, which never end with the separator.
    package static func end(
        of separator: [UInt8], tail: UnsafeRawBufferPointer, new: UnsafeRawBufferPointer, scanned: inout Int
    ) -> Int? {
        let length = separator.count
        guard new.count > 0 else { return nil }
        return separator.withUnsafeBytes { sep -> Int? in
            // A separator that starts in the tail and ends in `new` at position e (1..<length).
            let straddleLimit = min(length - 1, new.count)
            if straddleLimit > 0 && tail.count > 0 {
                for e in 1...straddleLimit where tail.count >= length - e {
                    let head = length - e
                    if memcmp(tail.baseAddress! + tail.count - head, sep.baseAddress!, head) == 0
                        && memcmp(new.baseAddress!, sep.baseAddress! + head, e) == 0
                    {
                        scanned += e
                        return e
                    }
                }
            }
            // A separator wholly inside `new`.
            let first = sep[0]
            var position = 0
            while position + length <= new.count {
                let remaining = new.count - length + 1 - position
                guard let hit = memchr(new.baseAddress! + position, Int32(first), remaining) else {
                    scanned += new.count - position
                    return nil
                }
                let index = new.baseAddress!.distance(to: UnsafeRawPointer(hit))
                if memcmp(new.baseAddress! + index, sep.baseAddress!, length) == 0 {
                    scanned += index + length - position
                    return index + length
                }
                position = index + 1
            }
            scanned += max(new.count - position, 0)
            return nil
        }
    }

    /// For a byte-exact read: how many more bytes can at most be read without passing a separator
    /// that might complete, given the item's bytes so far.
    package static func bytesToNextPossibleEnd(of separator: [UInt8], tail: UnsafeRawBufferPointer) -> Int {
        let length = separator.count
        return separator.withUnsafeBytes { sep -> Int in
            var overlap = min(length - 1, tail.count)
            while overlap > 0 {
                if memcmp(tail.baseAddress! + tail.count - overlap, sep.baseAddress!, overlap) == 0 {
                    return length - overlap
                }
                overlap -= 1
            }
            return length
        }
    }
}
