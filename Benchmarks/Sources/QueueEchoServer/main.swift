// An echo server on QueueSocket, for Benchmarks/Peers/run-peers.sh: raw echo on PORT (read what
// is available, write it back) and line echo on PORT+1 (read to "\n", write the line back). As GCD
// servers are written, each accepted connection gets its own serial queue (its socket queue, from
// newSocketQueueForConnection, and its delegate queue) and its own delegate object, whose state only
// that queue touches. UDP echo on PORT: a QueueUdpSocket receiving continuously, every datagram sent
// back to its sender. With --metrics the TCP sockets count into a SocketMetrics on swift-metrics'
// default factory (not bootstrapped: no-op handlers), which shows what the library's own counting
// costs.
//
//   QueueEchoServer PORT [--udp-queue-targets-delegate-queue] [--metrics]
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
let metrics = CommandLine.arguments.contains("--metrics") ? SocketMetrics() : nil
let rawListener = QueueSocket(delegate: raw, delegateQueue: raw.queue, metrics: metrics)
let lineListener = QueueSocket(delegate: lines, delegateQueue: lines.queue, metrics: metrics)
let udpEcho = QueueUdpEchoDelegate()
let udpSocket: QueueUdpSocket
if CommandLine.arguments.contains("--udp-queue-targets-delegate-queue") {
    // GCD's way to keep a socket and its delegate on one thread: the socket queue targets the delegate
    // queue, which is marked so the delegate's calls into the socket run inline.
    udpSocket = try QueueUdpSocket(
        delegate: udpEcho, delegateQueue: udpEcho.queue,
        socketQueue: DispatchQueue(label: "QueueUdpEcho.socket", target: udpEcho.queue))
    udpSocket.markSocketQueueTargetQueue(udpEcho.queue)
} else {
    udpSocket = QueueUdpSocket(delegate: udpEcho, delegateQueue: udpEcho.queue)
}
do {
    try rawListener.accept(onInterface: "127.0.0.1", port: port)
    try lineListener.accept(onInterface: "127.0.0.1", port: port + 1)
    try udpSocket.bind(toPort: port, interface: "127.0.0.1")
    try udpSocket.beginReceiving()
} catch {
    print("cannot listen: \(error)")
    exit(1)
}
dispatchMain()
