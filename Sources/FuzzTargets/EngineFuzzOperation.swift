import AsyncSocketCore
import EngineTestSupport
import Foundation

/// One thing that happens to a socket in an engine fuzz case: a call of the user, the peer, the
/// transport or the clock.
///
/// Times are multiples of 1/4 s, read timeouts 1/16 s past such a multiple and write timeouts
/// 1/8 s past one, so a read and a write deadline never coincide (their order is never a tie).
package enum EngineFuzzOperation: CustomStringConvertible {
    case read(PlannedRead, timeout: TimeInterval?)
    case write([UInt8], timeout: TimeInterval?)
    case startTLS
    case finishHandshake
    case feed([UInt8])
    case peerCloses
    case transportFails(Int32)
    /// The transport takes only this many more bytes (when it took any number so far).
    case limitSending(Int)
    case peerDrains(Int)
    case unlimitSending
    case advance(TimeInterval)
    case answerReadTimeout(TimeInterval)
    case answerWriteTimeout(TimeInterval)
    case disconnectAfter(reading: Bool, writing: Bool)
    case disconnect

    /// The bytes fed and written: separators are made of them, so they meet often.
    static let alphabet: [UInt8] = Array("ab#\r\n".utf8) + [0, 0xFF, UInt8(ascii: "x")]
    static let separators: [[UInt8]] = [[10], [13, 10], Array("#a".utf8), Array("ab#".utf8), [0, 0], [97]]

    /// Decodes the next operation.
    static func decode(from input: inout FuzzInput) -> EngineFuzzOperation {
        switch input.int(in: 0...19) {
        case 0, 1, 2: return .feed(input.bytes(input.int(in: 1...64), from: alphabet))
        case 3: return .feed(input.bytes(input.int(in: 1...4096), from: alphabet))
        case 4, 5, 6: return decodeRead(from: &input)
        case 7, 8:
            let data = input.bytes(input.int(in: 0...48), from: alphabet)
            return .write(data, timeout: timeout(from: &input, offset: 0.125))
        case 9: return .startTLS
        case 10: return .finishHandshake
        case 11: return .peerDrains(input.int(in: 0...64))
        case 12: return .limitSending(input.int(in: 0...32))
        case 13: return .unlimitSending
        case 14: return .advance(Double(input.int(in: 1...64)) / 4)
        case 15: return .answerReadTimeout(Double(input.int(in: 0...16)) / 4)
        case 16: return .answerWriteTimeout(Double(input.int(in: 0...16)) / 4)
        case 17: return .disconnectAfter(reading: input.bool(), writing: input.bool())
        case 18:
            switch input.int(in: 0...7) {
            case 0: return .transportFails(Int32(input.int(in: 1...120)))
            case 1: return .disconnect
            default: return .peerCloses
            }
        default: return .feed(input.bytes(input.int(in: 1...8), from: alphabet))
        }
    }

    /// A read of any kind; its numbers may be out of range, so some reads are (rightly) refused.
    private static func decodeRead(from input: inout FuzzInput) -> EngineFuzzOperation {
        let kind: ReadKind
        switch input.int(in: 0...2) {
        case 0:
            kind = .available(maxLength: input.int(in: 0...66) - 1)
        case 1:
            kind = .length(input.bool() ? input.int(in: 0...64) - 1 : input.int(in: 0...5000))
        default:
            let separator =
                input.int(in: 0...3) == 0
                ? input.bytes(input.int(in: 0...4), from: alphabet) : input.pick(separators)
            kind = .separator(separator, maxLength: input.bool() ? 0 : input.int(in: 0...80) - 1)
        }
        var original: [UInt8]?
        var offset = 0
        if input.int(in: 0...3) == 0 {
            let bytes = input.bytes(input.int(in: 0...20), from: Array("ABCDEFGH".utf8))
            original = bytes
            offset = input.int(in: 0...bytes.count + 1)
        }
        let read = PlannedRead(kind: kind, bufferOriginal: original, offset: offset)
        return .read(read, timeout: timeout(from: &input, offset: 0.0625))
    }

    private static func timeout(from input: inout FuzzInput, offset: TimeInterval) -> TimeInterval? {
        let steps = input.int(in: 0...40)
        return steps < 16 ? nil : Double(steps - 16) / 4 + offset
    }

    package var description: String {
        switch self {
        case .read(let read, let timeout):
            let buffer = read.buffer.map { "buffer \($0.length)@\(read.offset) " } ?? ""
            return "read(\(read.kind) \(buffer)timeout \(timeout.map { "\($0)" } ?? "none"))"
        case .write(let data, let timeout): return "write(\(data.count) timeout \(timeout.map { "\($0)" } ?? "none"))"
        case .startTLS: return "startTLS"
        case .finishHandshake: return "finishHandshake"
        case .feed(let bytes): return "feed(\(String(decoding: bytes, as: UTF8.self).debugDescription))"
        case .peerCloses: return "peerCloses"
        case .transportFails(let code): return "transportFails(\(code))"
        case .limitSending(let count): return "limitSending(\(count))"
        case .peerDrains(let count): return "peerDrains(\(count))"
        case .unlimitSending: return "unlimitSending"
        case .advance(let seconds): return "advance(\(seconds))"
        case .answerReadTimeout(let seconds): return "answerReadTimeout(\(seconds))"
        case .answerWriteTimeout(let seconds): return "answerWriteTimeout(\(seconds))"
        case .disconnectAfter(let reading, let writing):
            return "disconnectAfter(reading: \(reading), writing: \(writing))"
        case .disconnect: return "disconnect"
        }
    }
}
