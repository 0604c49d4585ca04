import Foundation

/// The surface both Swift ports of the Objective-C `LineClient` share, so one scripted server can
/// drive either and their traces can be compared.
public protocol LineClient: AnyObject {
    /// What the client sends and how long it waits.
    var configuration: LineClientConfiguration { get }
    /// Every event so far, in order.
    var trace: [LineClientEvent] { get }
    /// Connects to `host` at `port`; the conversation then runs by itself.
    func start(host: String, port: UInt16) throws
    /// Disconnects at once.
    func stop()
}

/// The parts of the LINE protocol both ports share.
enum LineProtocol {
    /// What each read or write is for (the Objective-C `TAG_…` values).
    enum Tag: Int {
        case welcome = 1
        case reply = 2
        case payload = 3
        case trailing = 4
        case command = 10
    }

    /// A reply line without its CR LF.
    static func text(ofLine data: Data) -> String {
        String(decoding: data.dropLast(2), as: UTF8.self)
    }

    /// The byte count of a "PAYLOAD <n>" line, or `nil` for any other line.
    static func payloadLength(_ line: String) -> Int? {
        guard line.hasPrefix("PAYLOAD ") else { return nil }
        return Int(line.dropFirst(8)) ?? 0
    }

    /// A command as the bytes of one line.
    static func line(_ command: String) -> Data {
        Data((command + "\r\n").utf8)
    }
}
