import AsyncSocketCore
import Foundation
import Logging
import Synchronization

/// A TCP connection for async/await: the step after ``QueueSocket`` in a migration, over the same
/// socket (GCD semantics, a serial socket queue with dispatch sources underneath).
///
/// Each operation is one of `QueueSocket`'s with the tag and the delegate call replaced by a
/// suspension: ``read(exactly:)`` is `readDataToLength:withTimeout:tag:`, ``read(through:maxLength:)``
/// `readDataToData:withTimeout:maxLength:tag:`, ``read(upTo:)`` `readDataWithTimeout:` with a maximum,
/// ``write(_:)`` `writeData:withTimeout:tag:` until `didWriteDataWithTag`. Operations started from
/// several tasks run one after another in the order they were started, reads among reads and writes
/// among writes, as the tagged calls do. Every operation waits as long as it takes: give a task a
/// deadline, or cancel it, instead of the per-call timeouts of the tagged API.
///
/// ## Closing and cancellation
/// - When the peer closes, or the connection fails, every waiting operation, and every one started
///   after, throws the socket's error (``QueueSocketError`` with ``QueueSocketError/Code/closed`` for the
///   peer's close).
/// - ``close()`` closes at once: waiting operations throw ``AsyncConnectionError/closed``.
/// - Cancelling a task while it waits in an operation closes the connection: that operation throws
///   `CancellationError`, the others ``AsyncConnectionError/closed``. A read or write half done cannot be
///   taken back (bytes read into it, bytes sent from it), so the connection is not left open in a state
///   nobody knows. A task cancelled before it calls an operation gets `CancellationError` the same way.
public final class AsyncSocketConnection: Sendable {
    /// The socket underneath (tests look at its progress).
    package let socket: AsyncCoreSocket
    let delegate: AsyncConnectionDelegate

    private let taskExecutor: SocketQueueExecutor
    /// Write watermarks are set: writes join the queue through ``AsyncCoreSocket/writeWhenWritable(_:tag:)``.
    private let watermarked = Atomic<Bool>(false)

    init(socket: AsyncCoreSocket, delegate: AsyncConnectionDelegate) {
        self.socket = socket
        self.delegate = delegate
        taskExecutor = SocketQueueExecutor(socket: socket)
    }

    deinit {
        socket.disconnect()
    }

    /// Connects to `host` (a name, looked up off the caller's thread, or a numeric address) on `port`,
    /// trying the host's addresses as ``QueueSocket`` does. Throws the socket's error when no address
    /// connects (a refusal is the POSIX error). `logger` receives the socket's lines (lifecycle at
    /// `.debug`, misuse at `.warning`); `metrics` counts what it does (``SocketMetrics``; `nil`: nothing).
    public static func connect(
        toHost host: String, port: UInt16, logger: Logger? = nil, metrics: SocketMetrics? = nil
    ) async throws -> AsyncSocketConnection {
        let delegate = AsyncConnectionDelegate()
        let socket = AsyncCoreSocket(delegate: delegate, logger: logger, metrics: metrics)
        socket.startObserving()
        let connection = AsyncSocketConnection(socket: socket, delegate: delegate)
        try await connection.perform(tag: AsyncOperations.connectTag, AsyncWaiter.done) { _ in
            try socket.connect(toHost: host, onPort: port)
        }
        return connection
    }

    // MARK: Reading

    /// Reads exactly `count` bytes (`readDataToLength:withTimeout:tag:`); 0 returns empty data at once.
    public func read(exactly count: Int) async throws -> Data {
        guard count >= 0 else { throw AsyncConnectionError.invalidArgument("a negative length (\(count))") }
        guard count > 0 else { return Data() }
        return try await perform(tag: delegate.operations.nextTag(), AsyncWaiter.data) { [socket] tag in
            socket.submitRead(ReadRequest(kind: .length(count), timeout: -1, tag: tag))
        }
    }

    /// Reads up to and including `separator` (`readDataToData:withTimeout:maxLength:tag:`). With a
    /// `maxLength` above 0, a connection that sends that many bytes without the separator is closed
    /// with ``QueueSocketError/Code/readMaxedOut``, as `QueueSocket` does.
    public func read(through separator: Data, maxLength: Int = 0) async throws -> Data {
        guard !separator.isEmpty else { throw AsyncConnectionError.invalidArgument("an empty separator") }
        guard maxLength == 0 || maxLength >= separator.count else {
            throw AsyncConnectionError.invalidArgument(
                "a maximum length (\(maxLength)) shorter than the separator (\(separator.count) bytes)")
        }
        return try await perform(tag: delegate.operations.nextTag(), AsyncWaiter.data) { [socket] tag in
            socket.submitRead(
                ReadRequest(kind: .separator(SeparatorBytes.of(separator), maxLength: maxLength), timeout: -1, tag: tag)
            )
        }
    }

