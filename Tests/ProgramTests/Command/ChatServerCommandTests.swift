import Foundation
import SocketTestSupport
import Testing

@Suite("asyncsocket chat-server")
struct ChatServerCommandTests {
    @Test(
        "a line from one client reaches the other; joins and departures are announced",
        arguments: [["--api", "legacy"], ["--api", "queue"], ["--api", "legacy", "--workers", "2"]])
    func relays(arguments: [String]) async throws {
        try await onNewThread {
            let server = try CommandServer("chat-server", arguments)
            defer { server.process.stop() }
            var alice: RawPeer? = try RawPeer(port: server.port)
            #expect(alice?.receiveLine()?.hasSuffix(", 0 others here") == true)
            var bob: RawPeer? = try RawPeer(port: server.port)
            let bobWelcome = try #require(bob?.receiveLine())
            #expect(bobWelcome.hasSuffix(", 1 others here"))
            let bobName = String(bobWelcome.dropFirst("* welcome ".count).prefix { $0 != "," })
            #expect(alice?.receiveLine() == "* \(bobName) joined")
            alice?.send("hello, bob\n")
            let relayed = try #require(bob?.receiveLine())
            #expect(relayed.hasSuffix(": hello, bob"))
            #expect(relayed.hasPrefix("127.0.0.1:"))
            bob = nil
            #expect(alice?.receiveLine() == "* \(bobName) left", "server output:\n\(server.process.output)")
            alice = nil
            #expect(server.process.wait(for: "client disconnected"))
        }
    }
}
