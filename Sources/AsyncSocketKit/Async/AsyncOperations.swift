import AsyncSocketCore
import Foundation

// What an async connection waits for. Each read, write and the connect is a continuation filed under
// the tag its QueueSocket operation carries; the socket's callbacks take it out and resume it, and
// so does the cancellation of the task that waits. Whoever takes a continuation out resumes it,
// outside the lock, so each is resumed exactly once. Once the connection has closed, nothing more is
// filed: a new operation fails at once with the error it closed with.

/// A continuation waiting for a connection's operation.
enum AsyncWaiter: Sendable {
    case data(CheckedContinuation<Data, any Error>)
    case done(CheckedContinuation<Void, any Error>)

    func fail(_ error: any Error) {
        switch self {
        case .data(let continuation): continuation.resume(throwing: error)
        case .done(let continuation): continuation.resume(throwing: error)
        }
    }
}

/// The operations of one connection waiting for their callbacks.
final class AsyncOperations: Sendable {
    private struct State {
        var nextTag = 1
        var waiting: [Int: AsyncWaiter] = [:]
        var closedWith: (any Error)?
        var tlsStarted = false
    }

    /// The tag of the connect (operations are numbered from 1).
    static let connectTag = 0
    /// The tag of the TLS handshake (one per connection, see ``claimTLSStart()``).
    static let secureTag = -1

    private let state = Lock(State())

    /// A tag no other operation of this connection has.
    func nextTag() -> Int {
        state.withLock { state in
            defer { state.nextTag &+= 1 }
            return state.nextTag
        }
    }

    /// Files `waiter` under `tag`; when the connection has closed already, fails it at once with the
    /// error it closed with and returns `false` (the operation must not be started).
    func file(_ waiter: AsyncWaiter, tag: Int) -> Bool {
        let closed = state.withLock { state -> (any Error)? in
            if let error = state.closedWith { return error }
            state.waiting[tag] = waiter
            return nil
        }
        guard let closed else { return true }
        waiter.fail(closed)
        return false
    }

    /// Whether this is the connection's first TLS start (the socket ignores any later one, so a later
    /// one must not wait for it).
    func claimTLSStart() -> Bool {
        state.withLock { state in
            defer { state.tlsStarted = true }
            return !state.tlsStarted
        }
    }

    /// Takes the waiter filed under `tag` out, if it is still there.
    func take(_ tag: Int) -> AsyncWaiter? {
        state.withLock { $0.waiting.removeValue(forKey: tag) }
    }

    /// The connection closed with `error`: every waiter fails with it, and so does every operation
    /// started later. The first close's error stays.
    func closeAll(with error: any Error) {
        let waiters = state.withLock { state -> [AsyncWaiter] in
            if state.closedWith == nil {
                state.closedWith = error
            }
            defer { state.waiting.removeAll() }
            return state.waiting.sorted { $0.key < $1.key }.map(\.value)
        }
        for waiter in waiters {
            waiter.fail(error)
        }
    }
}
