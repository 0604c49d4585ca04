// An echo server on QueueSocket, for ../shared/bench/run-baselines.sh: raw echo on PORT (read what
// is available, write it back) and line echo on PORT+1 (read to "\n", write the line back). Each
// connection gets its own serial queue, used as both its socket queue and its delegate queue.
//
//   QueueEchoServer PORT
import AsyncSocketKit
import Foundation

// IPPROTO_TCP and TCP_NODELAY (their Swift names are ambiguous next to the library's C modules).
let tcpLevel: Int32 = 6
let tcpNoDelay: Int32 = 1

final class EchoDelegate: QueueSocketDelegate, @unchecked Sendable {
    let lines: Bool
    let queue = DispatchQueue(label: "echo-listener")
    private let lock = NSLock()
    private var connections: [ObjectIdentifier: QueueSocket] = [:]
    /// Per connection, touched on that connection's queue only.
    private var inFlight: [ObjectIdentifier: Int] = [:]
    private let maxInFlight = 4
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
        lock.withLock { connections[ObjectIdentifier(newSocket)] = newSocket }
        if let queue = pendingQueue {
            newSocket.synchronouslySetDelegateQueue(queue)
        }
        newSocket.perform {
            var one: Int32 = 1
            setsockopt(
                newSocket.socketFD, tcpLevel, tcpNoDelay, &one, socklen_t(MemoryLayout<Int32>.size))
        }
        read(newSocket)
    }

    private func read(_ sock: QueueSocket) {
        if lines {
            sock.readData(to: QueueSocket.lfData, withTimeout: -1, tag: 0)
        } else {
            sock.readData(withTimeout: -1, tag: 0)
        }
    }

    func socket(_ sock: QueueSocket, didRead data: Data, withTag tag: Int) {
        let id = ObjectIdentifier(sock)
        sock.write(data, withTimeout: -1, tag: 0)
        let count = lock.withLock { () -> Int in
            inFlight[id, default: 0] += 1
            return inFlight[id]!
        }
        if count <= maxInFlight {
            read(sock)
        }
    }

    func socket(_ sock: QueueSocket, didWriteDataWithTag tag: Int) {
        let id = ObjectIdentifier(sock)
        let count = lock.withLock { () -> Int in
            inFlight[id, default: 1] -= 1
            return inFlight[id]!
        }
        if count == maxInFlight {
            read(sock)
        }
    }

    func socketDidDisconnect(_ sock: QueueSocket, withError error: (any Error)?) {
        lock.withLock {
            connections[ObjectIdentifier(sock)] = nil
            inFlight[ObjectIdentifier(sock)] = nil
        }
    }
}

guard CommandLine.arguments.count >= 2, let port = UInt16(CommandLine.arguments[1]) else {
    print("usage: QueueEchoServer PORT")
    exit(2)
}
signal(SIGPIPE, SIG_IGN)
let raw = EchoDelegate(lines: false)
let lines = EchoDelegate(lines: true)
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
