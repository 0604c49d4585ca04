import Foundation
import SocketTestSupport
import Testing

@Suite("Examples/PrivateCATLS, run as a program")
struct PrivateCATLSExampleTests {
    @Test("trustRoots, the legacy key and manual trust trust the private CA; manual trust without it refuses")
    func privateCA() async throws {
        try await onNewThread {
            let started = now()
            let program = try ChildProcess(built: "PrivateCATLS", [])
            #expect(program.waitForExit() == 0, "\(program.output)\(program.errorOutput)")
            #expect(now() - started < wallClockBound(10))
            let lines = program.output.split(separator: "\n").map(String.init)
            let made = try #require(
                lines.first { $0.hasPrefix("[main] made a private CA and a server certificate in ") })
            let directory = String(made.dropFirst("[main] made a private CA and a server certificate in ".count))
            #expect(!FileManager.default.fileExists(atPath: directory))
            for name in ["trustRoots", "dictionary", "manual"] {
                let order = [
                    "[\(name)] TLS is up: the server's certificate was trusted",
                    "[\(name)] the server says \"hello \(name), over TLS\"",
                    "[\(name)] closed",
                ]
                let positions = order.map { lines.firstIndex(of: $0) }
                #expect(!positions.contains(nil), "\(name) in:\n\(program.output)")
                #expect(positions.compactMap { $0 } == positions.compactMap { $0 }.sorted())
            }
            #expect(
                lines.contains(
                    "[manual] asked to trust \"O=PrivateCATLS,CN=localhost\"; OpenSSL says 0 (ok)"))
            #expect(
                lines.contains(
                    "[manual] evaluated: the chain leads to the private CA, the leaf is the pinned certificate; "
                        + "trusting it"))
            #expect(
                lines.contains(
                    "[manual-no-anchor] asked to trust \"O=PrivateCATLS,CN=localhost\"; OpenSSL says 20 "
                        + "(unable to get local issuer certificate)"))
            #expect(lines.contains { $0.hasPrefix("[manual-no-anchor] evaluated: the chain leads to no trusted root") })
            #expect(lines.contains { $0.hasPrefix("[manual-no-anchor] closed: kCFStreamErrorDomainSSL -9825: ") })
            #expect(!lines.contains { $0.hasPrefix("[manual-no-anchor] TLS is up") })
            #expect(lines.contains { $0.hasPrefix("[server] a handshake failed: kCFStreamErrorDomainSSL -9825") })
            #expect(lines.last == "[main] done: every client trusted or refused as it should")
        }
    }
}
