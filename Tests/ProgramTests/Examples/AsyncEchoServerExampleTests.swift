import Foundation
import SocketTestSupport
import Testing

@Suite("Examples/AsyncEchoServer, run as a program")
struct AsyncEchoServerExampleTests {
    @Test("welcome and echo; the client's close ends its task; after --count clients the server exits 0")
    func echo() async throws {
        try await onNewThread {
            let server = try ChildProcess(
                built: "AsyncEchoServer",
                ["--interface", "127.0.0.1", "--port", "0", "--timeout", "10", "--count", "1"])
            defer { server.stop() }
            let port = try #require(server.port(announcedBy: "Echo server started on port"))
            do {
                let peer = try RawPeer(port: port)
                #expect(peer.receiveLine() == "Welcome to the AsyncSocket Echo Server")
                peer.send("hello\r\nworld\r\n")
                #expect(peer.receiveLine() == "hello")
                #expect(peer.receiveLine() == "world")
            }
            #expect(server.waitForExit() == 0)
            #expect(server.output.contains("Accepted client 127.0.0.1:"))
            #expect(server.output.contains("Received: world"))
            #expect(server.output.contains("disconnected: "))
            #expect(server.output.contains("Served 1 client(s)"))
        }
    }

    @Test("a client silent for --timeout seconds is disconnected by its deadline; a bad option exits 2")
    func idleClient() async throws {
        try await onNewThread {
            let server = try ChildProcess(
                built: "AsyncEchoServer",
                ["--interface", "127.0.0.1", "--port", "0", "--timeout", "0.3", "--count", "1"])
            defer { server.stop() }
            let port = try #require(server.port(announcedBy: "Echo server started on port"))
            let peer = try RawPeer(port: port)
            #expect(peer.receiveLine() == "Welcome to the AsyncSocket Echo Server")
            #expect(peer.sawClose(timeout: 10))
            #expect(server.waitForExit() == 0)
            #expect(server.output.contains("was silent for 0.3 s: disconnected"))
            let wrong = try ChildProcess(built: "AsyncEchoServer", ["--bogus", "1"])
            #expect(wrong.waitForExit() == 2)
            #expect(wrong.output.contains("usage: AsyncEchoServer"))
        }
    }
}
