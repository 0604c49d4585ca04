// LAN discovery as AsyncUdpSocket programs did it: responders join a multicast group and answer each
// "WHO IS THERE?" with a unicast "HERE <name>" to the asker; a seeker sends the question to the group
// and prints the answers that come within a time limit.
//
//   swift run LanDiscovery responder --name printer-1 [--group 239.255.77.1] [--port 47777] [--interface 127.0.0.1]
//   swift run LanDiscovery seeker [--group 239.255.77.1] [--port 47777] [--interface 127.0.0.1] [--wait 1]
//
// `--interface` is the local address of the interface the group lives on (127.0.0.1 keeps everything
// on this machine).
import AsyncSocketKit
import Foundation

/// Prints a line at once, even into a pipe.
func say(_ line: String) {
    print(line)
    fflush(nil)
}

let question = Data("WHO IS THERE?".utf8)

/// Joins the group and answers every question, for good.
final class Responder: RunLoopUdpSocketDelegate {
    let socket = RunLoopUdpSocket(families: .ipv4Only)
    let name: String

    init(name: String) {
        self.name = name
        socket.delegate = self
    }

    func start(group: String, port: UInt16, interface: String) throws {
        try socket.bind(toPort: port)
        try socket.joinMulticastGroup(group, withAddress: interface)
        say("Responder \(name) listening on \(group):\(socket.localPort)")
        socket.receive(withTimeout: -1, tag: 0)
    }

    func onUdpSocket(
        _ sock: RunLoopUdpSocket, didReceive data: Data, withTag tag: Int, fromHost host: String, port: UInt16
    ) -> Bool {
        // Anything but the question is not for us: answer false, and the same receive waits on.
        guard data == question else { return false }
        say("Question from \(host):\(port)")
        sock.send(Data("HERE \(name)".utf8), toHost: host, port: port, withTimeout: 5, tag: 0)
        sock.receive(withTimeout: -1, tag: 0)
        return true
    }
}

/// Asks the group once and prints every answer until no answer comes for `wait` seconds.
final class Seeker: RunLoopUdpSocketDelegate {
    let socket = RunLoopUdpSocket(families: .ipv4Only)
    let wait: TimeInterval
    private(set) var answers: [String] = []

    init(wait: TimeInterval) {
        self.wait = wait
        socket.delegate = self
    }

    func start(group: String, port: UInt16, interface: String) throws {
        try socket.bind(toAddress: interface, port: 0)
        try socket.setMulticastInterface(interface)
        guard socket.send(question, toHost: group, port: port, withTimeout: 5, tag: 0) else {
            throw AsyncUdpSocketError(.badParameter, message: "Cannot send to \(group)")
        }
        socket.receive(withTimeout: wait, tag: 1)
    }

    func onUdpSocket(
        _ sock: RunLoopUdpSocket, didReceive data: Data, withTag tag: Int, fromHost host: String, port: UInt16
    ) -> Bool {
        let answer = String(decoding: data, as: UTF8.self)
        say("Answer from \(host):\(port): \(answer)")
        answers.append(answer)
        sock.receive(withTimeout: wait, tag: 1)
        return true
    }

    func onUdpSocket(_ sock: RunLoopUdpSocket, didNotReceiveDataWithTag tag: Int, dueToError error: any Error) {
        say("\(answers.count) answer(s)")
        exit(answers.isEmpty ? 1 : 0)
    }

    func onUdpSocket(_ sock: RunLoopUdpSocket, didNotSendDataWithTag tag: Int, dueToError error: any Error) {
        say("Could not ask: \(error.localizedDescription)")
        exit(1)
    }
}

let usage =
    "usage: LanDiscovery responder --name NAME | seeker [--wait SECONDS]  [--group ADDRESS] [--port N] "
    + "[--interface ADDRESS]"
var arguments = CommandLine.arguments.dropFirst().makeIterator()
let role = arguments.next()
var name = "responder"
var group = "239.255.77.1"
var port: UInt16 = 47777
var interface = "127.0.0.1"
var wait: TimeInterval = 1
while let argument = arguments.next() {
    switch argument {
    case "--name": name = arguments.next() ?? name
    case "--group": group = arguments.next() ?? group
    case "--port": port = arguments.next().flatMap(UInt16.init) ?? port
    case "--interface": interface = arguments.next() ?? interface
    case "--wait": wait = arguments.next().flatMap(TimeInterval.init) ?? wait
    default:
        say(usage)
        exit(2)
    }
}
do {
    switch role {
    case "responder":
        let responder = Responder(name: name)
        try responder.start(group: group, port: port, interface: interface)
        EventRunLoop.current.run()
    case "seeker":
        let seeker = Seeker(wait: wait)
        try seeker.start(group: group, port: port, interface: interface)
        EventRunLoop.current.run()
    default:
        say(usage)
        exit(2)
    }
} catch {
    say("Could not start: \(error)")
    exit(1)
}
