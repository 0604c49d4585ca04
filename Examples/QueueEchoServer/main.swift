// The classic EchoServer sample on QueueSocket: the same welcome line, CRLF lines echoed back, and a
// silent client warned once after 15 s and given 10 s more, then disconnected. Every delegate call
// arrives on one serial delegate queue, which is also the only place the server's state is touched.
//
//   swift run QueueEchoServer [--port 8000] [--interface localhost] [--timeout 15] [--extension 10]
//   nc 127.0.0.1 8000
import AsyncSocketKit
import Dispatch
import Foundation

/// Prints a line at once, even into a pipe.
func say(_ line: String) {
    print(line)
    fflush(nil)
}

let welcomeTag = 0
let echoTag = 1
let warningTag = 2

/// The server: a listening QueueSocket and its accepted connections, all used on `delegateQueue`.
final class QueueEchoServer: QueueSocketDelegate, @unchecked Sendable {
    let delegateQueue = DispatchQueue(label: "QueueEchoServer.delegate")
    let readTimeout: TimeInterval
    let timeoutExtension: TimeInterval
    private var listener: QueueSocket?
    private var connections: [ObjectIdentifier: (socket: QueueSocket, client: String)] = [:]

    init(readTimeout: TimeInterval, timeoutExtension: TimeInterval) {
        self.readTimeout = readTimeout
        self.timeoutExtension = timeoutExtension
    }

    func start(interface: String?, port: UInt16) throws {
        let listener = QueueSocket(delegate: self, delegateQueue: delegateQueue)
        try listener.accept(onInterface: interface, port: port)
        delegateQueue.sync { self.listener = listener }
        say("Echo server started on port \(listener.localPort)")
    }

    // Accepted sockets are connected already: QueueSocket never calls didConnectToHost for them.
    func socket(_ sock: QueueSocket, didAcceptNewSocket newSocket: QueueSocket) {
        let client = "\(newSocket.connectedHost ?? "?"):\(newSocket.connectedPort)"
        connections[ObjectIdentifier(newSocket)] = (newSocket, client)
        say("Accepted client \(client)")
        newSocket.write(Data("Welcome to the AsyncSocket Echo Server\r\n".utf8), withTimeout: -1, tag: welcomeTag)
        newSocket.readData(to: QueueSocket.crlfData, withTimeout: readTimeout, tag: 0)
    }

    func socket(_ sock: QueueSocket, didWriteDataWithTag tag: Int) {
        if tag == echoTag {
            sock.readData(to: QueueSocket.crlfData, withTimeout: readTimeout, tag: 0)
        }
    }

    func socket(_ sock: QueueSocket, didRead data: Data, withTag tag: Int) {
        let line = String(decoding: data.dropLast(2), as: UTF8.self)
        say("Received: \(line)")
        sock.write(data, withTimeout: -1, tag: echoTag)
    }

    func socket(
        _ sock: QueueSocket, shouldTimeoutReadWithTag tag: Int, elapsed: TimeInterval, bytesDone length: Int
    ) -> TimeInterval {
        guard elapsed <= readTimeout else { return 0 }
        sock.write(Data("Are you still there?\r\n".utf8), withTimeout: -1, tag: warningTag)
        return timeoutExtension
    }

    func socketDidDisconnect(_ sock: QueueSocket, withError error: (any Error)?) {
        guard let connection = connections.removeValue(forKey: ObjectIdentifier(sock)) else { return }
        say("Client \(connection.client) disconnected: \(error.map { "\($0)" } ?? "closed")")
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
        say("usage: QueueEchoServer [--port N] [--interface NAME] [--timeout SECONDS] [--extension SECONDS]")
        exit(2)
    }
}
let server = QueueEchoServer(readTimeout: timeout, timeoutExtension: timeoutExtension)
do {
    try server.start(interface: interface, port: port)
} catch {
    say("Could not start: \(error)")
    exit(1)
}
dispatchMain()
