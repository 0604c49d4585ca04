// An echo server on QueueSocket, for Benchmarks/Peers/run-peers.sh: raw echo on PORT (read what
// is available, write it back) and line echo on PORT+1 (read to "\n", write the line back). As GCD
// servers are written, each accepted connection gets its own serial queue (its socket queue, from
// newSocketQueueForConnection, and its delegate queue) and its own delegate object, whose state only
// that queue touches.
//
//   QueueEchoServer PORT
import AsyncSocketKit
import EchoServers
import Foundation

guard CommandLine.arguments.count >= 2, let port = UInt16(CommandLine.arguments[1]) else {
    print("usage: QueueEchoServer PORT")
    exit(2)
}
signal(SIGPIPE, SIG_IGN)
let raw = QueueEchoListener(lines: false)
let lines = QueueEchoListener(lines: true)
let rawListener = QueueSocket(delegate: raw, delegateQueue: raw.queue)
let lineListener = QueueSocket(delegate: lines, delegateQueue: lines.queue)
do {
    try rawListener.accept(onInterface: "127.0.0.1", port: port)
    try lineListener.accept(onInterface: "127.0.0.1", port: port + 1)
} catch {
    print("cannot listen: \(error)")
    exit(1)
}
dispatchMain()
