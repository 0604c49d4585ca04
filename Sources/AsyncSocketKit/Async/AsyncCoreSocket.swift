import Dispatch
import Foundation
import Logging

// The socket under an async connection or listener: a QueueSocket (its sources, connect race, driver and
// GCD rules) whose callbacks are made on the socket queue itself. They only resume continuations, which
// never blocks, or hand an accepted connection to the listener's sequence, so the hop to a delegate
// queue a QueueSocket makes for every callback is left out (ping-pong with 50 connections on one core:
// 0.41× QueueSocket with the hop, 0.57× without; Benchmarks/ASYNC.md). An accepted socket is born with
// its own connection's delegate, so none of its callbacks can reach the listener's.
final class AsyncCoreSocket: QueueSocket, @unchecked Sendable {
    // @unchecked Sendable: as QueueSocket's; this subclass adds no state.

    /// The delegate queue a QueueSocket must have to make callbacks; these sockets never use it.
    static let unusedDelegateQueue = DispatchQueue(label: "AsyncSocketKit.AsyncCoreSocket")

    convenience init(delegate: any QueueSocketDelegate & Sendable, logger: Logger?) {
        self.init(delegate: delegate, delegateQueue: Self.unusedDelegateQueue, logger: logger)
    }

    /// The callback runs here, on the socket queue.
    override func notify(_ body: @escaping @Sendable (any QueueSocketDelegate) -> Void) {
        guard let delegate = storedDelegate else { return }
        body(delegate)
    }

    /// The child becomes a connection with its own delegate, handed to the listener's sequence.
    override func accepted(_ child: Int32, from address: SocketAddress) {
        guard let listener = storedDelegate as? AsyncListenerDelegate else {
            return AcceptWithoutDelegate.reject(
                child, peer: address, warned: &warnedNoDelegate, logger: logger, face: "AsyncSocketListener")
        }
        let delegate = AsyncConnectionDelegate()
        let socket = AsyncCoreSocket(delegate: delegate, logger: logger)
        socket.adoptAccepted(child, unix: unixListenPath != nil, watching: true)
        listener.hand(AsyncSocketConnection(socket: socket, delegate: delegate))
    }
}