    /// Reads what has arrived, at least one byte and at most `maxLength` (0: as much as has arrived,
    /// up to 1 MiB): `readDataWithTimeout:buffer:bufferOffset:maxLength:tag:`.
    public func read(upTo maxLength: Int = 0) async throws -> Data {
        guard maxLength >= 0 else { throw AsyncConnectionError.invalidArgument("a negative length (\(maxLength))") }
        return try await perform(tag: delegate.operations.nextTag(), AsyncWaiter.data) { [socket] tag in
            socket.submitRead(ReadRequest(kind: .available(maxLength: maxLength), timeout: -1, tag: tag))
        }
    }

    /// The lines the peer sends, each without its `separator`, each at most `maxLength` bytes with the
    /// separator (0: no limit; beyond it the connection closes with ``QueueSocketError/Code/readMaxedOut``).
    /// The sequence ends when the peer closes; bytes after its last separator are not a line and are
    /// not returned (the read to the separator fails at the end, as `QueueSocket`'s does). Any other
    /// error ends it by being thrown.
    public func lines(separator: Data = Data("\n".utf8), maxLength: Int = 64 * 1024) -> Lines {
        Lines(connection: self, separator: separator, maxLength: maxLength)
    }

    /// The lines of an ``AsyncSocketConnection``: see ``AsyncSocketConnection/lines(separator:maxLength:)``.
    public struct Lines: AsyncSequence, Sendable {
        /// A line, without its separator.
        public typealias Element = Data

        let connection: AsyncSocketConnection
        let separator: Data
        let maxLength: Int

        /// An iterator that waits for each line in turn.
        public func makeAsyncIterator() -> AsyncIterator {
            AsyncIterator(connection: connection, separator: separator, maxLength: maxLength)
        }

        /// Reads the next line; `nil` once the peer has closed.
        public struct AsyncIterator: AsyncIteratorProtocol {
            let connection: AsyncSocketConnection
            let separator: Data
            let maxLength: Int
            var ended = false

            public mutating func next() async throws -> Data? {
                guard !ended else { return nil }
                do {
                    var line = try await connection.read(through: separator, maxLength: maxLength)
                    line.removeLast(separator.count)
                    return line
                } catch let error as QueueSocketError where error.code == .closed {
                    ended = true
                    return nil
                }
            }
        }
    }

    // MARK: TLS

    /// Starts TLS with `settings` (`startTLS:`) and returns once the handshake is done
    /// (`socketDidSecure`). Reads and writes started meanwhile wait for it, as `QueueSocket`'s do. A
    /// failed handshake closes the connection and throws its ``TLSError``. A connection starts TLS once:
    /// a second call throws ``AsyncConnectionError/invalidArgument(_:)`` and changes nothing.
    public func startTLS(_ settings: TLSSettings) async throws {
        guard delegate.operations.claimTLSStart() else {
            throw AsyncConnectionError.invalidArgument("TLS was started on this connection already")
        }
        try await perform(tag: AsyncOperations.secureTag, AsyncWaiter.done) { [socket] _ in
            socket.startTLS(settings)
        }
    }

    /// Whether TLS is on (the handshake done).
    public var isSecure: Bool { socket.isSecure }

    // MARK: Writing

    /// Writes `data` and returns once the kernel has taken all of it (`didWriteDataWithTag`); empty
    /// data returns at once.
    ///
    /// With ``setWriteWatermarks(_:)``, a write made while the connection's queued bytes are above the high
    /// mark (or while an earlier write waits so) first waits until they drain to the low mark; then its
    /// bytes join the queue. Writers that do not wait for each other so hold about the high mark in
    /// memory, however slowly the peer reads.
    public func write(_ data: Data) async throws {
        guard !data.isEmpty else { return }
        try await perform(tag: delegate.operations.nextTag(), AsyncWaiter.done) { [socket] tag in
            socket.submitWrite(data, tag: tag, watermarked: watermarked.load(ordering: .acquiring))
        }
    }

    // MARK: Queue sizes and watermarks

