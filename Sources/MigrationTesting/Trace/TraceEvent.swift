import Foundation

/// One delegate callback, in terms both delegate protocols share, so that the trace of a legacy
/// conversation and the trace of its modern port can be compared event by event.
///
/// The recorders normalize as they record: the legacy pair `willDisconnect` + `didDisconnect` is one
/// ``disconnected(_:)`` with a ``CloseReason``, as GCD's single `socketDidDisconnect(_:withError:)`
/// is; an accepted socket's legacy `didConnectToHost` (which GCD never sends) is left out; ports are
/// left out, since every run has its own peer.
public enum TraceEvent: Hashable, Sendable, CustomStringConvertible {
    /// An outgoing connection completed.
    case connected(host: String)
    /// A listening socket accepted a connection; the new socket's events carry the label `child`.
    case accepted(child: String)
    /// A read completed with these bytes.
    case read(tag: Int, data: Data)
    /// A read made progress without completing.
    case partialRead(tag: Int, length: Int)
    /// A write completed.
    case wrote(tag: Int)
    /// A write made progress without completing.
    case partialWrite(tag: Int, length: Int)
    /// A read ran out of time and the delegate was asked; `extended` tells whether it granted more.
    case readTimeout(tag: Int, extended: Bool)
    /// A write ran out of time and the delegate was asked; `extended` tells whether it granted more.
    case writeTimeout(tag: Int, extended: Bool)
    /// The TLS handshake completed.
    case secured
    /// The peer closed its side while the socket stays open (`socketDidCloseReadStream`, GCD only).
    case readStreamClosed
    /// The socket's final callback (UDP: the close).
    case disconnected(CloseReason)
    /// UDP: a datagram reached the program (legacy: the delegate answered `true`). Receive tags are
    /// left out: GCD's receives have none.
    case datagramReceived(Data)
    /// UDP: a legacy receive failed or timed out (GCD has no such callback), the failure classified
    /// as a ``CloseReason``.
    case datagramNotReceived(CloseReason)
    /// UDP: a send completed.
    case datagramSent(tag: Int)
    /// UDP: a send failed or timed out, the failure classified as a ``CloseReason``.
    case datagramNotSent(tag: Int, CloseReason)

    /// The event with its tag, if it has one, made 0.
    var untagged: TraceEvent {
        switch self {
        case .read(_, let data): return .read(tag: 0, data: data)
        case .partialRead(_, let length): return .partialRead(tag: 0, length: length)
        case .wrote: return .wrote(tag: 0)
        case .partialWrite(_, let length): return .partialWrite(tag: 0, length: length)
        case .readTimeout(_, let extended): return .readTimeout(tag: 0, extended: extended)
        case .writeTimeout(_, let extended): return .writeTimeout(tag: 0, extended: extended)
        case .datagramSent: return .datagramSent(tag: 0)
        case .datagramNotSent(_, let reason): return .datagramNotSent(tag: 0, reason)
        case .connected, .accepted, .secured, .readStreamClosed, .disconnected, .datagramReceived,
            .datagramNotReceived:
            return self
        }
    }

    /// A short, readable form, with bytes shown as escaped text.
    public var description: String {
        switch self {
        case .connected(let host): return "connected(\(host))"
        case .accepted(let child): return "accepted(\(child))"
        case .read(let tag, let data): return "read(tag \(tag), \(ByteText.describe(data)))"
        case .partialRead(let tag, let length): return "partialRead(tag \(tag), \(length) bytes)"
        case .wrote(let tag): return "wrote(tag \(tag))"
        case .partialWrite(let tag, let length): return "partialWrite(tag \(tag), \(length) bytes)"
        case .readTimeout(let tag, let extended):
            return "readTimeout(tag \(tag), \(extended ? "extended" : "not extended"))"
        case .writeTimeout(let tag, let extended):
            return "writeTimeout(tag \(tag), \(extended ? "extended" : "not extended"))"
        case .secured: return "secured"
        case .readStreamClosed: return "readStreamClosed"
        case .disconnected(let reason): return "disconnected(\(reason))"
        case .datagramReceived(let data): return "datagramReceived(\(ByteText.describe(data)))"
        case .datagramNotReceived(let reason): return "datagramNotReceived(\(reason))"
        case .datagramSent(let tag): return "datagramSent(tag \(tag))"
        case .datagramNotSent(let tag, let reason): return "datagramNotSent(tag \(tag), \(reason))"
        }
    }
}

/// One recorded event and the socket it happened to.
public struct TraceEntry: Hashable, Sendable, CustomStringConvertible {
    /// The socket's label: the one given when tracing started, or `childN` for the N-th accepted one.
    public var socket: String
    /// What happened.
    public var event: TraceEvent

    /// An entry for `socket`.
    public init(socket: String, event: TraceEvent) {
        self.socket = socket
        self.event = event
    }

    /// `label: event`.
    public var description: String { "\(socket): \(event)" }
}
