/// Why an operation of an ``AsyncSocketConnection`` or ``AsyncSocketListener`` failed, where neither
/// `CancellationError` nor the ``QueueSocketError`` of the socket underneath says it.
public struct AsyncConnectionError: Error, Hashable, Sendable, CustomStringConvertible {
    private enum Kind: Hashable, Sendable {
        case closed
        case invalidArgument(String)
    }

    private let kind: Kind

    /// The connection was closed on this side: by ``AsyncSocketConnection/close()``, or because a task
    /// waiting in one of its operations was cancelled.
    public static let closed = AsyncConnectionError(kind: .closed)

    /// An argument no operation can serve (a negative length, an empty separator, a limit shorter
    /// than the separator); nothing was started and the connection is unchanged.
    public static func invalidArgument(_ reason: String) -> AsyncConnectionError {
        AsyncConnectionError(kind: .invalidArgument(reason))
    }

    /// What went wrong, in words.
    public var description: String {
        switch kind {
        case .closed: "The connection was closed"
        case .invalidArgument(let reason): "Invalid argument: \(reason)"
        }
    }
}
