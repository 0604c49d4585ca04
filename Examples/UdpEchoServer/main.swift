// A UDP echo server on RunLoopUdpSocket, written as AsyncUdpSocket programs were: one receive queued
// at a time; each datagram is sent back to where it came from, and the next receive is queued.
//
//   swift run UdpEchoServer [--port 9000] [--interface 127.0.0.1] [--count N]
//   echo hello | nc -u -w1 127.0.0.1 9000
import AsyncSocketKit
import Foundation

/// Prints a line at once, even into a pipe.
func say(_ line: String) {
    print(line)
    fflush(nil)
}

final class UdpEchoServer: RunLoopUdpSocketDelegate {
    let socket: RunLoopUdpSocket
    /// Datagrams left to echo before closing (`nil`: echo for good).
    private var remaining: Int?

    init(count: Int?) {
        remaining = count
        socket = RunLoopUdpSocket()
        socket.delegate = self
    }

    func start(interface: String?, port: UInt16) throws {
        try socket.bind(toAddress: interface, port: port)
        say("UDP echo server started on port \(socket.localPort)")
        socket.receive(withTimeout: -1, tag: 0)
    }

    func onUdpSocket(
        _ sock: RunLoopUdpSocket, didReceive data: Data, withTag tag: Int, fromHost host: String, port: UInt16
    ) -> Bool {
        say("Received \(data.count) bytes from \(host):\(port)")
        sock.send(data, toHost: host, port: port, withTimeout: 5, tag: 0)
        if let left = remaining {
            remaining = left - 1
            if left == 1 {
                sock.closeAfterSending()
                return true
            }
        }
        sock.receive(withTimeout: -1, tag: 0)
        return true
    }

    func onUdpSocket(_ sock: RunLoopUdpSocket, didNotSendDataWithTag tag: Int, dueToError error: any Error) {
        say("Could not echo: \(error.localizedDescription)")
    }

    func onUdpSocket(_ sock: RunLoopUdpSocket, didNotReceiveDataWithTag tag: Int, dueToError error: any Error) {
        say("Receive failed: \(error.localizedDescription)")
        sock.receive(withTimeout: -1, tag: 0)
    }

    func onUdpSocketDidClose(_ sock: RunLoopUdpSocket) {
        say("Closed")
        exit(0)
    }
}

var interface: String?
var port: UInt16 = 9000
var count: Int?
var arguments = CommandLine.arguments.dropFirst().makeIterator()
while let argument = arguments.next() {
    switch argument {
    case "--interface": interface = arguments.next()
    case "--port": port = arguments.next().flatMap(UInt16.init) ?? port
    case "--count": count = arguments.next().flatMap(Int.init).map { max($0, 1) }
    default:
        say("usage: UdpEchoServer [--port N] [--interface ADDRESS] [--count N]")
        exit(2)
    }
}
let server = UdpEchoServer(count: count)
do {
    try server.start(interface: interface, port: port)
} catch {
    say("Could not start: \(error)")
    exit(1)
}
EventRunLoop.current.run()
