// The echo servers' protocol logic, shared by the echo server executables and the allocation
// benchmarks (which run it in-process, where the malloc counter can see it).
import AsyncSocketKit
import Foundation

/// The echo of one RunLoopSocket listener and its children: raw (read what is available) or lines (read to
/// `"\n"`); each read is written back. Reading pauses while more than 4 MiB written back are not yet
/// reported sent (the peers' output high-water mark).
public final class RunLoopEchoDelegate: RunLoopSocketDelegate {
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

    /// An echo that reads lines (`true`) or whatever is available.
    public init(lines: Bool) {
        self.lines = lines
    }

    public func onSocket(_ sock: RunLoopSocket, didAcceptNewSocket newSocket: RunLoopSocket) {
        connections[ObjectIdentifier(newSocket)] = Connection(socket: newSocket)
    }

    public func onSocketWillConnect(_ sock: RunLoopSocket) -> Bool {
        var one: Int32 = 1
        setsockopt(sock.socketFD, tcpLevel, tcpNoDelay, &one, socklen_t(MemoryLayout<Int32>.size))
        return true
    }

    public func onSocket(_ sock: RunLoopSocket, didConnectToHost host: String, port: UInt16) {
        read(sock)
    }

    private func read(_ sock: RunLoopSocket) {
        if lines {
            sock.readData(to: RunLoopSocket.lfData, withTimeout: -1, tag: 0)
        } else {
            sock.readData(withTimeout: -1, tag: 0)
        }
    }

    public func onSocket(_ sock: RunLoopSocket, didRead data: Data, withTag tag: Int) {
        guard let connection = connections[ObjectIdentifier(sock)] else { return }
        sock.write(data, withTimeout: -1, tag: data.count)
        connection.bytesInFlight += data.count
        if connection.bytesInFlight <= highWater {
            read(sock)
        } else {
            connection.paused = true
        }
    }

    public func onSocket(_ sock: RunLoopSocket, didWriteDataWithTag tag: Int) {
        guard let connection = connections[ObjectIdentifier(sock)] else { return }
        connection.bytesInFlight -= tag
        if connection.paused && connection.bytesInFlight <= highWater {
            connection.paused = false
            read(sock)
        }
    }

    public func onSocketDidDisconnect(_ sock: RunLoopSocket) {
        connections[ObjectIdentifier(sock)] = nil
    }
}
