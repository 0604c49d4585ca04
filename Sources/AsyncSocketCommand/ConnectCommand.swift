import ArgumentParser
import AsyncSocketKit
import Foundation

/// `asyncsocket connect`: an interactive line client in the manner of netcat.
struct ConnectCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "connect",
        abstract: "Connect to a line server: standard input lines go to the server, its lines to standard output.",
        discussion: """
            Uses RunLoopSocket, with standard input as a source of the same run loop. When standard input \
            ends, waits --quit-after seconds for the last replies (or, with --wait-for-close, until the server \
            closes), then disconnects; a close by the server ends the command at once. Exits with 1 when the \
            connection fails.
            """
    )

    @Argument(help: "The server's host name or address.")
    var host: String

    @Argument(help: "The server's port.")
    var port: UInt16

    @Flag(help: "Start TLS at once; the server's certificate and name are verified.")
    var tls = false

    @Option(help: "The name the server's certificate must carry (with --tls; default: the host as given).")
    var peerName: String?

    @Option(help: "Trust only this CA file, PEM (with --tls; default: the system's trust store).")
    var caFile: String?

    @Flag(help: "End the lines sent with CR LF instead of LF.")
    var crlf = false

    @Option(help: "Seconds to wait for the connection.")
    var connectTimeout: Double = 10

    @Option(help: "Seconds to wait for replies once standard input ends.")
    var quitAfter: Double = 1

    @Flag(help: "Once standard input ends, keep reading until the server closes.")
    var waitForClose = false

    @Option(help: "The engine behind RunLoopSocket.")
    var engine: EngineChoice = .native

    @OptionGroup var logging: LoggingOptions

    func validate() throws {
        if !tls && (peerName != nil || caFile != nil) {
            throw ValidationError("--peer-name and --ca-file go with --tls")
        }
        guard quitAfter >= 0 else {
            throw ValidationError("--quit-after must not be negative")
        }
    }

    /// The client side's TLS settings, with --tls.
    var tlsSettings: TLSSettings? {
        guard tls else { return nil }
        var settings = TLSSettings(role: .client)
        if let peerName {
            settings.peerName = .name(peerName)
        }
        if let caFile {
            settings.trustRoots = .only([caFile])
        }
        return settings
    }

    func run() throws {
        let logger = logging.makeLogger(label: "asyncsocket.connect")
        let session = LineSession(
            socket: RunLoopSocketFactory(engine: engine, logger: logger).makeSocket(),
            tlsSettings: tlsSettings, lineEnding: crlf ? "\r\n" : "\n", quitAfter: waitForClose ? nil : quitAfter,
            logger: logger)
        try session.socket.connectToHost(host, onPort: port, withTimeout: connectTimeout)
        EventRunLoop.current.run()
        if !session.succeeded {
            throw ExitCode.failure
        }
    }
}
