import ArgumentParser
import AsyncSocketKit
import Foundation

/// `asyncsocket demo`: the classic echo server and a scripted client, on one run loop, in a
/// minute's reading; it ends by itself.
struct DemoCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "demo",
        abstract: "Run the classic AsyncSocket echo server and a scripted client on RunLoopSocket."
    )

    @Option(help: "Seconds the server waits for a line before warning (then as long again, halved).")
    var timeout: Double = 1.0

    func run() throws {
        let start = Date()
        let log: @Sendable (String, String) -> Void = { who, text in
            print(String(format: "%7.1f ms  %@  %@", Date().timeIntervalSince(start) * 1000, who, text))
        }
        let server = DemoEchoServer(readTimeout: timeout, log: log)
        try server.listener.acceptOnInterface("localhost", port: 0)
        log("server", "listening on port \(server.listener.localPort) (the EchoServer sample, ported)")
        let client = DemoClient(lines: ["hello", "this is a ported AsyncSocket program", "bye"], log: log)
        try client.socket.connectToHost("localhost", onPort: server.listener.localPort, withTimeout: 5)
        log("client", "connectToHost(\"localhost\") returned; onSocketWillConnect ran inside it")
        let loop = EventRunLoop.current
        while !client.finished {
            loop.run(mode: .default, before: Date(timeIntervalSinceNow: 10))
        }
        server.listener.disconnect()
        log("demo", "done: every callback above came from RunLoopSocket on one EventRunLoop")
    }
}

/// The EchoServer sample: welcome, echo CRLF lines, warn once on silence, then close.
final class DemoEchoServer: RunLoopSocketDelegate {
    let listener = RunLoopSocket()
    let readTimeout: TimeInterval
    let log: (String, String) -> Void
    private var connections: [RunLoopSocket] = []

    init(readTimeout: TimeInterval, log: @escaping (String, String) -> Void) {
        self.readTimeout = readTimeout
        self.log = log
        listener.delegate = self
    }

    func onSocket(_ sock: RunLoopSocket, didAcceptNewSocket newSocket: RunLoopSocket) {
        connections.append(newSocket)
        log("server", "onSocket(_:didAcceptNewSocket:)")
    }

    func onSocket(_ sock: RunLoopSocket, didConnectToHost host: String, port: UInt16) {
        log(
            "server",
            "onSocket(_:didConnectToHost: \(host), port: \(port)) → welcome, read to CRLF (timeout \(readTimeout) s)")
        sock.write(Data("Welcome to the AsyncSocket Echo Server\r\n".utf8), withTimeout: -1, tag: 0)
        sock.readData(to: RunLoopSocket.crlfData, withTimeout: readTimeout, tag: 0)
    }

    func onSocket(_ sock: RunLoopSocket, didRead data: Data, withTag tag: Int) {
        sock.write(data, withTimeout: -1, tag: 1)
    }

    func onSocket(_ sock: RunLoopSocket, didWriteDataWithTag tag: Int) {
        if tag == 1 {
            sock.readData(to: RunLoopSocket.crlfData, withTimeout: readTimeout, tag: 0)
        }
    }

    func onSocket(
        _ sock: RunLoopSocket, shouldTimeoutReadWithTag tag: Int, elapsed: TimeInterval, bytesDone length: Int
    ) -> TimeInterval {
        guard elapsed <= readTimeout else {
            log("server", "shouldTimeoutRead(elapsed: \(elapsed)) → 0: time out")
            return 0
        }
        log("server", "shouldTimeoutRead(elapsed: \(elapsed)) → warn, extend by \(readTimeout / 2) s")
        sock.write(Data("Are you still there?\r\n".utf8), withTimeout: -1, tag: 2)
        return readTimeout / 2
    }

    func onSocket(_ sock: RunLoopSocket, willDisconnectWithError error: (any Error)?) {
        log("server", "onSocket(_:willDisconnectWithError: \(error.map { "\($0)" } ?? "nil"))")
    }

    func onSocketDidDisconnect(_ sock: RunLoopSocket) {
        if sock !== listener {
            log("server", "onSocketDidDisconnect(_:)")
        }
        connections.removeAll { $0 === sock }
    }
}

/// A client that reads the welcome, sends its lines, reads the echoes, then falls silent.
final class DemoClient: RunLoopSocketDelegate {
    let socket = RunLoopSocket()
    let log: (String, String) -> Void
    private var lines: [String]
    private(set) var finished = false

    init(lines: [String], log: @escaping (String, String) -> Void) {
        self.lines = lines
        self.log = log
        socket.delegate = self
    }

    func onSocketWillConnect(_ sock: RunLoopSocket) -> Bool {
        log("client", "onSocketWillConnect(_:) → true")
        return true
    }

    func onSocket(_ sock: RunLoopSocket, didConnectToHost host: String, port: UInt16) {
        log("client", "onSocket(_:didConnectToHost: \(host), port: \(port))")
        sock.readData(to: RunLoopSocket.crlfData, withTimeout: 5, tag: 0)
    }

    func onSocket(_ sock: RunLoopSocket, didRead data: Data, withTag tag: Int) {
        let text = String(decoding: data.dropLast(2), as: UTF8.self)
        log("client", "didRead \(text.debugDescription) (tag \(tag))")
        if !lines.isEmpty {
            let line = lines.removeFirst()
            log("client", "write \(line.debugDescription)")
            sock.write(Data((line + "\r\n").utf8), withTimeout: 5, tag: 1)
        } else {
            log("client", "now silent, waiting for the server…")
        }
        sock.readData(to: RunLoopSocket.crlfData, withTimeout: -1, tag: tag + 1)
    }

    func onSocket(_ sock: RunLoopSocket, willDisconnectWithError error: (any Error)?) {
        let unread = sock.unreadData().map { "\($0.count) unread bytes" } ?? "no unread data"
        log(
            "client",
            "onSocket(_:willDisconnectWithError: \(error.map { "\($0)" } ?? "nil")) — the server closed; \(unread)")
    }

    func onSocketDidDisconnect(_ sock: RunLoopSocket) {
        log("client", "onSocketDidDisconnect(_:)")
        finished = true
    }
}
