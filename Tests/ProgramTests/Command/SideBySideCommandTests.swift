import Foundation
import SocketTestSupport
import Testing

@Suite("asyncsocket side-by-side")
struct SideBySideCommandTests {
    @Test("every built-in scenario: three runs each, all equivalent to the native engine, exit 0")
    func allScenarios() async throws {
        try await onNewThread {
            let command = try ChildProcess(built: "asyncsocket", ["side-by-side"])
            #expect(command.waitForExit(timeout: 120) == 0)
            let output = command.output
            #expect(output.contains("5 scenario(s): every run equivalent to RunLoopSocket (native)"), "\(output)")
            for name in ["line-conversation", "dribbled-reply", "slow-reply", "server-reset", "echo-server"] {
                #expect(output.contains("== \(name): "))
            }
            #expect(output.components(separatedBy: "✓ RunLoopSocket (queue-core)").count == 6)
            #expect(output.components(separatedBy: "✓ QueueSocket").count == 6)
            #expect(output.contains("declared: a reset is ECONNRESET on RunLoopSocket"))
        }
    }

    @Test("--list names the scenarios; --verbose prints the traces; an unknown scenario is a usage error")
    func options() async throws {
        try await onNewThread {
            let list = try ChildProcess(built: "asyncsocket", ["side-by-side", "--list"])
            #expect(list.waitForExit() == 0)
            #expect(list.output.split(separator: "\n").count == 5)
            let verbose = try ChildProcess(
                built: "asyncsocket", ["side-by-side", "--scenario", "slow-reply", "--verbose"])
            #expect(verbose.waitForExit(timeout: 60) == 0)
            #expect(verbose.output.contains("client: readTimeout(tag 2, extended)"))
            #expect(verbose.output.contains("1 scenario(s): every run equivalent"))
            let unknown = try ChildProcess(built: "asyncsocket", ["side-by-side", "--scenario", "nope"])
            #expect(unknown.waitForExit() == 2)
            #expect(unknown.errorOutput.contains("no scenario \"nope\""))
        }
    }
}
