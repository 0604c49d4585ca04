import Foundation

/// One thing a LINE client did: the Swift form of the lines the Objective-C `LineClient` logged.
/// Both Swift ports record the same events for the same conversation, so their traces can be compared.
public enum LineClientEvent: Sendable, Equatable {
    /// Connected to `host` (numeric) at `port`.
    case connected(host: String, port: UInt16)
    /// The server's greeting line (without CR LF).
    case welcome(String)
    /// A command line was queued for sending (without CR LF).
    case sent(String)
    /// A reply line (without CR LF).
    case reply(String)
    /// The bytes announced by a "PAYLOAD <n>" reply.
    case payload(Data)
    /// The read with `tag` ran out of time after `elapsed` seconds and was given more.
    case extendedRead(tag: Int, elapsed: TimeInterval)
    /// The connection ended because of `reason`; `unread` is what the server sent that no read took.
    case closed(LineClientCloseReason, unread: Data)
    /// The last event of every connection.
    case disconnected
}

/// Why a LINE connection ended (a user's `stop()` is not a reason: it only ends with `disconnected`).
public enum LineClientCloseReason: Sendable, Equatable {
    /// The server closed the connection (after "BYE", or at any time).
    case closedByServer
    /// A reply did not come in time, even after the one extension.
    case readTimeout
    /// Anything else, by the error's domain and code.
    case error(domain: String, code: Int)
}
