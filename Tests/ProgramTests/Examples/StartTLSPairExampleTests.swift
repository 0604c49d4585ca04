import Foundation
import SocketTestSupport
import Testing

@Suite("Examples/StartTLSPair, run as a program")
struct StartTLSPairExampleTests {
    /// The lines of `output` that contain `needle`, by index.
    static func index(of needle: String, in lines: [String]) -> Int? {
        lines.firstIndex { $0.contains(needle) }
    }

    @Test("both sides in one process with throw-away certificates: plaintext, STARTTLS, encrypted; files removed")
    func bothSidesGeneratedCertificates() async throws {
        try await onNewThread {
            let pair = try ChildProcess(built: "StartTLSPair", [])
            #expect(pair.waitForExit() == 0)
            let lines = pair.output.split(separator: "\n").map(String.init)
            let generated = try #require(Self.index(of: "[main] made throw-away certificates in ", in: lines))
            let directory = String(lines[generated].dropFirst("[main] made throw-away certificates in ".count))
            #expect(!FileManager.default.fileExists(atPath: directory))
            let order = [
                "[client] plain ← 220 StartTLSPair ready", "[client] plain → NOOP", "[client] plain ← 250 OK",
                "[client] plain → STARTTLS", "[client] startTLS queued behind", "[server] plain ← STARTTLS",
                "[server] plain → 220 Go ahead", "[server] startTLS queued behind", "[client] plain ← 220 Go ahead",
                "[server] TLS is up", "[server] tls   ← HELLO over TLS",
                "[client] tls   ← 250 You said \"HELLO over TLS\"",
                "[client] tls   ← 221 Bye", "[client] done: the conversation went from plaintext to TLS",
            ]
            let positions = order.map { Self.index(of: $0, in: lines) }
            #expect(!positions.contains(nil), "missing lines in:\n\(pair.output)")
            #expect(
                positions.compactMap { $0 } == positions.compactMap { $0 }.sorted(), "out of order:\n\(pair.output)")
            #expect(Self.index(of: "[client] TLS is up", in: lines).map { $0 < positions[10]! } == true)
        }
    }

    @Test("both sides with certificates given on the command line (the test CA's)")
    func bothSidesGivenCertificates() async throws {
        let fixture = try TLSFixture.shared()
        try await onNewThread {
            let pair = try ChildProcess(
                built: "StartTLSPair",
                [
                    "--certificate", fixture.serverCertificatePath, "--key", fixture.serverKeyPath, "--ca",
                    fixture.caPath,
                ])
            #expect(pair.waitForExit() == 0)
            #expect(!pair.output.contains("throw-away"))
            #expect(pair.output.contains("[client] tls   ← 221 Bye"))
        }
    }

    @Test("server and client as two processes; the server's files are removed when it is terminated")
    func serverAndClientProcesses() async throws {
        try await onNewThread {
            let server = try ChildProcess(built: "StartTLSPair", ["--mode", "server", "--interface", "127.0.0.1"])
            defer { server.stop() }
            let port = try #require(server.port(announcedBy: "[server] listening on port"))
            let trustLine = try #require(server.line(containing: "[server] clients must trust "))
            let caPath = String(trustLine.dropFirst("[server] clients must trust ".count))
            let client = try ChildProcess(
                built: "StartTLSPair", ["--mode", "client", "--port", "\(port)", "--ca", caPath])
            #expect(client.waitForExit() == 0)
            #expect(client.output.contains("[client] TLS is up; the server's certificate was verified"))
            #expect(server.wait(for: "[server] connection closed"))
            server.stop()
            #expect(server.waitForExit() == 0)
            #expect(!FileManager.default.fileExists(atPath: caPath))
        }
    }

    @Test("a client without --ca is refused with the usage")
    func clientNeedsCA() async throws {
        try await onNewThread {
            let client = try ChildProcess(built: "StartTLSPair", ["--mode", "client", "--port", "1"])
            #expect(client.waitForExit() == 2)
            #expect(client.output.contains("usage: StartTLSPair"))
        }
    }
}
