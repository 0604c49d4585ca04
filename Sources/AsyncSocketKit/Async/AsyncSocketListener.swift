import Foundation
import Logging

/// A listening TCP socket for async/await: accepted connections arrive through ``connections``.
///
/// `accept(onInterface:port:)` of ``QueueSocket`` underneath; each accepted socket becomes an
/// ``AsyncSocketConnection``. At most ``pendingLimit`` accepted connections wait for the caller to take
/// them; one accepted beyond that is closed at once (its peer sees the connection closed), so a caller
/// that stops taking them holds no more than that.
public final class AsyncSocketListener: Sendable {
    /// How many accepted connections wait, at most, for the caller to take them.
    public static let pendingLimit = 128

    let socket: AsyncCoreSocket
    private let delegate: AsyncListenerDelegate

    /// The accepted connections, in the order they were accepted. The sequence ends when the
    /// listener is closed, or throws the socket's error when listening fails. Cancelling the task that
    /// waits for the next connection ends the sequence too, and stops listening, as ``close()`` does.
    public let connections: Connections

    /// Listens on `port` (0: one the system chooses, see ``port``) of `host` (an interface name or a
    /// numeric address; `nil`: every address), both IPv4 and IPv6 where the host has them. Throws the
    /// socket's error when it cannot listen (the port taken: the POSIX error). With `reusePort`, the
    /// listeners set `SO_REUSEPORT`: other listeners of the same user that set it too may share the port,
    /// and the kernel spreads the incoming connections over them. `logger` receives the listener's and
    /// its connections' lines; `metrics` counts what they do (``SocketMetrics``; `nil`: nothing).
    public init(
        host: String? = nil, port: UInt16, reusePort: Bool = false, logger: Logger? = nil,
        metrics: SocketMetrics? = nil
    ) throws {
        let (stream, continuation) = AsyncThrowingStream<AsyncSocketConnection, any Error>.makeStream(
            bufferingPolicy: .bufferingOldest(Self.pendingLimit))
        delegate = AsyncListenerDelegate(accepted: continuation)
        socket = AsyncCoreSocket(delegate: delegate, logger: logger, metrics: metrics)
        connections = Connections(stream: stream)
        // A consumer cancelled while it waits ends the sequence: stop listening, as close() does.
        continuation.onTermination = { [socket] termination in
            if case .cancelled = termination {
                socket.disconnect()
            }
        }
        socket.reusesPort = reusePort
        socket.logsAsListener = true
        socket.startObserving()
        try socket.accept(onInterface: host, port: port)
    }

    deinit {
        close()
    }

    /// The port listened on.
    public var port: UInt16 { socket.localPort }

    /// Stops listening: the sequence of ``connections`` ends after the ones already accepted.
    /// Connections already accepted stay open.
    public func close() {
        socket.disconnect()
        delegate.finish()
    }

    /// The accepted connections of an ``AsyncSocketListener``.
    public struct Connections: AsyncSequence, Sendable {
        /// An accepted connection.
        public typealias Element = AsyncSocketConnection

        let stream: AsyncThrowingStream<AsyncSocketConnection, any Error>

        /// An iterator that waits for each accepted connection in turn.
        public func makeAsyncIterator() -> AsyncIterator {
            AsyncIterator(base: stream.makeAsyncIterator())
        }

        /// Waits for the next accepted connection; `nil` once the listener is closed.
        public struct AsyncIterator: AsyncIteratorProtocol {
            var base: AsyncThrowingStream<AsyncSocketConnection, any Error>.AsyncIterator

            public mutating func next() async throws -> AsyncSocketConnection? {
                try await base.next()
            }
        }
    }
}

/// The listening socket's delegate: hands the accepted connections to the sequence.
final class AsyncListenerDelegate: QueueSocketDelegate, Sendable {
    private let accepted: AsyncThrowingStream<AsyncSocketConnection, any Error>.Continuation

    init(accepted: AsyncThrowingStream<AsyncSocketConnection, any Error>.Continuation) {
        self.accepted = accepted
    }

    func finish() {
        accepted.finish()
    }

    /// Queues `connection` for the caller, or closes it when ``AsyncSocketListener/pendingLimit`` wait
    /// already or nobody will take it.
    func hand(_ connection: AsyncSocketConnection) {
        switch accepted.yield(connection) {
        case .enqueued:
            break
        case .dropped(let dropped):
            dropped.close()
        case .terminated:
            connection.close()
        @unknown default:
            connection.close()
        }
    }

    /// The listener's close ends the sequence (with its error, when listening failed).
    func socketDidDisconnect(_ sock: QueueSocket, withError error: (any Error)?) {
        accepted.finish(throwing: error)
    }
}
