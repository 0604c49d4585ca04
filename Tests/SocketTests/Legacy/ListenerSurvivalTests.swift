import AsyncSocketKit
import Foundation
import SocketTestSupport
import Testing

@Suite("RunLoopSocket: a listener outlives its children")
struct ListenerSurvivalTests {
    @Test(
        "a peer that connects and closes at once is reported on its child; the listener keeps accepting",
        arguments: RunLoopSocket.Engine.allCases)
    func peerClosingRightAway(engine: RunLoopSocket.Engine) async throws {
        try await onNewThread {
            let recorder = Recorder()
            let server = RunLoopSocket(delegate: recorder, engine: engine)
            recorder.name(server, "server")
            try server.acceptOnInterface("127.0.0.1", port: 0)
            let port = server.localPort
            do {
                _ = try RawPeer(port: port)
            }
            #expect(runUntil { recorder.contains("child1", .didDisconnect) })
            #expect(recorder.events("child1").first == .willConnect)
            #expect(!recorder.events("server").contains(.didDisconnect))
            let peer = try RawPeer(port: port)
            recorder.onConnect = { sock in sock.readData(to: RunLoopSocket.lfData, withTimeout: 10, tag: 1) }
            recorder.onRead = { sock, data, _ in sock.write(data, withTimeout: 10, tag: 2) }
            #expect(runUntil { recorder.events("child2").count == 2 })
            peer.send("ping\n")
            var echoed: [UInt8] = []
            #expect(
                runUntil {
                    echoed += peer.receive(count: 5 - echoed.count, timeout: 0.01)
                    return echoed.count == 5
                })
            #expect(echoed == Array("ping\n".utf8))
            server.disconnect()
        }
    }

    // A queue-core child's socket reports through the child from the moment it is adopted, but its
    // callbacks were only carried once the child had its loop, at the end of the accept sequence:
    // an end-of-stream probe sent in between was dropped, and the child never reported the close.
    @Test(
        "a peer's close during the accept sequence is reported on the child, every time",
        arguments: RunLoopSocket.Engine.allCases)
    func closeDuringAccept(engine: RunLoopSocket.Engine) async throws {
        try await onNewThread {
            let delegate = EarlyCloseDelegate()
            let server = RunLoopSocket(delegate: delegate, engine: engine)
            try server.acceptOnInterface("127.0.0.1", port: 0)
            let port = server.localPort
            let deadline = Date(timeIntervalSinceNow: 20)
            var rounds = 0
            while rounds < 100 && Date() < deadline {
                delegate.peer = try RawPeer(port: port)
                rounds += 1
                guard runUntil(timeout: 5, { delegate.disconnects == rounds }) else { break }
            }
            #expect(delegate.disconnects == rounds, "\(rounds - delegate.disconnects) of \(rounds) closes unreported")
            server.disconnect()
        }
    }
}

/// Closes the peer of each accepted child while the listener's accept sequence is still running,
/// and counts the children's disconnects.
private final class EarlyCloseDelegate: RunLoopSocketDelegate, @unchecked Sendable {
    /// Touched on the loop thread only.
    var peer: RawPeer?
    var children: [RunLoopSocket] = []
    var disconnects = 0

    func onSocket(_ sock: RunLoopSocket, didAcceptNewSocket newSocket: RunLoopSocket) {
        children.append(newSocket)
        peer = nil
    }

    func onSocketWillConnect(_ sock: RunLoopSocket) -> Bool {
        guard children.contains(where: { $0 === sock }) else { return true }
        // Before this callback returns, let the child's transport meet the end: once the kernel
        // shows it, a few round trips through the socket's queue give its read event time to run.
        var pfd = pollfd(fd: sock.socketFD, events: Int16(POLLIN), revents: 0)
        _ = poll(&pfd, 1, 5000)
        for _ in 0..<3 {
            _ = sock.canSafelySetDelegate
        }
        return true
    }

    func onSocketDidDisconnect(_ sock: RunLoopSocket) {
        disconnects += 1
    }
}
