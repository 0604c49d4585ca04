// The QueueSocket echo server's protocol logic, shared by QueueEchoServer and the allocation benchmarks.
import AsyncSocketKit
import Foundation

/// Accepts connections and hands each one to its own connection echo, on its own serial queue (its socket
/// queue, from `newSocketQueueForConnection`, and its delegate queue), as GCD servers are written.
public final class QueueEchoListener: QueueSocketDelegate, @unchecked Sendable {
    let lines: Bool
    /// The listener's delegate queue.
    public let queue = DispatchQueue(label: "echo-listener")
    /// Touched on the listener's delegate queue only.
    private var connections: [ObjectIdentifier: QueueEchoConnection] = [:]
    private var pendingQueue: DispatchQueue?

    /// An echo that reads lines (`true`) or whatever is available.
    public init(lines: Bool) {
        self.lines = lines
    }

    public func newSocketQueueForConnection(fromAddress address: Data, on sock: QueueSocket) -> DispatchQueue? {
        let queue = DispatchQueue(label: "echo-connection")
        pendingQueue = queue
        return queue
    }

    public func socket(_ sock: QueueSocket, didAcceptNewSocket newSocket: QueueSocket) {
        let queue = pendingQueue ?? DispatchQueue(label: "echo-connection")
        let connection = QueueEchoConnection(socket: newSocket, lines: lines, listener: self)
        connections[ObjectIdentifier(newSocket)] = connection
        newSocket.synchronouslySetDelegate(connection, delegateQueue: queue)
        newSocket.perform {
            var one: Int32 = 1
            setsockopt(
                newSocket.socketFD, tcpLevel, tcpNoDelay, &one, socklen_t(MemoryLayout<Int32>.size))
        }
        connection.read()
    }

    func forget(_ sock: QueueSocket) {
        queue.async { self.connections[ObjectIdentifier(sock)] = nil }
    }
}

/// One connection's echo; its state is touched on the connection's queue only. Reading pauses while
/// more than 4 MiB written back are not yet sent, as the peers' output high-water mark pauses them.
final class QueueEchoConnection: QueueSocketDelegate, @unchecked Sendable {
    let socket: QueueSocket
    let lines: Bool
    unowned let listener: QueueEchoListener
    private var bytesInFlight = 0
    private var paused = false
    private let highWater = 4 << 20

    init(socket: QueueSocket, lines: Bool, listener: QueueEchoListener) {
        self.socket = socket
        self.lines = lines
        self.listener = listener
    }

    func read() {
        if lines {
            socket.readData(to: QueueSocket.lfData, withTimeout: -1, tag: 0)
        } else {
            socket.readData(withTimeout: -1, tag: 0)
        }
    }

    func socket(_ sock: QueueSocket, didRead data: Data, withTag tag: Int) {
        sock.write(data, withTimeout: -1, tag: data.count)
        bytesInFlight += data.count
        if bytesInFlight <= highWater {
            read()
        } else {
            paused = true
        }
    }

    func socket(_ sock: QueueSocket, didWriteDataWithTag tag: Int) {
        bytesInFlight -= tag
        if paused && bytesInFlight <= highWater {
            paused = false
            read()
        }
    }

    func socketDidDisconnect(_ sock: QueueSocket, withError error: (any Error)?) {
        listener.forget(sock)
    }
}
