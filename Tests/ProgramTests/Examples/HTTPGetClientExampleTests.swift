import Foundation
import SocketTestSupport
import Testing

@Suite("Examples/HTTPGetClient against python3 -m http.server")
struct HTTPGetClientExampleTests {
    static let greeting = Data("Hello from the HTTPGetClient test\n".utf8)
    static let large = Data((0..<300_000).map { UInt8(truncatingIfNeeded: $0 &* 7) })

    @Test("a small file with --body, a 300 kB file, and a 404: status, Content-Length, body length")
    func getFiles() async throws {
        try await onNewThread {
            let server = try PythonHTTPServer(files: ["hello.txt": Self.greeting, "large.bin": Self.large])
            defer { server.stop() }
            let base = "http://127.0.0.1:\(server.port)"

            let small = try ChildProcess(built: "HTTPGetClient", ["--body", "\(base)/hello.txt"])
            #expect(small.waitForExit() == 0)
            #expect(small.output.contains("Status: 200 OK\n"))
            #expect(small.output.contains("Content-Length: \(Self.greeting.count)\n"))
            #expect(small.output.contains("Body: \(Self.greeting.count) bytes\n"))
            #expect(small.output.hasSuffix(String(decoding: Self.greeting, as: UTF8.self)))

            let big = try ChildProcess(built: "HTTPGetClient", ["\(base)/large.bin"])
            #expect(big.waitForExit() == 0)
            #expect(big.output.contains("Content-Length: 300000\nBody: 300000 bytes\n"))

            let missing = try ChildProcess(built: "HTTPGetClient", ["\(base)/missing.txt"])
            #expect(missing.waitForExit() == 0)
            #expect(missing.output.contains("Status: 404"))
        }
    }

    @Test("nothing listening: the connect fails and the status is 1")
    func connectionRefused() async throws {
        try await onNewThread {
            let client = try ChildProcess(
                built: "HTTPGetClient", ["--timeout", "2", "http://127.0.0.1:\(unusedPort())/"])
            #expect(client.waitForExit() == 1)
            #expect(client.output.contains("Failed:"))
        }
    }
}
