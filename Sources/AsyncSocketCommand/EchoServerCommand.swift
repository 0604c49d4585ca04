import ArgumentParser

/// `asyncsocket echo-server`: every line a client sends comes back to it.
struct EchoServerCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "echo-server",
        abstract: "Serve line echo: every LF-terminated line a client sends is sent back to it.",
        discussion: "Runs until interrupted. Try it with `asyncsocket connect 127.0.0.1 7000`."
    )

    @OptionGroup var server: ServerOptions
    @OptionGroup var logging: LoggingOptions

    func run() throws {
        try server.serve(
            EchoService(), name: "echo-server", logger: logging.makeLogger(label: "asyncsocket.echo-server"))
    }
}
