import Foundation
import SocketTestSupport
import Testing

@Suite("asyncsocket connect")
struct ConnectCommandTests {
    @Test("standard input lines go to the server, the server's lines to standard output; EOF ends it")
    func forwardsBothWays() async throws {
        try await onNewThread {
            let listener = try RawListener()
            let client = try ChildProcess(
                built: "asyncsocket", ["connect", "127.0.0.1", "\(listener.port)", "--quit-after", "0.2"])
            defer { client.stop() }
            let peer = try #require(listener.accept(timeout: 10))
            client.send("from stdin\n")
            #expect(peer.receiveLine() == "from stdin")
            peer.send("from the server\n")
            #expect(client.wait { output, _ in output == "from the server\n" })
            client.send("last line without a newline")
            client.closeInput()
            #expect(peer.receiveLine() == "last line without a newline")
            #expect(peer.sawClose(timeout: 5))
            #expect(client.waitForExit() == 0)
        }
    }

    @Test("--crlf ends the lines sent with CR LF; with --wait-for-close, the server's close ends the command")
    func crlfAndServerClose() async throws {
        try await onNewThread {
            let listener = try RawListener()
            let client = try ChildProcess(
                built: "asyncsocket", ["connect", "127.0.0.1", "\(listener.port)", "--crlf", "--wait-for-close"])
            defer { client.stop() }
            let peer = try #require(listener.accept(timeout: 10))
            client.send("line\n")
            client.closeInput()
            #expect(peer.receive(count: 6) == Array("line\r\n".utf8))
            peer.send("bye\n")
            peer.shutdownWrite()
            #expect(client.waitForExit() == 0)
            #expect(client.output == "bye\n")
        }
    }

    @Test("nothing listening: status 1 and the error on standard error")
    func refused() async throws {
        try await onNewThread {
            let client = try ChildProcess(built: "asyncsocket", ["connect", "127.0.0.1", "\(unusedPort())"])
            #expect(client.waitForExit() == 1)
            #expect(client.errorOutput.contains("connection failed"))
        }
    }
}
