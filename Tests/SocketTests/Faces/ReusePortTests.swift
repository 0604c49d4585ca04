import AsyncSocketKit
import Foundation
import SocketTestSupport
import Testing

// SO_REUSEPORT for listeners on every face: two listeners that both ask for it share a port, a third
// that does not is refused (EADDRINUSE), and every connection made to the port is accepted by one of
// the two.

private let clients = 16

/// Connects `clients` plain sockets to `port` on 127.0.0.1 and keeps them until the test ends.
private func connectClients(to port: UInt16) throws -> [RawPeer] {
    try (0..<clients).map { _ in try RawPeer(port: port) }
}

/// The option as the kernel reports it on `fd`.
private func reusePortSet(_ fd: Int32) -> Bool {
    var value: Int32 = 0
    var length = socklen_t(MemoryLayout<Int32>.size)
    return getsockopt(fd, SOL_SOCKET, SO_REUSEPORT, &value, &length) == 0 && value == 1
}

@Suite("SO_REUSEPORT for listeners: two listeners share a port, on every face")
struct ReusePortTests {
    @Test(
        "RunLoopSocket: two listeners with reusesPort share the port; one without is refused; every connection accepted",
        arguments: RunLoopSocket.Engine.allCases)
    func runLoopSocket(engine: RunLoopSocket.Engine) async throws {
        try await onNewThread {
            let recorder = Recorder()
            let first = RunLoopSocket(delegate: recorder, engine: engine)
            let second = RunLoopSocket(delegate: recorder, engine: engine)
            #expect(!first.reusesPort)
            first.reusesPort = true
            second.reusesPort = true
            try first.acceptOnInterface("127.0.0.1", port: 0)
            try second.acceptOnInterface("127.0.0.1", port: first.localPort)
            #expect(reusePortSet(first.socket4FD) && reusePortSet(second.socket4FD))
            let third = RunLoopSocket(delegate: recorder, engine: engine)
            let error = #expect(throws: AsyncSocketError.self) {
                try third.acceptOnInterface("127.0.0.1", port: first.localPort)
            }
            #expect(error?.underlying?.code == Int(EADDRINUSE))
            let peers = try connectClients(to: first.localPort)
            #expect(runUntil { recorder.accepted.count == clients })
            withExtendedLifetime(peers) {}
            for socket in recorder.accepted { socket.disconnect() }
            first.disconnect()
            second.disconnect()
        }
    }

    @Test(
        "QueueSocket: two listeners with reusesPort share the port; one without is refused; every connection accepted")
    func queueSocket() throws {
        let recorder = QueueRecorder()
        let first = QueueSocket(delegate: recorder, delegateQueue: recorder.queue)
        let second = QueueSocket(delegate: recorder, delegateQueue: recorder.queue)
        defer {
            first.disconnect()
            second.disconnect()
        }
        first.reusesPort = true
        second.reusesPort = true
        #expect(second.reusesPort)
        try first.accept(onInterface: "127.0.0.1", port: 0)
        try second.accept(onInterface: "127.0.0.1", port: first.localPort)
        let third = QueueSocket(delegate: recorder, delegateQueue: recorder.queue)
        let error = #expect(throws: NSError.self) { try third.accept(onInterface: "127.0.0.1", port: first.localPort) }
        #expect(error?.code == Int(EADDRINUSE))
        let peers = try connectClients(to: first.localPort)
        #expect(recorder.wait { recorder.accepted.count == clients })
        withExtendedLifetime(peers) {}
        for socket in recorder.accepted { socket.disconnect() }
    }

    @Test("AsyncSocketListener: two listeners with reusePort share the port; one without is refused")
    func asyncListener() async throws {
        try await onNewThread {
            let first = try AsyncSocketListener(host: "127.0.0.1", port: 0, reusePort: true)
            let second = try AsyncSocketListener(host: "127.0.0.1", port: first.port, reusePort: true)
            #expect(second.port == first.port)
            let error = #expect(throws: NSError.self) { try AsyncSocketListener(host: "127.0.0.1", port: first.port) }
            #expect(error?.code == Int(EADDRINUSE))
            first.close()
            second.close()
        }
    }
}
