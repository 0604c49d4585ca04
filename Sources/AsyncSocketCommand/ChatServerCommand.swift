import ArgumentParser

/// `asyncsocket chat-server`: every line a client sends goes to every other client.
struct ChatServerCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "chat-server",
        abstract: "Serve a chat room: every line a client sends is relayed to all the others.",
        discussion: """
            Each client is named after its address; it is greeted, and the others are told when it joins and \
            leaves. Runs until interrupted.
            """
    )

    @OptionGroup var server: ServerOptions
    @OptionGroup var logging: LoggingOptions

    func run() throws {
        try server.serve(
            ChatService(), name: "chat-server", logger: logging.makeLogger(label: "asyncsocket.chat-server"))
    }
}
