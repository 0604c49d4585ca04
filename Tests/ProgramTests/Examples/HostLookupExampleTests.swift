import Foundation
import SocketTestSupport
import Testing

@Suite("Examples/HostLookup, run as a program")
struct HostLookupExampleTests {
    @Test("a failed lookup, then the hosts file's addresses, the loopback interface and the connect through it")
    func lookupAndConnect() async throws {
        try await onNewThread {
            let started = now()
            let program = try ChildProcess(built: "HostLookup", [])
            #expect(program.waitForExit() == 0, "\(program.output)\(program.errorOutput)")
            #expect(now() - started < wallClockBound(5))
            // Each line: "<ms> ms  [who] text"; keep "[who] text".
            let lines = program.output.split(separator: "\n").map { line in
                line.firstIndex(of: "[").map { String(line[$0...]) } ?? String(line)
            }
            let hostsLine = try #require(lines.first { $0.hasPrefix("[main] hosts file ") })
            let hostsFile = String(hostsLine.dropFirst("[main] hosts file ".count).prefix { $0 != ":" })
            #expect(!FileManager.default.fileExists(atPath: hostsFile))
            let port = try #require(
                lines.first { $0.hasPrefix("[server] listening on 127.0.0.1 port ") }
                    .flatMap { UInt16($0.dropFirst("[server] listening on 127.0.0.1 port ".count)) })
            let expected = [
                "[client] looking up missing.example.test",
                "[client] missing.example.test did not resolve: kCFStreamErrorDomainNetDB",
                "[client] looking up service.example.test",
                "[client] service.example.test is 127.0.0.1:\(port), [::1]:\(port)",
                "[client] leaving through interface ",
                "[client] connected to 127.0.0.1:\(port) from 127.0.0.1",
                "[client] read \"hello from the server on 127.0.0.1\"",
                "[client] disconnected",
                "[main] done",
            ]
            let positions = expected.map { prefix in lines.firstIndex { $0.hasPrefix(prefix) } }
            #expect(!positions.contains(nil), "missing lines in:\n\(program.output)")
            #expect(
                positions.compactMap { $0 } == positions.compactMap { $0 }.sorted(), "out of order:\n\(program.output)")
            #expect(lines.contains { $0.hasPrefix("[server] accepted 127.0.0.1:") })
            #expect(
                lines.contains { $0.hasPrefix("[client] leaving through interface ") && $0.contains("(127.0.0.1)") })
        }
    }
}
