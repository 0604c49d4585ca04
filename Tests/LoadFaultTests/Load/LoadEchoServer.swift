import AsyncSocketKit
import Foundation

/// The server side of the load suites: a RunLoopSocket listener whose children echo every byte
/// they read. It counts connections (and the most held at once), bytes, and error closes, and
/// audits at scale what the recorders audit in the other tests: each child reports exactly one
/// final disconnect and nothing after it. Children are told apart by a serial number in `userData`
/// (object identities are reused once a child is gone); only live children are kept, so memory
/// stays flat over any number of connections.
final class LoadEchoServer: RunLoopSocketDelegate, @unchecked Sendable {
    struct Stats: Sendable {
        var accepted = 0
        var open = 0
        var mostOpen = 0
        var bytesEchoed = 0
        var errorCloses: [String] = []
        var finalDisconnects = 0
        var violations: [String] = []
    }

    private let lock = NSLock()
    private var counters = Stats()
    private var children: [Int: RunLoopSocket] = [:]
    private var echoed: [Int: Int] = [:]
    private var connected: Set<Int> = []
    /// With a value, a child closes (after writing) once it has echoed that many bytes.
    let closesAfter: Int?
    private(set) var listener: RunLoopSocket?

    init(closesAfter: Int? = nil) {
        self.closesAfter = closesAfter
    }

    var stats: Stats { lock.withLock { counters } }

    /// Listens on 127.0.0.1 (call on the loop the server runs on); returns the port.
    func start(engine: RunLoopSocket.Engine = .native) throws -> UInt16 {
        let socket = RunLoopSocket(delegate: self, userData: -1, engine: engine)
        try socket.acceptOnInterface("127.0.0.1", port: 0)
        listener = socket
        return socket.localPort
    }

    /// Closes the listener and every child still open (on the server's loop).
    func stop() {
        let open = lock.withLock { Array(children.values) }
        for child in open {
            child.disconnect()
        }
        listener?.disconnect()
    }

    private func check(_ sock: RunLoopSocket, _ callback: String) {
        guard sock.userData >= 0 else { return }
        lock.withLock {
            if children[sock.userData] == nil {
                counters.violations.append("child \(sock.userData): \(callback) after the final disconnect")
            }
        }
    }

    func onSocket(_ sock: RunLoopSocket, didAcceptNewSocket newSocket: RunLoopSocket) {
        lock.withLock {
            counters.accepted += 1
            newSocket.userData = counters.accepted
            children[newSocket.userData] = newSocket
        }
    }

    func onSocket(_ sock: RunLoopSocket, didConnectToHost host: String, port: UInt16) {
        check(sock, "didConnect")
        lock.withLock {
            connected.insert(sock.userData)
            counters.open += 1
            counters.mostOpen = max(counters.mostOpen, counters.open)
        }
        sock.readData(withTimeout: -1, tag: 0)
    }

    func onSocket(_ sock: RunLoopSocket, didRead data: Data, withTag tag: Int) {
        check(sock, "didRead")
        let total = lock.withLock { () -> Int in
            counters.bytesEchoed += data.count
            echoed[sock.userData, default: 0] += data.count
            return echoed[sock.userData, default: 0]
        }
        sock.write(data, withTimeout: 30, tag: 0)
        if let closesAfter, total >= closesAfter {
            sock.disconnectAfterWriting()
        } else {
            sock.readData(withTimeout: -1, tag: 0)
        }
    }

    func onSocket(_ sock: RunLoopSocket, willDisconnectWithError error: (any Error)?) {
        check(sock, "willDisconnect")
        if let error {
            lock.withLock { counters.errorCloses.append("child \(sock.userData): \(error)") }
        }
    }

    func onSocketDidDisconnect(_ sock: RunLoopSocket) {
        guard sock.userData >= 0 else { return }
        lock.withLock {
            guard children.removeValue(forKey: sock.userData) != nil else {
                counters.violations.append("child \(sock.userData): a second final disconnect")
                return
            }
            if connected.remove(sock.userData) != nil {
                counters.open -= 1
            }
            echoed[sock.userData] = nil
            counters.finalDisconnects += 1
        }
    }
}
