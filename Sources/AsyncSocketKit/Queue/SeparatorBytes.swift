import Foundation

// The bytes of a read's separator for QueueSocket. Its reads are called from any thread, so it cannot
// keep the last separator per socket without a lock, as RunLoopSocket does; instead the common line
// ends are shared constant arrays, and a read to one of them copies nothing (one allocation fewer per
// line). Any other separator is copied.
enum SeparatorBytes {
    private static let lf: [UInt8] = [0x0A]
    private static let crlf: [UInt8] = [0x0D, 0x0A]
    private static let cr: [UInt8] = [0x0D]
    private static let zero: [UInt8] = [0x00]

    /// `data`'s bytes: a shared array for LF, CRLF, CR and NUL, else a copy.
    static func of(_ data: Data) -> [UInt8] {
        switch data.count {
        case 1:
            switch data.first {
            case 0x0A: lf
            case 0x0D: cr
            case 0x00: zero
            default: Array(data)
            }
        case 2 where data.first == 0x0D && data.last == 0x0A: crlf
        default: Array(data)
        }
    }
}
