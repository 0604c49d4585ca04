import AsyncSocketKit
import Foundation

/// The Objective-C `LineClient` ported one step further, to ``AsyncSocketConnection``: the conversation
/// is one `async` function, each tagged read or write and its callback one `await`.
///
/// What changed from ``QueueLineClient``: no delegate and no tags (the tag a callback switched on is now
/// where the code is); the timeouts of the tagged calls are a timer task beside each reply read, which
/// grants the one extension the delegate's `shouldTimeoutReadWithTag` granted and then cancels the read
/// (cancelling closes the connection, so the close reason is a read timeout); the last bytes the server
/// sends are collected by reads until it closes, as the `QueueSocket` port does. Commands are written
/// without a timeout: `write(_:)` waits until the kernel has taken them.
///
/// It may be used from any thread; `onEvent` is called on the task that runs the conversation.
public final class AsyncLineClient: LineClient, @unchecked Sendable {
    // @unchecked Sendable: every variable is touched only under `lock`.

    /// What the client sends and how long it waits.
    public let configuration: LineClientConfiguration

    private let onEvent: @Sendable (LineClientEvent) -> Void
    private let executor: (any TaskExecutor)?
    private let lock = NSLock()
    private var events: [LineClientEvent] = []
    private var conversation: Task<Void, Never>?
    private var connection: AsyncSocketConnection?
    private var stopped = false
    private var timeoutExtended = false

    /// A client that reports each event to `onEvent` as well as in ``trace``; its tasks run on `executor`
    /// (`nil`: the global concurrent executor).
    public init(
        configuration: LineClientConfiguration = .init(), executor: (any TaskExecutor)? = nil,
        onEvent: @escaping @Sendable (LineClientEvent) -> Void = { _ in }
    ) {
        self.configuration = configuration
        self.executor = executor
        self.onEvent = onEvent
    }

    /// Every event so far, in order.
    public var trace: [LineClientEvent] {
        lock.withLock { events }
    }

    /// Starts the conversation in a task of its own; its events follow in ``trace``.
    public func start(host: String, port: UInt16) throws {
        lock.withLock {
            stopped = false
            timeoutExtended = false
            conversation = Task(executorPreference: executor) { [self] in await converse(host: host, port: port) }
        }
    }

    /// Disconnects at once: the conversation ends with `disconnected`.
    public func stop() {
        let connection = lock.withLock {
            stopped = true
            conversation?.cancel()
            return self.connection
        }
        connection?.close()
    }

    private func log(_ event: LineClientEvent) {
        lock.withLock { events.append(event) }
        onEvent(event)
    }

    // MARK: The conversation

    private func converse(host: String, port: UInt16) async {
        do {
            let connection = try await withTimer(
                configuration.connectTimeout, extending: false,
                timeoutError: QueueSocketError(.connectTimeout, "Attempt to connect to host timed out")
            ) {
                try await AsyncSocketConnection.connect(toHost: host, port: port)
            }
            let started = lock.withLock {
                self.connection = connection
                return !stopped
            }
            guard started else { return finish(nil, connection) }
            log(.connected(host: connection.remoteHost ?? host, port: connection.remotePort))
            log(.welcome(try await readLine(connection, tag: .welcome)))
            for command in configuration.commands {
                log(.sent(command))
                try await connection.write(LineProtocol.line(command))
                let line = try await readLine(connection, tag: .reply)
                log(.reply(line))
                if let length = LineProtocol.payloadLength(line) {
                    let payload =
                        length > 0
                        ? try await withTimer(configuration.replyTimeout, tag: .payload) {
                            try await connection.read(exactly: length)
                        } : Data()
                    log(.payload(payload))
                }
            }
            // Nothing left to say: collect whatever the server sends before it closes.
            var trailing = Data()
            do {
                while true { trailing.append(try await connection.read(upTo: 0)) }
            } catch {
                finish(error, connection, unread: trailing)
            }
        } catch {
            finish(error, lock.withLock { connection })
        }
    }

    /// Reads one CR LF-terminated line, under the reply timeout.
    private func readLine(_ connection: AsyncSocketConnection, tag: LineProtocol.Tag) async throws -> String {
        let line = try await withTimer(configuration.replyTimeout, tag: tag) {
            try await connection.read(through: QueueSocket.crlfData)
        }
        return LineProtocol.text(ofLine: line)
    }

    /// Logs why the connection ended (nothing for `stop()`), then `disconnected`.
    private func finish(_ error: (any Error)?, _ connection: AsyncSocketConnection?, unread: Data = Data()) {
        connection?.close()
        let stopped = lock.withLock { self.stopped }
        if !stopped, let error {
            switch error {
            case let error as QueueSocketError where error.code == .readTimeout:
                log(.closed(.readTimeout, unread: unread))
            case let error as QueueSocketError where error.code == .closed:
                log(.closed(.closedByServer, unread: unread))
            case let error as QueueSocketError:
                log(.closed(.error(domain: QueueSocketError.errorDomain, code: error.errorCode), unread: unread))
            default:
                let error = error as NSError
                log(.closed(.error(domain: error.domain, code: error.code), unread: unread))
            }
        }
        log(.disconnected)
    }

    // MARK: Timeouts

    /// Runs `operation`, cancelling it after `seconds` (or, when `extending` and no read of this
    /// connection was extended yet, after one extension of `timeoutExtension`, logged as the legacy
    /// client logged its delegate's answer) and throwing `timeoutError`. Cancelling closes the connection.
    private func withTimer<T: Sendable>(
        _ seconds: TimeInterval, tag: LineProtocol.Tag = .reply, extending: Bool = true,
        timeoutError: any Error = QueueSocketError(.readTimeout, "Read operation timed out"),
        _ operation: @escaping @Sendable () async throws -> T
    ) async throws -> T {
        let work = Task(executorPreference: executor) { try await operation() }
        let timedOut = TimeoutFlag()
        let timer = Task(executorPreference: executor) { [self, configuration] in
            try await Task.sleep(for: .seconds(seconds))
            if extending, extendOnce(tag: tag, elapsed: seconds) {
                try await Task.sleep(for: .seconds(configuration.timeoutExtension))
            }
            timedOut.set()
            work.cancel()
        }
        defer { timer.cancel() }
        do {
            return try await withTaskCancellationHandler {
                try await work.value
            } onCancel: {
                work.cancel()
            }
        } catch  where timedOut.isSet {
            throw timeoutError
        }
    }

    /// Whether this read gets the connection's one extension (and logs it).
    private func extendOnce(tag: LineProtocol.Tag, elapsed: TimeInterval) -> Bool {
        let first = lock.withLock {
            defer { timeoutExtended = true }
            return !timeoutExtended
        }
        if first {
            log(.extendedRead(tag: tag.rawValue, elapsed: elapsed))
        }
        return first
    }
}

/// Set once by a timer that ran out.
private final class TimeoutFlag: @unchecked Sendable {
    // @unchecked Sendable: `value` is touched only under `lock`.
    private let lock = NSLock()
    private var value = false

    func set() { lock.withLock { value = true } }
    var isSet: Bool { lock.withLock { value } }
}
