// The classic AsyncSocket EchoServer sample, ported to RunLoopSocket: a welcome line, then every
// CRLF-terminated line echoed back; a client silent for 15 s is warned once and given 10 s more,
// then disconnected.
//
//   swift run EchoServer [--port 8000] [--interface localhost] [--timeout 15] [--extension 10]
//   nc 127.0.0.1 8000
import AsyncSocketKit
import Foundation

/// Prints a line at once, even into a pipe.
func say(_ line: String) {
    print(line)
    fflush(nil)
}

let welcomeTag = 0
let echoTag = 1
let warningTag = 2

final class EchoServer: RunLoopSocketDelegate {
    let listener: RunLoopSocket
    let readTimeout: TimeInterval
    let timeoutExtension: TimeInterval
    private var connections: [RunLoopSocket] = []

    init(readTimeout: TimeInterval, timeoutExtension: TimeInterval) {
        self.readTimeout = readTimeout
        self.timeoutExtension = timeoutExtension
        listener = RunLoopSocket()
        listener.delegate = self
    }

    func start(interface: String?, port: UInt16) throws {
        try listener.acceptOnInterface(interface, port: port)
        say("Echo server started on port \(listener.localPort)")
    }

    func onSocket(_ sock: RunLoopSocket, didAcceptNewSocket newSocket: RunLoopSocket) {
        connections.append(newSocket)
    }

    func onSocket(_ sock: RunLoopSocket, didConnectToHost host: String, port: UInt16) {
        say("Accepted client \(host):\(port)")
        sock.write(Data("Welcome to the AsyncSocket Echo Server\r\n".utf8), withTimeout: -1, tag: welcomeTag)
        sock.readData(to: RunLoopSocket.crlfData, withTimeout: readTimeout, tag: 0)
    }

    func onSocket(_ sock: RunLoopSocket, didWriteDataWithTag tag: Int) {
        if tag == echoTag {
            sock.readData(to: RunLoopSocket.crlfData, withTimeout: readTimeout, tag: 0)
        }
    }

    func onSocket(_ sock: RunLoopSocket, didRead data: Data, withTag tag: Int) {
        let line = String(decoding: data.dropLast(2), as: UTF8.self)
        say("Received: \(line)")
        sock.write(data, withTimeout: -1, tag: echoTag)
    }

    func onSocket(
        _ sock: RunLoopSocket, shouldTimeoutReadWithTag tag: Int, elapsed: TimeInterval, bytesDone length: Int
    ) -> TimeInterval {
        guard elapsed <= readTimeout else { return 0 }
        sock.write(Data("Are you still there?\r\n".utf8), withTimeout: -1, tag: warningTag)
        return timeoutExtension
    }

    func onSocket(_ sock: RunLoopSocket, willDisconnectWithError error: (any Error)?) {
        say(
            "Client \(sock.connectedHost ?? "?"):\(sock.connectedPort) disconnecting: \(error.map { "\($0)" } ?? "closed")"
        )
    }

    func onSocketDidDisconnect(_ sock: RunLoopSocket) {
        connections.removeAll { $0 === sock }
    }
}

var interface: String?
var port: UInt16 = 8000
var timeout: TimeInterval = 15
var timeoutExtension: TimeInterval = 10
var arguments = CommandLine.arguments.dropFirst().makeIterator()
while let argument = arguments.next() {
    switch argument {
    case "--interface": interface = arguments.next()
    case "--port": port = arguments.next().flatMap(UInt16.init) ?? port
    case "--timeout": timeout = arguments.next().flatMap(TimeInterval.init) ?? timeout
    case "--extension": timeoutExtension = arguments.next().flatMap(TimeInterval.init) ?? timeoutExtension
    default:
        say("usage: EchoServer [--port N] [--interface NAME] [--timeout SECONDS] [--extension SECONDS]")
        exit(2)
    }
}
let server = EchoServer(readTimeout: timeout, timeoutExtension: timeoutExtension)
do {
    try server.start(interface: interface, port: port)
} catch {
    say("Could not start: \(error)")
    exit(1)
}
EventRunLoop.current.run()
