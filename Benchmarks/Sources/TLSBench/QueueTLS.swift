import AsyncSocketKit
import Foundation

/// Connects, handshakes and disconnects again and again for the benchmark's duration.
final class QueueHandshakes: QueueSocketDelegate, @unchecked Sendable {
    let port: UInt16
    let deadline: Date
    let queue = DispatchQueue(label: "tls-handshakes")
    var count = 0
    let done = DispatchSemaphore(value: 0)
    var socket: QueueSocket?

    init(port: UInt16) {
        self.port = port
        deadline = Date(timeIntervalSinceNow: seconds)
    }

    static func run(port: UInt16) -> Double {
        let delegate = QueueHandshakes(port: port)
        let start = Date()
        delegate.queue.async { delegate.next() }
        delegate.done.wait()
        return Double(delegate.count) / Date().timeIntervalSince(start)
    }

    func next() {
        let socket = QueueSocket(delegate: self, delegateQueue: queue)
        self.socket = socket
        do {
            try socket.connect(toAddress: SocketAddressBytes.loopback(port: port))
            socket.startTLS(clientSettings())
        } catch {
            done.signal()
        }
    }

    func socketDidSecure(_ sock: QueueSocket) {
        count += 1
        sock.disconnect()
    }

    func socketDidDisconnect(_ sock: QueueSocket, withError error: (any Error)?) {
        if Date() < deadline {
            next()
        } else {
            done.signal()
        }
    }
}

/// A TLS server on QueueSocket that keeps each connection until the peer closes.
final class QueueTLSServer: QueueSocketDelegate, @unchecked Sendable {
    let queue = DispatchQueue(label: "tls-server")
    let listener: QueueSocket
    var children: [ObjectIdentifier: QueueSocket] = [:]
    var received = 0
    var onReceived: ((Int) -> Void)?

    init() {
        listener = QueueSocket()
        listener.synchronouslySetDelegate(self, delegateQueue: queue)
        try? listener.accept(onInterface: "127.0.0.1", port: 0)
    }

    var port: UInt16 { listener.localPort }

    func socket(_ sock: QueueSocket, didAcceptNewSocket newSocket: QueueSocket) {
        children[ObjectIdentifier(newSocket)] = newSocket
        newSocket.startTLS(serverSettings())
        newSocket.readData(withTimeout: -1, tag: 0)
    }

    func socket(_ sock: QueueSocket, didRead data: Data, withTag tag: Int) {
        received += data.count
        onReceived?(received)
        sock.readData(withTimeout: -1, tag: 0)
    }

    func socketDidDisconnect(_ sock: QueueSocket, withError error: (any Error)?) {
        children[ObjectIdentifier(sock)] = nil
    }
}

/// 256 MiB from a QueueSocket client to a QueueSocket server over TLS.
final class QueueBulk: QueueSocketDelegate, @unchecked Sendable {
    let total: Int
    let chunk = Data(count: 1 << 20)
    let queue = DispatchQueue(label: "tls-bulk-client")
    var queued = 0
    var inFlight = 0

    init(total: Int) {
        self.total = total
    }

    static func run(megabytes: Int) -> Double {
        let total = megabytes << 20
        let server = QueueTLSServer()
        let done = DispatchSemaphore(value: 0)
        server.queue.sync { server.onReceived = { if $0 >= total { done.signal() } } }
        let sender = QueueBulk(total: total)
        let socket = QueueSocket(delegate: sender, delegateQueue: sender.queue)
        let start = Date()
        try? socket.connect(toHost: "localhost", onPort: server.port)
        socket.startTLS(clientSettings())
        done.wait()
        let elapsed = Date().timeIntervalSince(start)
        socket.disconnect()
        withExtendedLifetime(server) {}
        return Double(megabytes) / elapsed
    }

    func socketDidSecure(_ sock: QueueSocket) {
        fill(sock)
    }

    func socket(_ sock: QueueSocket, didWriteDataWithTag tag: Int) {
        inFlight -= 1
        fill(sock)
    }

    private func fill(_ sock: QueueSocket) {
        while inFlight < 4 && queued < total {
            sock.write(chunk, withTimeout: -1, tag: 0)
            queued += chunk.count
            inFlight += 1
        }
    }
}
