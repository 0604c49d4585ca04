// An echo server on RunLoopSocket's native engine, for ../shared/bench/run-baselines.sh:
// raw echo on PORT (read what is available, write it back) and line echo on PORT+1 (read to "\n",
// write the line back). One EventRunLoop thread, TCP_NODELAY like the peers.
//
//   RunLoopEchoServer PORT [--engine native|queue-core]
import AsyncSocketKit
import Foundation

// IPPROTO_TCP and TCP_NODELAY (their Swift names are ambiguous next to the library's C modules).
let tcpLevel: Int32 = 6
let tcpNoDelay: Int32 = 1

final class EchoDelegate: RunLoopSocketDelegate {
    let lines: Bool
    private var connections: [ObjectIdentifier: Connection] = [:]
    /// Reading pauses while more than this many bytes written back are not yet sent, as the peers'
    /// output high-water mark (4 MiB) pauses them.
    private let highWater = 4 << 20

    /// Per connection: bytes written and not yet reported sent, and whether reading is paused.
    private final class Connection {
        let socket: RunLoopSocket
        var bytesInFlight = 0
        var paused = false

        init(socket: RunLoopSocket) {
            self.socket = socket
        }
    }

    init(lines: Bool) {
        self.lines = lines
    }

    func onSocket(_ sock: RunLoopSocket, didAcceptNewSocket newSocket: RunLoopSocket) {
        connections[ObjectIdentifier(newSocket)] = Connection(socket: newSocket)
    }

    func onSocketWillConnect(_ sock: RunLoopSocket) -> Bool {
        var one: Int32 = 1
        setsockopt(sock.socketFD, tcpLevel, tcpNoDelay, &one, socklen_t(MemoryLayout<Int32>.size))
        return true
    }

    func onSocket(_ sock: RunLoopSocket, didConnectToHost host: String, port: UInt16) {
        read(sock)
    }

    private func read(_ sock: RunLoopSocket) {
        if lines {
            sock.readData(to: RunLoopSocket.lfData, withTimeout: -1, tag: 0)
        } else {
            sock.readData(withTimeout: -1, tag: 0)
        }
    }

    func onSocket(_ sock: RunLoopSocket, didRead data: Data, withTag tag: Int) {
        guard let connection = connections[ObjectIdentifier(sock)] else { return }
        sock.write(data, withTimeout: -1, tag: data.count)
        connection.bytesInFlight += data.count
        if connection.bytesInFlight <= highWater {
            read(sock)
        } else {
            connection.paused = true
        }
    }

    func onSocket(_ sock: RunLoopSocket, didWriteDataWithTag tag: Int) {
        guard let connection = connections[ObjectIdentifier(sock)] else { return }
        connection.bytesInFlight -= tag
        if connection.paused && connection.bytesInFlight <= highWater {
            connection.paused = false
            read(sock)
        }
    }

    func onSocketDidDisconnect(_ sock: RunLoopSocket) {
        connections[ObjectIdentifier(sock)] = nil
    }
}

let arguments = Array(CommandLine.arguments.dropFirst())
let engineName = arguments.firstIndex(of: "--engine").flatMap {
    arguments.indices.contains($0 + 1) ? arguments[$0 + 1] : nil
}
guard let portArgument = arguments.first, let port = UInt16(portArgument),
    let engine = RunLoopSocket.Engine(rawValue: engineName ?? "native")
else {
    print("usage: RunLoopEchoServer PORT [--engine native|queue-core]")
    exit(2)
}
signal(SIGPIPE, SIG_IGN)
let raw = EchoDelegate(lines: false)
let lines = EchoDelegate(lines: true)
let rawListener = RunLoopSocket(delegate: raw, engine: engine)
let lineListener = RunLoopSocket(delegate: lines, engine: engine)
do {
    try rawListener.acceptOnInterface("127.0.0.1", port: port)
    try lineListener.acceptOnInterface("127.0.0.1", port: port + 1)
} catch {
    print("cannot listen: \(error)")
    exit(1)
}
EventRunLoop.current.run()
