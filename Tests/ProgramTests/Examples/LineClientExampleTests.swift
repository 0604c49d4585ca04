import Foundation
import SocketTestSupport
import Testing

@Suite("Examples/LineClient, run as a program")
struct LineClientExampleTests {
    @Test("lines from the command line, against Examples/EchoServer: greeting, one reply per line, status 0")
    func commandLineLines() async throws {
        try await onNewThread {
            let server = try ChildProcess(built: "EchoServer", ["--interface", "127.0.0.1", "--port", "0"])
            defer { server.stop() }
            let port = try #require(server.port(announcedBy: "Echo server started on port"))
            let client = try ChildProcess(
                built: "LineClient", ["--greeting", "--timeout", "5", "127.0.0.1", "\(port)", "one", "two words"])
            #expect(client.waitForExit() == 0)
            let lines = client.output.split(separator: "\n").map(String.init)
            #expect(
                lines.dropFirst() == [
                    "Greeting: Welcome to the AsyncSocket Echo Server", "Sent: one", "Reply: one", "Sent: two words",
                    "Reply: two words", "Done",
                ])
            #expect(lines.first?.hasPrefix("Connected to 127.0.0.1:\(port)") == true)
        }
    }

    @Test("lines from standard input when none are given")
    func standardInputLines() async throws {
        try await onNewThread {
            let server = try ChildProcess(built: "EchoServer", ["--interface", "127.0.0.1", "--port", "0"])
            defer { server.stop() }
            let port = try #require(server.port(announcedBy: "Echo server started on port"))
            let client = try ChildProcess(built: "LineClient", ["--greeting", "127.0.0.1", "\(port)"])
            client.send("alpha\nbeta\n")
            client.closeInput()
            #expect(client.waitForExit() == 0)
            #expect(client.output.contains("Reply: alpha\nSent: beta\nReply: beta\nDone"))
        }
    }

    @Test("a server that never answers: the reply times out after --timeout and the status is 1")
    func replyTimeout() async throws {
        try await onNewThread {
            let listener = try RawListener()
            let started = now()
            let client = try ChildProcess(
                built: "LineClient", ["--timeout", "0.3", "127.0.0.1", "\(listener.port)", "anyone there?"])
            #expect(client.waitForExit() == 1)
            #expect(now() - started >= 0.3)
            #expect(client.output.contains("Sent: anyone there?"))
            #expect(client.output.contains("Failed:"))
        }
    }
}
