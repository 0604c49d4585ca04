import Foundation

/// What a `bench` client sends: one small message at a time, or large chunks with several in flight.
enum BenchWorkload {
    case pingPong(messageSize: Int)
    case bulk(chunkSize: Int)

    /// Bulk keeps this many chunks in flight.
    static let bulkWindow = 8

    var name: String {
        switch self {
        case .pingPong: return "ping-pong"
        case .bulk: return "bulk"
        }
    }

    /// The bytes of one write.
    var payload: Data {
        switch self {
        case .pingPong(let size): return Data(repeating: 0x70, count: size)
        case .bulk(let size): return Data(repeating: 0x62, count: size)
        }
    }

    /// At most this many bytes sent and not yet echoed back.
    var window: Int {
        switch self {
        case .pingPong(let size): return size
        case .bulk(let size): return size * Self.bulkWindow
        }
    }

    /// Round trips per second for ping-pong, MiB per second for bulk, from the bytes echoed back.
    func rate(bytes: Int, seconds: TimeInterval) -> Double {
        guard seconds > 0 else { return 0 }
        switch self {
        case .pingPong(let size): return Double(bytes / size) / seconds
        case .bulk: return Double(bytes) / 1_048_576 / seconds
        }
    }

    /// The amount done so far, for the progress line.
    func progressText(bytes: Int) -> String {
        switch self {
        case .pingPong(let size): return "\(bytes / size) round trips"
        case .bulk: return String(format: "%.1f MiB", Double(bytes) / 1_048_576)
        }
    }
}
