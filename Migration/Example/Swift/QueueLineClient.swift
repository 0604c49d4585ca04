import AsyncSocketKit
import Foundation

/// The Objective-C `LineClient` ported to ``QueueSocket`` — the end of the migration path: no run
/// loop, callbacks on a private serial queue, and GCDAsyncSocket's single disconnect callback.
///
/// What changed from ``RunLoopLineClient``: `enablePreBuffering` is gone (QueueSocket always
/// prebuffers); `onSocket(_:willDisconnectWithError:)` and `onSocketDidDisconnect` become one
/// `socketDidDisconnect(_:withError:)`, where a close by the server is `QueueSocketError.closed`
/// rather than `nil`; and since GCDAsyncSocket has no `unreadData`, the client keeps a read queued
/// once it has nothing left to send, to collect what the server sends last. (After a read timeout the
/// partial reply is gone: `unread` is then empty, where the run-loop client reports it.)
///
/// It may be used from any thread; `onEvent` is called on the client's delegate queue.
public final class QueueLineClient: QueueSocketDelegate, LineClient, @unchecked Sendable {
    // @unchecked Sendable: `pendingCommands`, `timeoutExtended` and `trailing` are touched only on
    // `delegateQueue` (the conversation runs in its callbacks); `events` only under `lock`.

    /// What the client sends and how long it waits.
    public let configuration: LineClientConfiguration

    /// The socket the client talks through (for `MigrationTesting` to trace it).
    public let socket = QueueSocket()
    private let delegateQueue = DispatchQueue(label: "QueueLineClient")
    private let onEvent: @Sendable (LineClientEvent) -> Void
    private let lock = NSLock()
    private var events: [LineClientEvent] = []
    private var pendingCommands: [String] = []
    private var timeoutExtended = false
    private var trailing = Data()

    /// A client that reports each event to `onEvent` (on its delegate queue) as well as in ``trace``.
    public init(
        configuration: LineClientConfiguration = .init(),
        onEvent: @escaping @Sendable (LineClientEvent) -> Void = { _ in }
    ) {
        self.configuration = configuration
        self.onEvent = onEvent
        socket.synchronouslySetDelegate(self, delegateQueue: delegateQueue)
    }

    /// Every event so far, in order.
    public var trace: [LineClientEvent] {
        lock.withLock { events }
    }

    /// Connects; throws `QueueSocketError` for misuse or a bad host.
    public func start(host: String, port: UInt16) throws {
        try socket.connect(toHost: host, onPort: port, withTimeout: configuration.connectTimeout)
    }

    /// Disconnects at once; `socketDidDisconnect` follows on the delegate queue.
    public func stop() {
        socket.disconnect()
    }

    private func log(_ event: LineClientEvent) {
        lock.withLock { events.append(event) }
        onEvent(event)
    }

    private func readLine(_ tag: LineProtocol.Tag) {
        socket.readData(to: QueueSocket.crlfData, withTimeout: configuration.replyTimeout, tag: tag.rawValue)
    }

    private func sendNextCommand() {
        guard !pendingCommands.isEmpty else {
            // Nothing left to say: collect whatever the server sends before it closes.
            socket.readData(withTimeout: -1, tag: LineProtocol.Tag.trailing.rawValue)
            return
        }
        let command = pendingCommands.removeFirst()
        log(.sent(command))
        socket.write(
            LineProtocol.line(command), withTimeout: configuration.replyTimeout, tag: LineProtocol.Tag.command.rawValue)
        readLine(.reply)
    }

    // MARK: QueueSocketDelegate

    /// Starts the script over for this connection (here, on the delegate queue, where the state
    /// lives) and reads the greeting.
    public func socket(_ sock: QueueSocket, didConnectToHost host: String, port: UInt16) {
        pendingCommands = configuration.commands
        timeoutExtended = false
        trailing = Data()
        log(.connected(host: host, port: port))
        readLine(.welcome)
    }

    /// Handles the greeting, a reply line, a payload, or bytes after the last reply.
    public func socket(_ sock: QueueSocket, didRead data: Data, withTag tag: Int) {
        switch LineProtocol.Tag(rawValue: tag) {
        case .trailing:
            trailing.append(data)
            sock.readData(withTimeout: -1, tag: tag)
        case .payload:
            log(.payload(data))
            sendNextCommand()
        case .welcome:
            log(.welcome(LineProtocol.text(ofLine: data)))
            sendNextCommand()
        default:
            let line = LineProtocol.text(ofLine: data)
            log(.reply(line))
            if let length = LineProtocol.payloadLength(line) {
                guard length > 0 else {
                    log(.payload(Data()))
                    sendNextCommand()
                    return
                }
                sock.readData(
                    toLength: length, withTimeout: configuration.replyTimeout, tag: LineProtocol.Tag.payload.rawValue)
            } else {
                sendNextCommand()
            }
        }
    }

    /// Extends the first read that runs out of time, once per connection.
    public func socket(
        _ sock: QueueSocket, shouldTimeoutReadWithTag tag: Int, elapsed: TimeInterval, bytesDone length: Int
    ) -> TimeInterval {
        if timeoutExtended {
            return 0
        }
        timeoutExtended = true
        log(.extendedRead(tag: tag, elapsed: elapsed))
        return configuration.timeoutExtension
    }

    /// The one callback of every close: why (nothing for `stop()`), then `disconnected`.
    public func socketDidDisconnect(_ sock: QueueSocket, withError error: (any Error)?) {
        if let error = error as? QueueSocketError {
            switch error.code {
            case .closed: log(.closed(.closedByServer, unread: trailing))
            case .readTimeout: log(.closed(.readTimeout, unread: trailing))
            default: log(.closed(.error(domain: QueueSocketError.errorDomain, code: error.errorCode), unread: trailing))
            }
        } else if let error = error.map({ $0 as NSError }) {
            log(.closed(.error(domain: error.domain, code: error.code), unread: trailing))
        }
        log(.disconnected)
    }
}
