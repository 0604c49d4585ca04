// A line client on RunLoopSocket: connects to HOST:PORT, sends each line (from the command line, or
// else from standard input) with CR LF, waits for one reply line (ended by LF or CR LF) per line sent
// and prints it, then disconnects. With --greeting it first reads and prints the server's greeting.
// Every wait is bounded by --timeout: a connect or a reply that takes longer ends the program with
// status 1, as does a server that closes before the last reply.
//
//   swift run LineClient [--timeout 5] [--greeting] HOST PORT [LINE...]
//   swift run LineClient --greeting 127.0.0.1 8000 hello world      (against Examples/EchoServer)
import AsyncSocketKit
import Foundation

/// Prints a line at once, even into a pipe.
func say(_ line: String) {
    print(line)
    fflush(nil)
}

let greetingTag = 0
let replyTag = 1
let lineTag = 2

/// Sends the lines one at a time, each after the reply to the one before.
final class LineClient: RunLoopSocketDelegate {
    let socket = RunLoopSocket()
    let timeout: TimeInterval
    let expectsGreeting: Bool
    private var pending: [String]
    private var failure: String?
    /// The exit status once the client has finished, `nil` before.
    private(set) var status: Int32?

    init(lines: [String], timeout: TimeInterval, expectsGreeting: Bool) {
        pending = lines
        self.timeout = timeout
        self.expectsGreeting = expectsGreeting
        socket.delegate = self
    }

    func onSocket(_ sock: RunLoopSocket, didConnectToHost host: String, port: UInt16) {
        say("Connected to \(host):\(port)")
        if expectsGreeting {
            sock.readData(to: RunLoopSocket.lfData, withTimeout: timeout, tag: greetingTag)
        } else {
            sendNext(sock)
        }
    }

    func onSocket(_ sock: RunLoopSocket, didRead data: Data, withTag tag: Int) {
        var bytes = data[...]
        while let last = bytes.last, last == 0x0A || last == 0x0D {
            bytes = bytes.dropLast()
        }
        let line = String(decoding: bytes, as: UTF8.self)
        say(tag == greetingTag ? "Greeting: \(line)" : "Reply: \(line)")
        sendNext(sock)
    }

    private func sendNext(_ sock: RunLoopSocket) {
        guard !pending.isEmpty else {
            say("Done")
            sock.disconnect()
            return
        }
        let line = pending.removeFirst()
        say("Sent: \(line)")
        sock.write(Data((line + "\r\n").utf8), withTimeout: timeout, tag: lineTag)
        sock.readData(to: RunLoopSocket.lfData, withTimeout: timeout, tag: replyTag)
    }

    func onSocket(_ sock: RunLoopSocket, willDisconnectWithError error: (any Error)?) {
        failure = error.map { "\($0)" } ?? "the server closed the connection"
    }

    func onSocketDidDisconnect(_ sock: RunLoopSocket) {
        if let failure {
            say("Failed: \(failure)")
        }
        status = failure == nil ? 0 : 1
        EventRunLoop.current.stop()
    }
}

var timeout: TimeInterval = 5
var expectsGreeting = false
var positional: [String] = []
var arguments = CommandLine.arguments.dropFirst().makeIterator()
while let argument = arguments.next() {
    switch argument {
    case "--timeout": timeout = arguments.next().flatMap(TimeInterval.init) ?? timeout
    case "--greeting": expectsGreeting = true
    default: positional.append(argument)
    }
}
guard positional.count >= 2, let port = UInt16(positional[1]) else {
    say("usage: LineClient [--timeout SECONDS] [--greeting] HOST PORT [LINE...]")
    exit(2)
}
var lines = Array(positional.dropFirst(2))
if lines.isEmpty {
    while let line = readLine() {
        lines.append(line)
    }
}
let client = LineClient(lines: lines, timeout: timeout, expectsGreeting: expectsGreeting)
do {
    try client.socket.connectToHost(positional[0], onPort: port, withTimeout: timeout)
} catch {
    say("Could not connect: \(error)")
    exit(1)
}
EventRunLoop.current.run()
exit(client.status ?? 1)
