// A line echo server that shuts down gracefully on SIGTERM or SIGINT, as a swift-service-lifecycle
// service (AsyncSocketServiceLifecycle's SocketServerService): it stops accepting, lets every
// connection send what it has queued (for at most --drain-seconds), closes them and exits 0. The
// server is a RunLoopSocket on a loop thread of its own, or with --api queue a QueueSocket. With
// --metrics its sockets count into a SocketMetrics (TotalsMetrics.swift keeps the totals in memory),
// printed once it has shut down.
//
//   swift run GracefulEchoServer [--port 7000] [--api runloop|queue] [--drain-seconds 10] [--metrics]
//   nc 127.0.0.1 7000          # then: kill -TERM <pid>
import AsyncSocketKit
import AsyncSocketServiceLifecycle
import Foundation
import Logging
import ServiceLifecycle

/// Prints a line at once, even into a pipe.
func say(_ line: String) {
    print(line)
    fflush(nil)
}

let lineFeed = Data("\n".utf8)

/// The RunLoopSocket server: every accepted connection echoes each line it reads.
final class RunLoopEchoServer: RunLoopSocketDelegate {
    private var connections: [RunLoopSocket] = []

    func onSocket(_ sock: RunLoopSocket, didAcceptNewSocket newSocket: RunLoopSocket) {
        connections.append(newSocket)
    }

    func onSocket(_ sock: RunLoopSocket, didConnectToHost host: String, port: UInt16) {
        sock.readData(to: lineFeed, withTimeout: -1, tag: 0)
    }

    func onSocket(_ sock: RunLoopSocket, didRead data: Data, withTag tag: Int) {
        sock.write(data, withTimeout: -1, tag: 0)
        sock.readData(to: lineFeed, withTimeout: -1, tag: 0)
    }

    func onSocketDidDisconnect(_ sock: RunLoopSocket) {
        connections.removeAll { $0 === sock }
    }
}

/// The QueueSocket server: the same echo, on one delegate queue.
final class QueueEchoServer: QueueSocketDelegate, @unchecked Sendable {
    // @unchecked Sendable: `connections` is touched on `queue` only (every callback runs there).
    let queue = DispatchQueue(label: "GracefulEchoServer")
    private var connections: [QueueSocket] = []

    func socket(_ sock: QueueSocket, didAcceptNewSocket newSocket: QueueSocket) {
        connections.append(newSocket)
        newSocket.readData(to: lineFeed, withTimeout: -1, tag: 0)
    }

    func socket(_ sock: QueueSocket, didRead data: Data, withTag tag: Int) {
        sock.write(data, withTimeout: -1, tag: 0)
        sock.readData(to: lineFeed, withTimeout: -1, tag: 0)
    }

    func socketDidDisconnect(_ sock: QueueSocket, withError err: (any Error)?) {
        connections.removeAll { $0 === sock }
    }
}

/// The RunLoopSocket server on a loop thread of its own; the service is made there, as every call on
/// the listener is. Returns the service, the port and what must stay alive.
func startRunLoopServer(port: UInt16, drainTimeout: Duration, logger: Logger, metrics: SocketMetrics?) throws -> (
    SocketServerService, UInt16, [AnyObject]
) {
    let thread = EventRunLoopThread(name: "GracefulEchoServer")
    let made = DispatchSemaphore(value: 0)
    nonisolated(unsafe) var result: Result<(SocketServerService, UInt16, [AnyObject]), any Error>?
    thread.loop.perform {
        result = Result {
            let server = RunLoopEchoServer()
            let listener = RunLoopSocket(delegate: server, metrics: metrics)
            let service = SocketServerService(listener: listener, drainTimeout: drainTimeout, logger: logger)
            try listener.acceptOnInterface("127.0.0.1", port: port)
            return (service, listener.localPort, [server, listener])
        }
        made.signal()
    }
    made.wait()
    let (service, listeningPort, objects) = try result!.get()
    return (service, listeningPort, objects + [thread])
}

var port: UInt16 = 7000
var api = "runloop"
var drainSeconds = 10
var countsMetrics = false
var arguments = CommandLine.arguments.dropFirst().makeIterator()
while let argument = arguments.next() {
    switch argument {
    case "--port": port = arguments.next().flatMap { UInt16($0) } ?? port
    case "--api": api = arguments.next() ?? api
    case "--drain-seconds": drainSeconds = arguments.next().flatMap { Int($0) } ?? drainSeconds
    case "--metrics": countsMetrics = true
    default:
        say("usage: GracefulEchoServer [--port 7000] [--api runloop|queue] [--drain-seconds 10] [--metrics]")
        exit(2)
    }
}

let logger = Logger(label: "GracefulEchoServer")
let totals = countsMetrics ? TotalsMetrics() : nil
let metrics = totals.map { SocketMetrics(factory: $0) }
let drainTimeout = Duration.seconds(drainSeconds)
let service: SocketServerService
let listeningPort: UInt16
/// Kept for the life of the program: the listener, its delegate and the loop thread.
var keptAlive: [AnyObject] = []

do {
    switch api {
    case "queue":
        let server = QueueEchoServer()
        let listener = QueueSocket(delegate: server, delegateQueue: server.queue, metrics: metrics)
        service = SocketServerService(listener: listener, drainTimeout: drainTimeout, logger: logger)
        try listener.accept(onInterface: "127.0.0.1", port: port)
        listeningPort = listener.localPort
        keptAlive = [server, listener]
    case "runloop":
        let (runLoopService, runLoopPort, objects) = try startRunLoopServer(
            port: port, drainTimeout: drainTimeout, logger: logger, metrics: metrics)
        (service, listeningPort) = (runLoopService, runLoopPort)
        keptAlive = objects
    default:
        say("unknown --api \(api): runloop or queue")
        exit(2)
    }
} catch {
    say("cannot listen: \(error)")
    exit(1)
}

say("listening on 127.0.0.1 port \(listeningPort) (\(api)); SIGTERM or SIGINT shuts down gracefully")
let group = ServiceGroup(services: [service], gracefulShutdownSignals: [.sigterm, .sigint], logger: logger)
try await group.run()
say("shut down: every connection closed")
if let totals {
    say("metrics:")
    for line in totals.totals.lines {
        say("  " + line)
    }
}
_ = keptAlive
