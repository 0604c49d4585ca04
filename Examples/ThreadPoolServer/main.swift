// A RunLoopSocket server that spreads its connections over worker threads, each running its own
// EventRunLoop. The listener lives on the main thread's loop; for every accepted socket it picks the
// next worker, round-robin, in onSocket(_:wantsRunLoopForNewSocket:), and from then on every callback
// of that connection arrives on the worker's thread, with the worker as its delegate. Each client is
// welcomed with its worker's number and gets its lines (LF or CRLF) echoed back.
//
//   swift run ThreadPoolServer [--port 8000] [--interface localhost] [--workers 4]
//   nc 127.0.0.1 8000
import AsyncSocketKit
import Foundation
import Synchronization

/// Prints a line at once, even into a pipe (print takes stdout's lock, so lines never mix).
func say(_ line: String) {
    print(line)
    fflush(nil)
}

let welcomeTag = 0
let echoTag = 1

/// A worker thread and the delegate of the connections it serves. Its callbacks run on its own
/// thread; `connections` is also filled from the listener's thread, hence the mutex.
final class Worker: RunLoopSocketDelegate, Sendable {
    let number: Int
    let thread: EventRunLoopThread
    private let connections = Mutex<[ObjectIdentifier: RunLoopSocket]>([:])

    init(number: Int) {
        self.number = number
        thread = EventRunLoopThread(name: "worker-\(number)")
    }

    /// Takes `socket` over, on the listener's thread, before the socket moves to this worker's loop.
    func adopt(_ socket: RunLoopSocket) {
        connections.withLock { $0[ObjectIdentifier(socket)] = socket }
        socket.delegate = self
    }

    func onSocket(_ sock: RunLoopSocket, didConnectToHost host: String, port: UInt16) {
        say("Worker \(number) serves client \(host):\(port)")
        sock.write(Data("Welcome, worker \(number) serves you\r\n".utf8), withTimeout: -1, tag: welcomeTag)
        sock.readData(to: RunLoopSocket.lfData, withTimeout: -1, tag: 0)
    }

    func onSocket(_ sock: RunLoopSocket, didRead data: Data, withTag tag: Int) {
        sock.write(data, withTimeout: -1, tag: echoTag)
        sock.readData(to: RunLoopSocket.lfData, withTimeout: -1, tag: 0)
    }

    func onSocket(_ sock: RunLoopSocket, willDisconnectWithError error: (any Error)?) {
        say("Worker \(number): client \(sock.connectedHost ?? "?"):\(sock.connectedPort) left")
    }

    func onSocketDidDisconnect(_ sock: RunLoopSocket) {
        _ = connections.withLock { $0.removeValue(forKey: ObjectIdentifier(sock)) }
    }
}

/// The listener's delegate, used on the main thread only: keeps each new socket until it is handed
/// to a worker, and hands them out in turn.
final class Dispatcher: RunLoopSocketDelegate {
    let listener = RunLoopSocket()
    let workers: [Worker]
    private var nextWorker = 0
    private var unassigned: [ObjectIdentifier: RunLoopSocket] = [:]

    init(workerCount: Int) {
        workers = (1...workerCount).map { Worker(number: $0) }
        listener.delegate = self
    }

    func start(interface: String?, port: UInt16) throws {
        try listener.acceptOnInterface(interface, port: port)
        say("Thread pool server with \(workers.count) workers started on port \(listener.localPort)")
    }

    func onSocket(_ sock: RunLoopSocket, didAcceptNewSocket newSocket: RunLoopSocket) {
        unassigned[ObjectIdentifier(newSocket)] = newSocket
    }

    func onSocket(_ sock: RunLoopSocket, wantsRunLoopForNewSocket newSocket: RunLoopSocket) -> EventRunLoop? {
        guard let socket = unassigned.removeValue(forKey: ObjectIdentifier(newSocket)) else { return nil }
        let worker = workers[nextWorker]
        nextWorker = (nextWorker + 1) % workers.count
        worker.adopt(socket)
        return worker.thread.loop
    }
}

var interface: String? = "localhost"
var port: UInt16 = 8000
var workerCount = 4
var arguments = CommandLine.arguments.dropFirst().makeIterator()
while let argument = arguments.next() {
    switch argument {
    case "--interface": interface = arguments.next()
    case "--port": port = arguments.next().flatMap(UInt16.init) ?? port
    case "--workers": workerCount = max(1, min(64, arguments.next().flatMap(Int.init) ?? workerCount))
    default:
        say("usage: ThreadPoolServer [--port N] [--interface NAME] [--workers 1...64]")
        exit(2)
    }
}
let dispatcher = Dispatcher(workerCount: workerCount)
do {
    try dispatcher.start(interface: interface, port: port)
} catch {
    say("Could not start: \(error)")
    exit(1)
}
EventRunLoop.current.run()
