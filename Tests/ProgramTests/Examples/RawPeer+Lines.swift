import Foundation
import SocketTestSupport

extension RawPeer {
    /// The next line the other side sends, without its LF or CR LF; `nil` when none is complete
    /// within `timeout` (or before the other side closes, or past 64 KiB).
    func receiveLine(timeout: TimeInterval = 10) -> String? {
        let deadline = Date(timeIntervalSinceNow: timeout)
        var bytes: [UInt8] = []
        while bytes.last != 0x0A {
            let remaining = deadline.timeIntervalSinceNow
            guard remaining > 0, bytes.count < 65_536 else { return nil }
            let next = receive(count: 1, timeout: remaining)
            guard next.count == 1 else { return nil }
            bytes += next
        }
        bytes.removeLast()
        if bytes.last == 0x0D {
            bytes.removeLast()
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
