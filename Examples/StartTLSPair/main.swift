// A STARTTLS conversation on RunLoopSocket, in the manner of SMTP: a plaintext greeting and
// command, then STARTTLS with `startTLS` queued behind a write on both sides, then encrypted lines.
// By default the server and the client run together in this process on one run loop; `--mode
// server` and `--mode client` run one side each. Without --certificate/--key/--ca the program makes
// throw-away certificates with the openssl command in a private temporary directory and deletes
// them when it ends.
//
//   swift run StartTLSPair                                  # both sides, ends by itself
//   swift run StartTLSPair --mode server --port 8025        # prints the CA file a client needs
//   swift run StartTLSPair --mode client --port 8025 --ca /tmp/StartTLSPair-…/ca.pem
import AsyncSocketKit
import Dispatch
import Foundation

let usage = """
    usage: StartTLSPair [--mode both|server|client] [--host 127.0.0.1] [--interface localhost] [--port N]
                        [--certificate server.pem --key server.key] [--ca ca.pem]
    """
var mode = "both"
var host = "127.0.0.1"
var interface = "localhost"
var port: UInt16 = 0
var certificatePath: String?
var keyPath: String?
var caPath: String?
var arguments = CommandLine.arguments.dropFirst().makeIterator()
while let argument = arguments.next() {
    switch argument {
    case "--mode": mode = arguments.next() ?? mode
    case "--host": host = arguments.next() ?? host
    case "--interface": interface = arguments.next() ?? interface
    case "--port": port = arguments.next().flatMap(UInt16.init) ?? port
    case "--certificate": certificatePath = arguments.next()
    case "--key": keyPath = arguments.next()
    case "--ca": caPath = arguments.next()
    default:
        print(usage)
        exit(2)
    }
}
let givesIdentity = certificatePath != nil || keyPath != nil
guard ["both", "server", "client"].contains(mode), (certificatePath != nil) == (keyPath != nil),
    mode == "server" || !givesIdentity || caPath != nil, mode != "client" || caPath != nil
else {
    print(usage)
    print("--certificate and --key go together; a client (modes both and client) needs --ca with them")
    exit(2)
}

let files: ThrowawayCertificates
do {
    if givesIdentity || mode == "client" {
        files = ThrowawayCertificates(
            caPath: caPath ?? "", certificatePath: certificatePath ?? "", keyPath: keyPath ?? "")
    } else {
        files = try ThrowawayCertificates.generate()
        say("main", "made throw-away certificates in \(files.temporaryDirectory ?? "")")
    }
} catch {
    say("main", "could not make certificates: \(error)")
    exit(1)
}

// A server runs until it is interrupted: SIGINT and SIGTERM stop the main loop (from a dispatch
// queue, the one thing another thread may do to it), so the files are deleted below then too.
let signalSources = [SIGINT, SIGTERM].map { signalNumber in
    signal(signalNumber, SIG_IGN)
    let source = DispatchSource.makeSignalSource(signal: signalNumber, queue: .global())
    source.setEventHandler { @Sendable in EventRunLoop.main.stop() }
    source.resume()
    return source
}

var serverSettings = TLSSettings(role: .server)
serverSettings.identity = .pem(certificatePath: files.certificatePath, keyPath: files.keyPath, password: nil)
var clientSettings = TLSSettings(role: .client)
clientSettings.trustRoots = .only([files.caPath])

var server: PairServer?
var client: PairClient?
do {
    if mode != "client" {
        let pairServer = PairServer(settings: serverSettings)
        try pairServer.listener.acceptOnInterface(mode == "both" ? "127.0.0.1" : interface, port: port)
        port = pairServer.listener.localPort
        say("server", "listening on port \(port)")
        if mode == "server" {
            say("server", "clients must trust \(files.caPath)")
        }
        server = pairServer
    }
    if mode != "server" {
        let pairClient = PairClient(settings: clientSettings)
        try pairClient.socket.connectToHost(host, onPort: port, withTimeout: 10)
        client = pairClient
    }
} catch {
    say("main", "could not start: \(error)")
    files.removeTemporaryFiles()
    exit(1)
}
EventRunLoop.current.run()
server?.stop()
files.removeTemporaryFiles()
exit(client?.status ?? 0)
