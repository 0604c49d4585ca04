// A UDP echo server on QueueUdpSocket, written as GCDAsyncUdpSocket programs are: the socket receives
// continuously and hands each datagram to the delegate queue, which sends it back to the address it
// came from. With --count N it closes once the Nth answer is sent.
//
//   swift run QueueUdpEchoServer [--port 9001] [--interface 127.0.0.1] [--count N]
//   echo hello | nc -u -w1 127.0.0.1 9001
import AsyncSocketKit
import Dispatch
import Foundation

/// Prints a line at once, even into a pipe.
func say(_ line: String) {
    print(line)
    fflush(nil)
}

final class QueueUdpEchoServer: QueueUdpSocketDelegate, @unchecked Sendable {
    // @unchecked Sendable: `remaining` is touched on `queue`, the delegate queue, only.
    let queue = DispatchQueue(label: "QueueUdpEchoServer")
    private(set) var socket: QueueUdpSocket!
    /// Datagrams left to echo before closing (`nil`: echo for good).
    private var remaining: Int?

    init(count: Int?) {
        remaining = count
        socket = QueueUdpSocket(delegate: self, delegateQueue: queue)
    }

    func start(interface: String?, port: UInt16) throws {
        try socket.bind(toPort: port, interface: interface)
        say("UDP echo server started on port \(socket.localPort)")
        try socket.beginReceiving()
    }

    func udpSocket(
        _ sock: QueueUdpSocket, didReceive data: Data, fromAddress address: Data,
        withFilterContext filterContext: (any Sendable)?
    ) {
        say(
            "Received \(data.count) bytes from \(QueueSocket.host(fromAddress: address) ?? "?"):\(QueueSocket.port(fromAddress: address))"
        )
        sock.send(data, toAddress: address, withTimeout: 5, tag: 0)
        if let left = remaining {
            remaining = left - 1
            if left == 1 {
                sock.pauseReceiving()
                sock.closeAfterSending()
            }
        }
    }

    func udpSocket(_ sock: QueueUdpSocket, didNotSendDataWithTag tag: Int, dueToError error: (any Error)?) {
        say("Could not echo: \(error?.localizedDescription ?? "unknown error")")
    }

    func udpSocketDidClose(_ sock: QueueUdpSocket, withError error: (any Error)?) {
        say(error.map { "Closed: \($0.localizedDescription)" } ?? "Closed")
        exit(error == nil ? 0 : 1)
    }
}

var interface: String?
var port: UInt16 = 9001
var count: Int?
var arguments = CommandLine.arguments.dropFirst().makeIterator()
while let argument = arguments.next() {
    switch argument {
    case "--interface": interface = arguments.next()
    case "--port": port = arguments.next().flatMap(UInt16.init) ?? port
    case "--count": count = arguments.next().flatMap(Int.init).map { max($0, 1) }
    default:
        say("usage: QueueUdpEchoServer [--port N] [--interface ADDRESS] [--count N]")
        exit(2)
    }
}
let server = QueueUdpEchoServer(count: count)
do {
    try server.start(interface: interface, port: port)
} catch {
    say("Could not start: \(error)")
    exit(1)
}
dispatchMain()
