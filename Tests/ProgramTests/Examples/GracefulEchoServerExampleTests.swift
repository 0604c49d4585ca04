import Foundation
import SocketTestSupport
import Testing

// Examples/GracefulEchoServer as a program: lines echoed on two connections, then SIGTERM; both
// clients read the close, the listener refuses new connections, and the program says so and exits 0;
// with --metrics it prints what its sockets counted.
// (The drain of a large queued reply, and its deadline, are shown in Tests/LifecycleTests.)
@Suite("Examples/GracefulEchoServer, run as a program and stopped with SIGTERM")
struct GracefulEchoServerExampleTests {
    @Test(
        "echo, SIGTERM: every client reads its echoes and the close, new connections refused, exit 0, the counts",
        arguments: ["runloop", "queue"])
    func sigterm(api: String) async throws {
        try await onNewThread {
            let server = try ChildProcess(built: "GracefulEchoServer", ["--port", "0", "--api", api, "--metrics"])
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
            // The metrics it printed: two connections accepted and closed, every line read and written.
            let series =
                api == "runloop"
                ? "{face=\"RunLoopSocket\",engine=\"native\"}" : "{face=\"QueueSocket\",engine=\"dispatch\"}"
            let bytes = lines.reduce(0) { $0 + $1.utf8.count + 1 }
            for expected in [
                "asyncsocket_connections_accepted_total\(series) 2", "asyncsocket_connections\(series) 0",
                "asyncsocket_bytes_read_total\(series) \(bytes)", "asyncsocket_bytes_written_total\(series) \(bytes)",
                "asyncsocket_reads_total\(series) 200", "asyncsocket_writes_total\(series) 200",
            ] {
                #expect(server.output.contains("  " + expected + "\n"), "\(expected) in \(server.output)")
            }
        }
    }
}
