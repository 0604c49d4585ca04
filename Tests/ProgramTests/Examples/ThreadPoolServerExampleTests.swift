import Foundation
import SocketTestSupport
import Testing

@Suite("Examples/ThreadPoolServer, run as a program")
struct ThreadPoolServerExampleTests {
    @Test("three connections at once are served by three different workers, round-robin, each echoing")
    func roundRobin() async throws {
        try await onNewThread {
            let server = try ChildProcess(
                built: "ThreadPoolServer", ["--interface", "127.0.0.1", "--port", "0", "--workers", "3"])
            defer { server.stop() }
            let port = try #require(server.port(announcedBy: "with 3 workers started on port"))
            var peers: [RawPeer] = []
            var welcomes: [String] = []
            for _ in 0..<3 {
                let peer = try RawPeer(port: port)
                welcomes.append(peer.receiveLine() ?? "none")
                peers.append(peer)
            }
            #expect(
                welcomes == [
                    "Welcome, worker 1 serves you", "Welcome, worker 2 serves you", "Welcome, worker 3 serves you",
                ])
            for (index, peer) in peers.enumerated() {
                peer.send("line \(index)\r\n")
            }
            for (index, peer) in peers.enumerated() {
                #expect(peer.receiveLine() == "line \(index)")
            }
            let fourth = try RawPeer(port: port)
            #expect(fourth.receiveLine() == "Welcome, worker 1 serves you")
            for worker in 1...3 {
                #expect(server.wait(for: "Worker \(worker) serves client 127.0.0.1:"))
            }
            peers.removeAll()
            #expect(server.wait(for: "Worker 2: client 127.0.0.1:"))
        }
    }
}
