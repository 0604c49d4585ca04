import AsyncSocketCore
import AsyncSocketKit
import Foundation
import SocketTestSupport
import Testing

/// A face of the package, for tests that run one scenario on each.
enum Face: String, CaseIterable, CustomStringConvertible, Sendable {
    case native, queueCore, queueSocket
    var description: String { rawValue }
    var engine: RunLoopSocket.Engine? {
        switch self {
        case .native: .native
        case .queueCore: .queueCore
        case .queueSocket: nil
        }
    }
}

/// A QueueSocket delegate that counts accepted sockets and keeps them.
private final class CountingQueueDelegate: QueueSocketDelegate, Sendable {
    let accepted = Lock<[QueueSocket]>([])
    func socket(_ sock: QueueSocket, didAcceptNewSocket newSocket: QueueSocket) {
        accepted.withLock { $0.append(newSocket) }
    }
}

@Suite("A listener whose delegate is gone: closes what it accepts, warns once, keeps listening")
struct DelegateGoneTests {
    @Test("three connections while the delegate is gone, then a new delegate gets the fourth", arguments: Face.allCases)
    func listenerWithoutDelegate(face: Face) async throws {
        let capture = LogCapture()
        if let engine = face.engine {
            try await onNewThread {
                var gone: Recorder? = Recorder()
                let server = RunLoopSocket(delegate: gone, engine: engine, logger: capture.logger)
                try server.acceptOnInterface("127.0.0.1", port: 0)
                gone = nil
                let port = server.localPort
                for _ in 0..<3 {
                    let peer = try RawPeer(port: port)
                    #expect(runUntil { peer.sawClose(timeout: 0.01) }, "the accepted connection was not closed")
                }
                let recorder = Recorder()
                server.delegate = recorder
                recorder.name(server, "server")
                let peer = try RawPeer(port: port)
                #expect(runUntil { recorder.accepted.first?.isConnected == true })
                peer.send("x")
                server.disconnect()
                recorder.accepted.first?.disconnect()
            }
        } else {
            var gone: CountingQueueDelegate? = CountingQueueDelegate()
            let server = QueueSocket(
                delegate: gone, delegateQueue: DispatchQueue(label: "delegate"), logger: capture.logger)
            try server.accept(onInterface: "127.0.0.1", port: 0)
            gone = nil
            let port = server.localPort
            for _ in 0..<3 {
                let peer = try RawPeer(port: port)
                #expect(peer.sawClose(timeout: 10), "the accepted connection was not closed")
            }
            let delegate = CountingQueueDelegate()
            server.synchronouslySetDelegate(delegate)
            let peer = try RawPeer(port: port)
            let deadline = Date(timeIntervalSinceNow: 10)
            while delegate.accepted.withLock({ $0.isEmpty }) && Date() < deadline {
                _ = peer.receive(count: 1, timeout: 0.01)
            }
            #expect(delegate.accepted.withLock { $0.count } == 1)
            server.disconnect()
            for socket in delegate.accepted.withLock({ $0 }) { socket.disconnect() }
        }
        let warnings = capture.messages(at: .warning)
        #expect(warnings.count == 1, "\(capture.lines)")
        #expect(warnings.first?.contains("no delegate") == true)
    }
}
