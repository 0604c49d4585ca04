import ArgumentParser
import AsyncSocketKit
import Dispatch
import Foundation
import Logging

/// The options of the line servers (`echo-server`, `chat-server`), and starting one.
struct ServerOptions: ParsableArguments {
    @Option(help: "The port to listen on (0: any free port). The port is printed once listening.")
    var port: UInt16 = 7000

    @Option(
        help: "Where to listen: localhost (both loopback addresses), a numeric address, or \"\" for every interface.")
    var interface = "localhost"

    @Option(help: "The socket API: legacy (RunLoopSocket) or queue (QueueSocket).")
    var api: SocketAPI = .legacy

    @Option(help: "The engine behind RunLoopSocket (--api legacy).")
    var engine: EngineChoice = .native

    @Option(
        help: ArgumentHelp(
            "Worker run loops the connections are spread over, round-robin (--api legacy).",
            discussion: "0 serves every connection on the main thread's loop."))
    var workers = 0

    @Flag(help: "Speak TLS from the first byte (needs --certificate and --key).")
    var tls = false

    @Option(help: "The server's certificate chain, PEM (with --tls).")
    var certificate: String?

    @Option(help: "The server's private key, PEM (with --tls).")
    var key: String?

    func validate() throws {
        if tls && (certificate == nil || key == nil) {
            throw ValidationError("--tls needs --certificate and --key")
        }
        if !tls && (certificate != nil || key != nil) {
            throw ValidationError("--certificate and --key go with --tls")
        }
        guard (0...64).contains(workers) else {
            throw ValidationError("--workers must be between 0 and 64")
        }
        if api == .queue && workers > 0 {
            throw ValidationError("--workers goes with --api legacy (QueueSocket connections have their own queues)")
        }
        if api == .queue && engine != .native {
            throw ValidationError("--engine goes with --api legacy")
        }
    }

    /// The server side's TLS settings, with --tls.
    var tlsSettings: TLSSettings? {
        guard tls, let certificate, let key else { return nil }
        var settings = TLSSettings(role: .server)
        settings.identity = .pem(certificatePath: certificate, keyPath: key, password: nil)
        return settings
    }

    /// Starts a server for `service` as the options say, prints "listening on port N", and serves
    /// until the process ends.
    func serve(_ service: any LineService, name: String, logger: Logger) throws {
        switch api {
        case .legacy:
            let server = try LegacyLineServer(
                service: service, factory: RunLoopSocketFactory(engine: engine, logger: logger),
                tlsSettings: tlsSettings, workerCount: workers, logger: logger)
            let port = try server.start(interface: interface, port: port)
            announce(name, port: port, logger: logger)
            // The server is the sockets' (weakly held) delegate: keep it while they serve.
            withExtendedLifetime(server) { EventRunLoop.current.run() }
        case .queue:
            let server = QueueLineServer(service: service, tlsSettings: tlsSettings, logger: logger)
            let port = try server.start(interface: interface, port: port)
            announce(name, port: port, logger: logger)
            withExtendedLifetime(server) { dispatchMain() }
        }
    }

    private func announce(_ name: String, port: UInt16, logger: Logger) {
        print(
            "\(name) (\(api == .legacy ? "RunLoopSocket" : "QueueSocket")\(tls ? ", TLS" : "")) listening on port \(port)"
        )
        fflush(nil)
        logger.info(
            "serving",
            metadata: ["interface": "\(interface)", "engine": "\(engine.rawValue)", "workers": "\(workers)"])
    }
}