    /// Bytes of the queued writes not sent yet (writes still waiting for the watermarks not counted).
    public var queuedWriteBytes: Int { socket.queuedWriteBytes }
    /// Writes queued and not done (writes still waiting for the watermarks not counted).
    public var queuedWriteCount: Int { socket.queuedWriteCount }
    /// Reads started and not done.
    public var queuedReadCount: Int { socket.queuedReadCount }
    /// Bytes read ahead from the peer that no read has taken yet.
    public var prebufferedBytes: Int { socket.prebufferedBytes }
    /// Whether a write would join the queue at once (see ``write(_:)``); always `true` without marks.
    public var isWritable: Bool { socket.isWritable }

    /// The write watermarks, if set.
    public var writeWatermarks: WriteWatermarks? { socket.writeWatermarks }

    /// Sets the write watermarks (`nil` removes them): see ``write(_:)`` and ``WriteWatermarks``. Throws
    /// the POSIX error `EINVAL`, changing nothing, unless `0 <= low < high`. Writes waiting for the old
    /// marks go on as soon as the new ones allow.
    public func setWriteWatermarks(_ watermarks: WriteWatermarks?) throws {
        try socket.setWriteWatermarks(watermarks)
        if watermarks != nil {
            watermarked.store(true, ordering: .releasing)
        }
        socket.async { [socket] in socket.writeWaitingWrites() }
    }

    /// The most bytes a read to a separator may hold before its separator comes; 0 for no limit.
    public var maxPrebufferSize: Int { socket.maxPrebufferSize }

    /// Bounds what ``read(through:maxLength:)`` and ``lines(separator:maxLength:)`` may hold (0: no
    /// limit): a read started afterwards without a `maxLength`, or with a larger one, gets `bytes`; past
    /// it the connection closes with ``QueueSocketError/Code/readMaxedOut``. Throws the POSIX error
    /// `EINVAL` for a negative size.
    public func setMaxPrebufferSize(_ bytes: Int) throws {
        try socket.setMaxPrebufferSize(bytes)
    }

    /// Sets TCP options on the connection (``TCPSocketOptions``). Throws ``QueueSocketError`` `badConfig`
    /// once it is closed, the POSIX error for a value refused.
    public func setOptions(_ options: TCPSocketOptions) throws {
        try socket.setOptions(options)
    }

    /// An executor that runs tasks on this connection's socket queue, where its callbacks are made:
    /// `Task(executorPreference: connection.executor) { … }` (or `group.addTask(executorPreference:)`)
    /// for the code that serves the connection saves a thread hop each time an operation completes.
    /// Its jobs run one at a time: the task must not block.
    public var executor: any TaskExecutor { taskExecutor }

    // MARK: Closing and addresses

    /// Closes the connection at once (`disconnect`): bytes not yet sent are dropped, and waiting
    /// operations throw ``AsyncConnectionError/closed``. Closing twice does nothing more.
    public func close() {
        delegate.operations.closeAll(with: AsyncConnectionError.closed)
        socket.disconnect()
    }

    /// The peer's numeric address, `nil` once closed.
    public var remoteHost: String? { socket.connectedHost }
    /// The peer's port, 0 once closed.
    public var remotePort: UInt16 { socket.connectedPort }
    /// The local numeric address, `nil` once closed.
    public var localHost: String? { socket.localHost }
    /// The local port, 0 once closed.
    public var localPort: UInt16 { socket.localPort }

    // MARK: Waiting

    /// Files the continuation of the operation `tag` (made into a waiter by `waiter`), then starts the
    /// operation with `start` unless the connection has closed or the task is cancelled; `start`
    /// throwing fails the operation with its error.
    private func perform<T: Sendable>(
        tag: Int, _ waiter: (CheckedContinuation<T, any Error>) -> AsyncWaiter, _ start: (Int) throws -> Void
    ) async throws -> T {
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                guard delegate.operations.file(waiter(continuation), tag: tag) else { return }
                if Task.isCancelled {
                    return cancel(tag)
                }
                do {
                    try start(tag)
                } catch {
                    delegate.operations.take(tag)?.fail(error)
                }
            }
        } onCancel: {
            cancel(tag)
        }
    }

    /// The task waiting in the operation `tag` was cancelled: it gets `CancellationError`, and the
    /// connection closes (see the type's documentation).
    private func cancel(_ tag: Int) {
        guard let waiter = delegate.operations.take(tag) else { return }
        waiter.fail(CancellationError())
        close()
    }
}
