import Foundation
import SocketTestSupport
import Testing

// Examples/GracefulEchoServer as a program: lines echoed on two connections, then SIGTERM; both
// clients read the close, the listener refuses new connections, and the program says so and exits 0.
// (The drain of a large queued reply, and its deadline, are shown in Tests/LifecycleTests.)
@Suite("Examples/GracefulEchoServer, run as a program and stopped with SIGTERM")
struct GracefulEchoServerExampleTests {
    @Test(
        "echo, SIGTERM: every client reads its echoes and then the close, new connections refused, exit 0",
        arguments: ["runloop", "queue"])
    func sigterm(api: String) async throws {
        try await onNewThread {
            let server = try ChildProcess(built: "GracefulEchoServer", ["--port", "0", "--api", api])
            defer { server.stop() }
            let port = try #require(server.port(announcedBy: "listening on 127.0.0.1 port"))
            let talking = try RawPeer(port: port)
            let idle = try RawPeer(port: port)
            let lines = (1...200).map { "line \($0) " + String(repeating: "x", count: 80) }
            talking.send(lines.map { $0 + "\n" }.joined())
            for line in lines {
                #expect(talking.receiveLine() == line)
            }
            #expect(kill(server.pid, SIGTERM) == 0)
            #expect(talking.sawClose(timeout: 10))
            #expect(idle.sawClose(timeout: 10))
            #expect(server.waitForExit(timeout: 15) == 0)
            #expect(server.output.contains("shut down: every connection closed"), "\(server.output)")
            #expect((try? RawPeer(port: port)) == nil)
        }
    }
}
