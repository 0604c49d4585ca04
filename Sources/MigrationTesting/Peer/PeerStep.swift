import AsyncSocketKit
import Foundation

/// One thing a ``ScriptedPeer`` does, in order.
public enum PeerStep: Sendable, CustomStringConvertible {
    /// Sends `data`, in separate `send` calls of `chunkSizes` bytes (the rest in one last call; empty:
    /// all at once), waiting `gap` seconds between them.
    case send(Data, chunkSizes: [Int], gap: TimeInterval)
    /// Sends `data` one byte at a time, `interval` seconds apart.
    case dribble(Data, interval: TimeInterval)
    /// Receives exactly `data`; anything else fails the script.
    case expect(Data)
    /// Receives one line ending in LF and compares it, without its CR LF or LF, to `text`.
    case expectLine(String)
    /// Receives until the program closes the connection.
    case expectClose
    /// Waits `seconds` seconds (receiving meanwhile).
    case pause(TimeInterval)
    /// Stops sending (the program reads end of file) and keeps receiving.
    case halfClose
    /// Closes the connection.
    case close
    /// Resets the connection (the program sees ECONNRESET).
    case reset
    /// Starts TLS with `settings` (their role says which side the peer plays); bytes already
    /// received and not consumed are the start of the handshake.
    case startTLS(TLSSettings)

    /// Sends `text` as UTF-8 in one call.
    public static func send(_ text: String) -> PeerStep {
        .send(Data(text.utf8), chunkSizes: [], gap: 0)
    }

    /// Sends `data` in one call.
    public static func send(_ data: Data) -> PeerStep {
        .send(data, chunkSizes: [], gap: 0)
    }

    /// Sends `text` as UTF-8 in calls of `chunkSizes` bytes, `gap` seconds apart.
    public static func send(_ text: String, chunkSizes: [Int], gap: TimeInterval = 0) -> PeerStep {
        .send(Data(text.utf8), chunkSizes: chunkSizes, gap: gap)
    }

    /// Sends `text` as UTF-8 one byte at a time.
    public static func dribble(_ text: String, interval: TimeInterval) -> PeerStep {
        .dribble(Data(text.utf8), interval: interval)
    }

    /// Receives exactly `text` as UTF-8.
    public static func expect(_ text: String) -> PeerStep {
        .expect(Data(text.utf8))
    }

    /// A short form for reports.
    public var description: String {
        switch self {
        case .send(let data, let chunks, _):
            return chunks.isEmpty
                ? "send \(ByteText.describe(data))" : "send \(ByteText.describe(data)) in chunks \(chunks)"
        case .dribble(let data, let interval): return "dribble \(ByteText.describe(data)) every \(interval) s"
        case .expect(let data): return "expect \(ByteText.describe(data))"
        case .expectLine(let text): return "expect line \(ByteText.describe(Data(text.utf8)))"
        case .expectClose: return "expect close"
        case .pause(let seconds): return "pause \(seconds) s"
        case .halfClose: return "half-close"
        case .close: return "close"
        case .reset: return "reset"
        case .startTLS(let settings): return "start TLS as \(settings.role == .server ? "server" : "client")"
        }
    }
}

/// What a ``ScriptedPeer`` does: its role and its steps.
public struct PeerScript: Sendable {
    /// Which side of the connection the peer is.
    public enum Role: Sendable, Equatable {
        /// The peer listens on 127.0.0.1 and the program connects to it.
        case server
        /// The program listens and the peer connects to it.
        case client
    }

    /// Which side the peer is.
    public var role: Role
    /// What it does, in order. After the last step it half-closes (unless it closed or reset) and
    /// receives until the program closes or `drainTimeout` passes.
    public var steps: [PeerStep]
    /// The longest any one step waits for the program (receiving, accepting, connecting).
    public var stepTimeout: TimeInterval
    /// How long the peer waits, after its last step, for the program to close.
    public var drainTimeout: TimeInterval

    /// A script for a peer playing `role`.
    public init(role: Role, steps: [PeerStep], stepTimeout: TimeInterval = 10, drainTimeout: TimeInterval = 5) {
        self.role = role
        self.steps = steps
        self.stepTimeout = stepTimeout
        self.drainTimeout = drainTimeout
    }

    /// A peer that listens and plays `steps` with the program that connects.
    public static func server(_ steps: [PeerStep]) -> PeerScript {
        PeerScript(role: .server, steps: steps)
    }

    /// A peer that connects to the program and plays `steps`.
    public static func client(_ steps: [PeerStep]) -> PeerScript {
        PeerScript(role: .client, steps: steps)
    }
}
