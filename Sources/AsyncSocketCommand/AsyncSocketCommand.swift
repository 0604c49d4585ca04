import ArgumentParser

/// The `asyncsocket` command.
@main
struct AsyncSocketCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "asyncsocket",
        abstract: "AsyncSocketKit: the run-loop AsyncSocket API, and its modern successor, on Linux.",
        subcommands: [
            DemoCommand.self, EchoServerCommand.self, ChatServerCommand.self, ConnectCommand.self, BenchCommand.self,
        ],
        defaultSubcommand: DemoCommand.self
    )
}
