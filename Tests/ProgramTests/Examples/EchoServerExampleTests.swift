import Foundation
import SocketTestSupport
import Testing

@Suite("Examples/EchoServer and Examples/QueueEchoServer, run as programs")
struct EchoServerExampleTests {
    @Test(
        "welcome, echo, one warning after a silent --timeout, then the close after the extension",
        arguments: ["EchoServer", "QueueEchoServer"])
    func echoWarnAndClose(program: String) async throws {
        try await onNewThread {
            let server = try ChildProcess(
                built: program, ["--interface", "127.0.0.1", "--port", "0", "--timeout", "0.3", "--extension", "0.3"])
            defer { server.stop() }
            let port = try #require(server.port(announcedBy: "Echo server started on port"))
            let peer = try RawPeer(port: port)
            // "hello" goes out at once, not after the welcome: the server's first read has the same 0.3 s
            // timeout, which a test thread held up before sending would let run out. The timer measured
            // below starts when the server has read "hello", which is after we send it (not after we
            // receive the echo, which a slow run can deliver late); so measure from the send.
            let silentSince = now()
            peer.send("hello\r\n")
            #expect(peer.receiveLine() == "Welcome to the AsyncSocket Echo Server")
            #expect(peer.receiveLine() == "hello")
            #expect(peer.receiveLine() == "Are you still there?")
            #expect(now() - silentSince >= 0.25)
            #expect(peer.sawClose(timeout: 5))
            #expect(now() - silentSince >= 0.5)
            #expect(server.wait(for: "Received: hello"))
            #expect(server.wait(for: "Accepted client 127.0.0.1:"))
            #expect(server.wait(for: "disconnect"))
        }
    }

    @Test("an unknown option prints the usage and exits with 2", arguments: ["EchoServer", "QueueEchoServer"])
    func usage(program: String) async throws {
        try await onNewThread {
            let process = try ChildProcess(built: program, ["--bogus"])
            #expect(process.waitForExit() == 2)
            #expect(process.output.contains("usage: \(program)"))
        }
    }
}
