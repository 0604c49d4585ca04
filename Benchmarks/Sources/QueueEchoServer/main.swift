// An echo server on QueueSocket, for ../shared/bench/run-baselines.sh: raw echo on PORT (read what
// is available, write it back) and line echo on PORT+1 (read to "\n", write the line back). As GCD
// servers are written, each accepted connection gets its own serial queue (its socket queue, from
// newSocketQueueForConnection, and its delegate queue) and its own delegate object, whose state only
// that queue touches.
//
//   QueueEchoServer PORT
import AsyncSocketKit
import Foundation

// IPPROTO_TCP and TCP_NODELAY (their Swift names are ambiguous next to the library's C modules).
let tcpLevel: Int32 = 6
let tcpNoDelay: Int32 = 1

/// Accepts connections and hands each one to its own ``Connection``.
final class Listener: QueueSocketDelegate, @unchecked Sendable {
    let lines: Bool
    let queue = DispatchQueue(label: "echo-listener")
    /// Touched on the listener's delegate queue only.
    private var connections: [ObjectIdentifier: Connection] = [:]
    private var pendingQueue: DispatchQueue?

    init(lines: Bool) {
        self.lines = lines
    }

    func newSocketQueueForConnection(fromAddress address: Data, on sock: QueueSocket) -> DispatchQueue? {
        let queue = DispatchQueue(label: "echo-connection")
        pendingQueue = queue
        return queue
    }

    func socket(_ sock: QueueSocket, didAcceptNewSocket newSocket: QueueSocket) {
        let queue = pendingQueue ?? DispatchQueue(label: "echo-connection")
        let connection = Connection(socket: newSocket, lines: lines, listener: self)
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
final class Connection: QueueSocketDelegate, @unchecked Sendable {
    let socket: QueueSocket
    let lines: Bool
    unowned let listener: Listener
    private var bytesInFlight = 0
    private var paused = false
    private let highWater = 4 << 20

    init(socket: QueueSocket, lines: Bool, listener: Listener) {
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

guard CommandLine.arguments.count >= 2, let port = UInt16(CommandLine.arguments[1]) else {
    print("usage: QueueEchoServer PORT")
    exit(2)
}
signal(SIGPIPE, SIG_IGN)
let raw = Listener(lines: false)
let lines = Listener(lines: true)
let rawListener = QueueSocket(delegate: raw, delegateQueue: raw.queue)
let lineListener = QueueSocket(delegate: lines, delegateQueue: lines.queue)
do {
    try rawListener.accept(onInterface: "127.0.0.1", port: port)
    try lineListener.accept(onInterface: "127.0.0.1", port: port + 1)
} catch {
    print("cannot listen: \(error)")
    exit(1)
}
dispatchMain()
