import Foundation

// The QueueSocket delegate of an async connection: each callback resumes the continuation filed
// under its tag (AsyncOperations.swift). It runs on the socket queue (AsyncCoreSocket.swift) and holds
// no state of its own beyond the operations.

/// Resumes an ``AsyncSocketConnection``'s operations from its socket's callbacks.
final class AsyncConnectionDelegate: QueueSocketDelegate, Sendable {
    let operations = AsyncOperations()

    func socket(_ sock: QueueSocket, didConnectToHost host: String, port: UInt16) {
        if case .done(let continuation)? = operations.take(AsyncOperations.connectTag) {
            continuation.resume()
        }
    }

    func socket(_ sock: QueueSocket, didRead data: Data, withTag tag: Int) {
        if case .data(let continuation)? = operations.take(tag) {
            continuation.resume(returning: data)
        }
    }

    func socket(_ sock: QueueSocket, didWriteDataWithTag tag: Int) {
        if case .done(let continuation)? = operations.take(tag) {
            continuation.resume()
        }
    }

    func socketDidBecomeWritable(_ sock: QueueSocket) {
        (sock as? AsyncCoreSocket)?.writeWaitingWrites()
    }

    func socketDidSecure(_ sock: QueueSocket) {
        if case .done(let continuation)? = operations.take(AsyncOperations.secureTag) {
            continuation.resume()
        }
    }

    /// A close on this side reports no error: the operations still waiting fail with
    /// ``AsyncConnectionError/closed``; otherwise with the socket's error.
    func socketDidDisconnect(_ sock: QueueSocket, withError error: (any Error)?) {
        (sock as? AsyncCoreSocket)?.dropWaitingWrites()
        operations.closeAll(with: error ?? AsyncConnectionError.closed)
    }
}
