import AsyncSocketKit
import Foundation

/// The Objective-C `LineClient` ported to ``RunLoopSocket`` — step 1 of the migration path: the same
/// calls and callbacks in the same places, under their Swift spellings, on an `EventRunLoop`.
///
/// Use it on one thread: ``start(host:port:)`` connects on the calling thread's
/// `EventRunLoop.current`, which must then run (`EventRunLoop.current.run()`); every callback, and
/// `onEvent`, arrives there.
public final class RunLoopLineClient: RunLoopSocketDelegate, LineClient {
    /// What the client sends and how long it waits.
    public let configuration: LineClientConfiguration
    /// Every event so far, in order.
    public private(set) var trace: [LineClientEvent] = []

    /// The socket the client talks through (for `MigrationTesting` to trace it).
    public let socket: RunLoopSocket
    private let onEvent: (LineClientEvent) -> Void
    private var pendingCommands: [String] = []
    private var timeoutExtended = false

    /// A client that reports each event to `onEvent` as well as in ``trace``. `engine` is step 2 of
    /// the migration path: the same client, unchanged, on the queue core (`.queueCore`).
    public init(
        configuration: LineClientConfiguration = .init(), engine: RunLoopSocket.Engine = .native,
        onEvent: @escaping (LineClientEvent) -> Void = { _ in }
    ) {
        self.configuration = configuration
        self.onEvent = onEvent
        socket = RunLoopSocket(engine: engine)
        socket.delegate = self
        // Prebuffering is on by default (as it was since 5.0.1); the call is kept from the original.
        socket.enablePreBuffering()
    }

    /// Connects (`connectToHost:onPort:withTimeout:error:`); throws what the original returned
    /// through `error:`, or `AsyncSocketUsageError` for what it raised.
    public func start(host: String, port: UInt16) throws {
        pendingCommands = configuration.commands
        timeoutExtended = false
        try socket.connectToHost(host, onPort: port, withTimeout: configuration.connectTimeout)
    }

    /// Disconnects at once; `onSocketDidDisconnect` runs before this returns.
    public func stop() {
        socket.disconnect()
    }

    private func log(_ event: LineClientEvent) {
        trace.append(event)
        onEvent(event)
    }

    private func readLine(_ tag: LineProtocol.Tag) {
        socket.readData(to: RunLoopSocket.crlfData, withTimeout: configuration.replyTimeout, tag: tag.rawValue)
    }

    private func sendNextCommand() {
        guard !pendingCommands.isEmpty else {
            // Nothing left to say: the server closes after QUIT (see willDisconnectWithError).
            return
        }
        let command = pendingCommands.removeFirst()
        log(.sent(command))
        socket.write(
            LineProtocol.line(command), withTimeout: configuration.replyTimeout, tag: LineProtocol.Tag.command.rawValue)
        readLine(.reply)
    }

    // MARK: RunLoopSocketDelegate

    /// Reads the greeting.
    public func onSocket(_ sock: RunLoopSocket, didConnectToHost host: String, port: UInt16) {
        log(.connected(host: host, port: port))
        readLine(.welcome)
    }

    /// Handles the greeting, a reply line, or a payload.
    public func onSocket(_ sock: RunLoopSocket, didRead data: Data, withTag tag: Int) {
        if tag == LineProtocol.Tag.payload.rawValue {
            log(.payload(data))
            sendNextCommand()
            return
        }
        let line = LineProtocol.text(ofLine: data)
        if tag == LineProtocol.Tag.welcome.rawValue {
            log(.welcome(line))
            sendNextCommand()
        } else if let length = LineProtocol.payloadLength(line) {
            log(.reply(line))
            guard length > 0 else {
                // readData(toLength: 0, …) would be ignored, and we would wait forever.
                log(.payload(Data()))
                sendNextCommand()
                return
            }
            sock.readData(
                toLength: length, withTimeout: configuration.replyTimeout, tag: LineProtocol.Tag.payload.rawValue)
        } else {
            log(.reply(line))
            sendNextCommand()
        }
    }

    /// Extends the first read that runs out of time, once per connection.
    public func onSocket(
        _ sock: RunLoopSocket, shouldTimeoutReadWithTag tag: Int, elapsed: TimeInterval, bytesDone length: Int
    ) -> TimeInterval {
        if timeoutExtended {
            return 0
        }
        timeoutExtended = true
        log(.extendedRead(tag: tag, elapsed: elapsed))
        return configuration.timeoutExtension
    }

    /// Records why the connection ends, with what the server sent that no read took.
    public func onSocket(_ sock: RunLoopSocket, willDisconnectWithError error: (any Error)?) {
        // Only here does unreadData answer.
        let unread = sock.unreadData() ?? Data()
        guard let error = error.map({ $0 as NSError }) else {
            log(.closed(.closedByServer, unread: unread))
            return
        }
        if error.domain == AsyncSocketError.errorDomain && error.code == AsyncSocketError.Code.readTimeout.rawValue {
            log(.closed(.readTimeout, unread: unread))
        } else {
            log(.closed(.error(domain: error.domain, code: error.code), unread: unread))
        }
    }

    /// The last callback of every connection.
    public func onSocketDidDisconnect(_ sock: RunLoopSocket) {
        log(.disconnected)
    }
}
