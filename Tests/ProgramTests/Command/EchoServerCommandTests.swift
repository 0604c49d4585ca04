import Foundation
import SocketTestSupport
import Testing

@Suite("asyncsocket echo-server")
struct EchoServerCommandTests {
    @Test(
        "lines come back on both APIs, and over two worker loops; --log-level debug shows the sockets' lines",
        arguments: [["--api", "legacy"], ["--api", "queue"], ["--api", "legacy", "--workers", "2"]])
    func echoes(arguments: [String]) async throws {
        try await onNewThread {
            let server = try CommandServer("echo-server", arguments + ["--log-level", "debug"])
            defer { server.process.stop() }
            let first = try RawPeer(port: server.port)
            let second = try RawPeer(port: server.port)
            first.send("ping\n")
            second.send("pong\r\n")
            #expect(first.receiveLine() == "ping")
            #expect(second.receiveLine() == "pong")
            first.send("again\n")
            #expect(first.receiveLine() == "again")
            #expect(server.process.wait(for: "client connected"))
            // --log-level debug shows the library's own lines, each with the socket's metadata.
            let face = arguments[1] == "legacy" ? "RunLoopSocket" : "QueueSocket"
            #expect(
                server.process.wait { (output: String, errors: String) in
                    (output + errors).split(separator: "\n").contains { line in
                        line.hasSuffix("[AsyncSocketKit] accepted a connection") && line.contains("face=\(face)")
                            && line.contains("socket=") && line.contains("from=127.0.0.1:")
                    }
                })
        }
    }

    @Test(
        "with --tls, `connect --tls` forwards a line and prints its echo, on both APIs", arguments: ["legacy", "queue"])
    func tls(api: String) async throws {
        let fixture = try TLSFixture.shared()
        try await onNewThread {
            let server = try CommandServer(
                "echo-server",
                ["--api", api, "--tls", "--certificate", fixture.serverCertificatePath, "--key", fixture.serverKeyPath])
            defer { server.process.stop() }
            #expect(server.process.output.contains("TLS"))
            let client = try ChildProcess(
                built: "asyncsocket",
                [
                    "connect", "127.0.0.1", "\(server.port)", "--tls", "--ca-file", fixture.caPath, "--peer-name",
                    "localhost", "--quit-after", "0.2",
                ])
            client.send("over tls\n")
            #expect(client.wait { output, _ in output.contains("over tls\n") })
            client.closeInput()
            #expect(client.waitForExit() == 0)
            #expect(client.errorOutput.contains("TLS is up"))

            let untrusting = try ChildProcess(
                built: "asyncsocket", ["connect", "127.0.0.1", "\(server.port)", "--tls", "--quit-after", "0.2"])
            #expect(untrusting.waitForExit() == 1)
            #expect(untrusting.errorOutput.contains("not trusted"))
        }
    }

    @Test("--engine queue-core: the legacy server on the queue core echoes the same, over worker loops too")
    func queueCoreEngine() async throws {
        try await onNewThread {
            let server = try CommandServer("echo-server", ["--engine", "queue-core", "--workers", "2"])
            defer { server.process.stop() }
            let first = try RawPeer(port: server.port)
            let second = try RawPeer(port: server.port)
            first.send("ping\n")
            second.send("pong\n")
            #expect(first.receiveLine() == "ping")
            #expect(second.receiveLine() == "pong")
        }
    }

    @Test(
        "options that do not go together are refused with exit code 2 (a usage error)",
        arguments: [
            ["--api", "queue", "--workers", "2"], ["--tls"], ["--certificate", "c.pem", "--key", "k.pem"],
            ["--api", "queue", "--engine", "queue-core"], ["--workers", "65"], ["--engine", "other"],
        ])
    func refusedOptions(arguments: [String]) async throws {
        try await onNewThread {
            let process = try ChildProcess(built: "asyncsocket", ["echo-server", "--port", "0"] + arguments)
            #expect(process.waitForExit() == 2)
            #expect(process.errorOutput.contains("Error:"))
        }
    }
}
