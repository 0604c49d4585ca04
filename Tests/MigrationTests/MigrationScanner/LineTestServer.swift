import AsyncSocketKit
import Foundation

/// A scripted LINE server for the worked example's clients, on `QueueSocket` (so it needs no run
/// loop): a greeting, then one reply per command line. "GET motd" answers with a 12-byte payload
/// holding CR LF, "GET empty" with an empty one, "SLOW" with "PART" and no line end, and "QUIT" with
/// "BYE" plus "see you" before the server closes.
final class LineTestServer: QueueSocketDelegate, @unchecked Sendable {
    // @unchecked Sendable: `connections` is touched only on `queue`.
    private let listener = QueueSocket()
    private let queue = DispatchQueue(label: "line-test-server")
    private var connections: [QueueSocket] = []

    /// Listens on 127.0.0.1 at a free port.
    init() throws {
        listener.synchronouslySetDelegate(self, delegateQueue: queue)
        try listener.accept(onInterface: "127.0.0.1", port: 0)
    }

    /// The port it listens on.
    var port: UInt16 { listener.localPort }

    /// Closes the listener and every connection.
    func stop() {
        listener.disconnect()
        for connection in queue.sync(execute: { connections }) {
            connection.disconnect()
        }
    }

    func socket(_ sock: QueueSocket, didAcceptNewSocket newSocket: QueueSocket) {
        connections.append(newSocket)
        newSocket.write(Data("WELCOME line-server\r\n".utf8), withTimeout: -1, tag: 0)
        newSocket.readData(to: QueueSocket.crlfData, withTimeout: -1, tag: 0)
    }

    func socket(_ sock: QueueSocket, didRead data: Data, withTag tag: Int) {
        switch String(decoding: data.dropLast(2), as: UTF8.self) {
        case "PING":
            reply("PONG\r\n", on: sock)
        case "GET motd":
            reply("PAYLOAD 12\r\nhello\r\nworld", on: sock)
        case "GET empty":
            reply("PAYLOAD 0\r\n", on: sock)
        case "SLOW":
            sock.write(Data("PART".utf8), withTimeout: -1, tag: 0)
        case "QUIT":
            sock.write(Data("BYE\r\nsee you".utf8), withTimeout: -1, tag: 0)
            sock.disconnectAfterWriting()
        default:
            reply("ERR\r\n", on: sock)
        }
    }

    func socketDidDisconnect(_ sock: QueueSocket, withError error: (any Error)?) {
        connections.removeAll { $0 === sock }
    }

    private func reply(_ text: String, on sock: QueueSocket) {
        sock.write(Data(text.utf8), withTimeout: -1, tag: 0)
        sock.readData(to: QueueSocket.crlfData, withTimeout: -1, tag: 0)
    }
}
