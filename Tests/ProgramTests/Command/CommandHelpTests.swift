import Foundation
import SocketTestSupport
import Testing

@Suite("asyncsocket --help")
struct CommandHelpTests {
    @Test(
        "every subcommand explains itself and its options",
        arguments: ["echo-server", "chat-server", "connect", "bench", "udp-echo", "udp-send"])
    func subcommandHelp(subcommand: String) async throws {
        try await onNewThread {
            let process = try ChildProcess(built: "asyncsocket", [subcommand, "--help"])
            #expect(process.waitForExit() == 0)
            #expect(process.output.contains("USAGE: asyncsocket \(subcommand)"))
            #expect(process.output.contains("--log-level <log-level>"))
        }
    }

    @Test("the top level lists every subcommand, demo being the default; demo's help is unchanged")
    func topLevelHelp() async throws {
        try await onNewThread {
            let top = try ChildProcess(built: "asyncsocket", ["--help"])
            #expect(top.waitForExit() == 0)
            for subcommand in [
                "demo (default)", "echo-server", "chat-server", "connect", "bench", "udp-echo", "udp-send",
            ] {
                #expect(top.output.contains("  \(subcommand)"))
            }
            let demo = try ChildProcess(built: "asyncsocket", ["demo", "--help"])
            #expect(demo.waitForExit() == 0)
            #expect(demo.output.contains("USAGE: asyncsocket demo [--timeout <timeout>]"))
        }
    }
}
