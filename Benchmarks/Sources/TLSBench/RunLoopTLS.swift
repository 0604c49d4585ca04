import AsyncSocketKit
import Foundation

/// Connects, handshakes and disconnects again and again for the benchmark's duration.
final class RunLoopHandshakes: RunLoopSocketDelegate {
    let port: UInt16
    let deadline: Date
    var count = 0
    var finished = false
    var socket: RunLoopSocket?

    init(port: UInt16) {
        self.port = port
        deadline = Date(timeIntervalSinceNow: seconds)
    }

    static func run(port: UInt16) -> Double {
        let delegate = RunLoopHandshakes(port: port)
        let start = Date()
        delegate.next()
        while !delegate.finished {
            EventRunLoop.current.run(mode: .default, timeout: 1)
        }
        return Double(delegate.count) / Date().timeIntervalSince(start)
    }

    func next() {
        let socket = RunLoopSocket(delegate: self)
        self.socket = socket
        do {
            try socket.connectToAddress(SocketAddressBytes.loopback(port: port))
        } catch {
            finished = true
        }
    }

    func onSocket(_ sock: RunLoopSocket, didConnectToHost host: String, port: UInt16) {
        sock.startTLS(clientSettings())
    }

    func onSocketDidSecure(_ sock: RunLoopSocket) {
        count += 1
        sock.disconnect()
    }

    func onSocketDidDisconnect(_ sock: RunLoopSocket) {
        guard Date() < deadline else {
            finished = true
            return
        }
        EventRunLoop.current.enqueue(inModes: [.default]) { [self] in next() }
    }
}

/// A TLS server on RunLoopSocket that keeps each connection until the peer closes.
final class RunLoopTLSServer: RunLoopSocketDelegate, @unchecked Sendable {
    let listener = RunLoopSocket()
    var children: [ObjectIdentifier: RunLoopSocket] = [:]
    var received = 0
    var onReceived: ((Int) -> Void)?

    /// Servers stay alive for the whole run (a socket holds its delegate weakly).
    static let alive = Lock<[RunLoopTLSServer]>([])

    static func start(on loop: EventRunLoop) -> UInt16 {
        let ready = DispatchSemaphore(value: 0)
        let port = Lock<UInt16>(0)
        loop.perform {
            let server = RunLoopTLSServer()
            alive.set(alive.get() + [server])
            server.listener.delegate = server
            try? server.listener.acceptOnInterface("127.0.0.1", port: 0)
            port.set(server.listener.localPort)
            ready.signal()
        }
        ready.wait()
        return port.get()
    }

    func onSocket(_ sock: RunLoopSocket, didAcceptNewSocket newSocket: RunLoopSocket) {
        children[ObjectIdentifier(newSocket)] = newSocket
    }

    func onSocket(_ sock: RunLoopSocket, didConnectToHost host: String, port: UInt16) {
        sock.startTLS(serverSettings())
        sock.readData(withTimeout: -1, tag: 0)
    }

    func onSocket(_ sock: RunLoopSocket, didRead data: Data, withTag tag: Int) {
        received += data.count
        onReceived?(received)
        sock.readData(withTimeout: -1, tag: 0)
    }

    func onSocketDidDisconnect(_ sock: RunLoopSocket) {
        children[ObjectIdentifier(sock)] = nil
    }
}

/// 256 MiB from a RunLoopSocket client to a RunLoopSocket server over TLS, on two loop threads.
enum RunLoopBulk {
    static func run(megabytes: Int) -> Double {
        let total = megabytes << 20
        let worker = EventRunLoopThread(name: "tls-bulk-server")
        defer { worker.terminate() }
        let done = DispatchSemaphore(value: 0)
        let ready = DispatchSemaphore(value: 0)
        let port = Lock<UInt16>(0)
        worker.loop.perform {
            let server = RunLoopTLSServer()
            RunLoopTLSServer.alive.set(RunLoopTLSServer.alive.get() + [server])
            server.listener.delegate = server
            try? server.listener.acceptOnInterface("127.0.0.1", port: 0)
            server.onReceived = { if $0 >= total { done.signal() } }
            port.set(server.listener.localPort)
            ready.signal()
        }
        ready.wait()
        let sender = BulkSender(total: total)
        let socket = RunLoopSocket(delegate: sender)
        defer { withExtendedLifetime(sender) {} }
        try? socket.connectToHost("localhost", onPort: port.get())
        let start = Date()
        while done.wait(timeout: .now()) != .success {
            EventRunLoop.current.run(mode: .default, timeout: 0.01)
        }
        let elapsed = Date().timeIntervalSince(start)
        socket.disconnect()
        return Double(megabytes) / elapsed
    }
}

/// Writes `total` bytes in 1 MiB pieces, at most four in flight, once TLS is up.
final class BulkSender: RunLoopSocketDelegate {
    let total: Int
    let chunk = Data(count: 1 << 20)
    var queued = 0
    var inFlight = 0

    init(total: Int) {
        self.total = total
    }

    func onSocket(_ sock: RunLoopSocket, didConnectToHost host: String, port: UInt16) {
        sock.startTLS(clientSettings())
    }

    func onSocketDidSecure(_ sock: RunLoopSocket) {
        fill(sock)
    }

    func onSocket(_ sock: RunLoopSocket, didWriteDataWithTag tag: Int) {
        inFlight -= 1
        fill(sock)
    }

    private func fill(_ sock: RunLoopSocket) {
        while inFlight < 4 && queued < total {
            sock.write(chunk, withTimeout: -1, tag: 0)
            queued += chunk.count
            inFlight += 1
        }
    }
}

/// A tiny lock around a value.
final class Lock<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value
    init(_ value: Value) { self.value = value }
    func get() -> Value { lock.withLock { value } }
    func set(_ newValue: Value) { lock.withLock { value = newValue } }
}

/// `sockaddr_in` bytes for 127.0.0.1.
enum SocketAddressBytes {
    static func loopback(port: UInt16) -> Data {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
        return withUnsafeBytes(of: &address) { Data($0) }
    }
}
