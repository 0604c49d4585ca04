import AsyncSocketKit
import Foundation

/// A legacy line echo server: every accepted socket echoes each line back.
final class LegacyLineEchoServer: RunLoopSocketDelegate, @unchecked Sendable {
    let socket = RunLoopSocket()
    private var children: [RunLoopSocket] = []

    init() {
        socket.delegate = self
    }

    func onSocket(_ sock: RunLoopSocket, didAcceptNewSocket newSocket: RunLoopSocket) {
        children.append(newSocket)
    }

    func onSocket(_ sock: RunLoopSocket, didConnectToHost host: String, port: UInt16) {
        sock.readData(to: RunLoopSocket.lfData, withTimeout: 10, tag: 1)
    }

    func onSocket(_ sock: RunLoopSocket, didRead data: Data, withTag tag: Int) {
        sock.write(data, withTimeout: 10, tag: 2)
        sock.readData(to: RunLoopSocket.lfData, withTimeout: 10, tag: 1)
    }

    func onSocketDidDisconnect(_ sock: RunLoopSocket) {
        children.removeAll { $0 === sock }
    }
}

/// The same server on QueueSocket.
final class ModernLineEchoServer: QueueSocketDelegate, @unchecked Sendable {
    // @unchecked Sendable: `children` is touched on the delegate queue only.
    let socket = QueueSocket()
    private var children: [QueueSocket] = []

    init() {
        socket.synchronouslySetDelegate(self, delegateQueue: DispatchQueue(label: "ModernLineEchoServer"))
    }

    func socket(_ sock: QueueSocket, didAcceptNewSocket newSocket: QueueSocket) {
        children.append(newSocket)
        newSocket.readData(to: QueueSocket.lfData, withTimeout: 10, tag: 1)
    }

    func socket(_ sock: QueueSocket, didRead data: Data, withTag tag: Int) {
        sock.write(data, withTimeout: 10, tag: 2)
        sock.readData(to: QueueSocket.lfData, withTimeout: 10, tag: 1)
    }

    func socketDidDisconnect(_ sock: QueueSocket, withError error: (any Error)?) {
        children.removeAll { $0 === sock }
    }
}

/// The same server on AsyncSocketConnection: one task takes the accepted connections, one task per
/// connection echoes its lines (each with its "\n", as the others echo what they read) until the
/// peer closes.
enum AsyncLineEchoServer {
    static func serve(_ listener: AsyncSocketListener, on executor: any TaskExecutor) {
        Task(executorPreference: executor) {
            for try await connection in listener.connections {
                Task(executorPreference: executor) {
                    while let line = try? await connection.read(through: QueueSocket.lfData) {
                        try await connection.write(line)
                    }
                }
            }
        }
    }
}
