import Foundation

/// What a LINE client sends and how long it waits: the constants of the Objective-C `LineClient`.
public struct LineClientConfiguration: Sendable, Equatable {
    /// The commands to send, one per line, in order.
    public var commands: [String]
    /// How long to wait for each reply, and for each command to be written (`REPLY_TIMEOUT`).
    public var replyTimeout: TimeInterval
    /// How much longer a slow reply gets, once per connection (`TIMEOUT_EXTENSION`).
    public var timeoutExtension: TimeInterval
    /// How long to wait for the connection (`CONNECT_TIMEOUT`).
    public var connectTimeout: TimeInterval

    /// A configuration; the defaults are the Objective-C client's.
    public init(
        commands: [String] = ["PING", "GET motd", "QUIT"], replyTimeout: TimeInterval = 5,
        timeoutExtension: TimeInterval = 5, connectTimeout: TimeInterval = 10
    ) {
        self.commands = commands
        self.replyTimeout = replyTimeout
        self.timeoutExtension = timeoutExtension
        self.connectTimeout = connectTimeout
    }
}
