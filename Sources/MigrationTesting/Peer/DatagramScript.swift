import Foundation

/// One thing a ``ScriptedDatagramPeer`` does, in order.
public enum DatagramStep: Sendable, CustomStringConvertible {
    /// Sends `data` as one datagram to the program: to the port it announced (``LegacyRun/listening(on:)``,
    /// ``ModernRun/listening(on:)``), else to where its last datagram came from.
    case send(Data)
    /// Receives one datagram and compares it with `data`; anything else, or nothing within the
    /// script's step timeout, fails the script.
    case expect(Data)
    /// Receives one datagram, whatever it holds (the runner compares it with the other runs'); nothing
    /// within the step timeout fails the script.
    case receive

    /// Sends `text` as UTF-8, one datagram.
    public static func send(_ text: String) -> DatagramStep {
        .send(Data(text.utf8))
    }

    /// Receives one datagram holding exactly `text` as UTF-8.
    public static func expect(_ text: String) -> DatagramStep {
        .expect(Data(text.utf8))
    }

    /// A short form for reports.
    public var description: String {
        switch self {
        case .send(let data): return "send \(ByteText.describe(data))"
        case .expect(let data): return "expect \(ByteText.describe(data))"
        case .receive: return "receive"
        }
    }
}

/// What a ``ScriptedDatagramPeer`` does: datagrams to send and datagrams to expect, in order, from a
/// UDP socket of its own on 127.0.0.1.
public struct DatagramScript: Sendable {
    /// What it does, in order. After the last step it takes the datagrams already waiting (they are
    /// part of what it received) and closes its socket.
    public var steps: [DatagramStep]
    /// The longest an `expect` waits for the program.
    public var stepTimeout: TimeInterval

    /// A script of `steps`.
    public init(_ steps: [DatagramStep], stepTimeout: TimeInterval = 10) {
        self.steps = steps
        self.stepTimeout = stepTimeout
    }
}
