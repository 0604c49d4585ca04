import ArgumentParser
import Foundation

/// The `asyncsocket` command.
@main
struct AsyncSocketCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "asyncsocket",
        abstract: "AsyncSocketKit: the run-loop AsyncSocket API, and its modern successor, on Linux.",
        subcommands: [
            DemoCommand.self, EchoServerCommand.self, ChatServerCommand.self, ConnectCommand.self, BenchCommand.self,
            SideBySideCommand.self, MigrateScanCommand.self, UdpEchoCommand.self, UdpSendCommand.self,
        ],
        defaultSubcommand: DemoCommand.self
    )

    /// Runs the command; a usage error (an unknown option, a bad value) exits with status 2, as most
    /// Unix tools do, rather than ArgumentParser's 64.
    static func main() {
        do {
            var command = try parseAsRoot()
            try command.run()
        } catch {
            guard exitCode(for: error) == .validationFailure else { exit(withError: error) }
            FileHandle.standardError.write(Data((fullMessage(for: error) + "\n").utf8))
            Foundation.exit(2)
        }
    }
}
