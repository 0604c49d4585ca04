// Run-loop modes and a modal run. In the default mode a timer ticks every 100 ms and a client
// RunLoopSocket pings an echo server (both sockets in the default mode). At the third tick a "modal
// dialog" runs the loop in a mode of its own until the dialog's timer answers: meanwhile the ticks,
// the ping and its echo are frozen — only a clock registered in the common modes (to which the
// dialog's mode was added) keeps firing. When the dialog closes, the default mode takes up where it
// left off: the missed ticks fire once, and the ping sent before the dialog is echoed. Everything
// is printed in order; the program ends by itself in about a second.
//
//   swift run ModalRunDemo
import AsyncSocketKit
import Foundation

let dialogMode = RunLoopMode("com.example.modal-dialog")
let started = Date()

/// Prints a line at once, stamped with the milliseconds since the start and who speaks.
func say(_ who: String, _ text: String) {
    print(String(format: "%5.0f ms  ", Date().timeIntervalSince(started) * 1000) + "[\(who)] \(text)")
    fflush(nil)
}

/// The echo server: a listener and its accepted sockets, all in the default mode.
final class EchoServer: RunLoopSocketDelegate {
    let listener = RunLoopSocket()
    private var connections: [RunLoopSocket] = []

    init() {
        listener.delegate = self
    }

    func onSocket(_ sock: RunLoopSocket, didAcceptNewSocket newSocket: RunLoopSocket) {
        connections.append(newSocket)
    }

    func onSocket(_ sock: RunLoopSocket, didConnectToHost host: String, port: UInt16) {
        sock.readData(to: RunLoopSocket.lfData, withTimeout: -1, tag: 0)
    }

    func onSocket(_ sock: RunLoopSocket, didRead data: Data, withTag tag: Int) {
        say("default", "server echoes \(String(decoding: data.dropLast(), as: UTF8.self).debugDescription)")
        sock.write(data, withTimeout: -1, tag: 0)
        sock.readData(to: RunLoopSocket.lfData, withTimeout: -1, tag: 0)
    }

    func stop() {
        for connection in connections {
            connection.disconnect()
        }
        listener.disconnect()
    }
}

/// The client: sends a ping on every tick, prints every echo.
final class Pinger: RunLoopSocketDelegate {
    let socket = RunLoopSocket()

    init() {
        socket.delegate = self
    }

    func onSocket(_ sock: RunLoopSocket, didConnectToHost host: String, port: UInt16) {
        say("default", "client connected")
        sock.readData(to: RunLoopSocket.lfData, withTimeout: -1, tag: 0)
    }

    func ping(_ number: Int) {
        say("default", "client sends \"ping \(number)\"")
        socket.write(Data("ping \(number)\n".utf8), withTimeout: -1, tag: 0)
    }

    func onSocket(_ sock: RunLoopSocket, didRead data: Data, withTag tag: Int) {
        say("default", "client got the echo \(String(decoding: data.dropLast(), as: UTF8.self).debugDescription)")
        sock.readData(to: RunLoopSocket.lfData, withTimeout: -1, tag: 0)
    }
}

/// Runs the loop in the dialog's mode until the dialog's own timer answers (at most two seconds),
/// one pass at a time, printing what each pass returned.
func runModalDialog(_ loop: EventRunLoop) {
    say("modal", "dialog opens: the loop runs only \(dialogMode) until it is answered")
    var answered = false
    loop.addTimer(after: 0.35, modes: [dialogMode]) { _ in
        say("modal", "the dialog's timer fires: the user clicked OK")
        answered = true
    }
    let deadline = Date(timeIntervalSinceNow: 2)
    while !answered && Date() < deadline {
        let result = loop.run(mode: dialogMode, before: deadline)
        say("modal", "run(mode: dialog) returned \(result)")
    }
    say("modal", "dialog closed: back in the default mode")
}

let loop = EventRunLoop.current
loop.addCommonMode(dialogMode)
let server = EchoServer()
let pinger = Pinger()
do {
    try server.listener.acceptOnInterface("127.0.0.1", port: 0)
    try pinger.socket.connectToHost("127.0.0.1", onPort: server.listener.localPort, withTimeout: 2)
} catch {
    say("main", "could not start: \(error)")
    exit(1)
}

var clockCount = 0
let clock = loop.addTimer(after: 0.15, repeating: 0.15, modes: [.common]) { _ in
    clockCount += 1
    say("common", "clock \(clockCount) fires in mode \(loop.currentMode?.rawValue ?? "none")")
}
var tickCount = 0
loop.addTimer(after: 0.1, repeating: 0.1, modes: [.default]) { ticker in
    tickCount += 1
    say("default", "tick \(tickCount)")
    switch tickCount {
    case 1...3:
        pinger.ping(tickCount)
        if tickCount == 3 {
            runModalDialog(loop)
        }
    case 6:
        ticker.invalidate()
        clock.invalidate()
        pinger.socket.disconnect()
        server.stop()
        loop.stop()
    default:
        break
    }
}
loop.run()
say("main", "done")
