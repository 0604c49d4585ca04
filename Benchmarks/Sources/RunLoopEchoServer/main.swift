// An echo server on RunLoopSocket (native engine unless --engine says otherwise), for
// Benchmarks/Peers/run-peers.sh and Benchmarks/scripts/udp-echo.sh:
// raw echo on PORT (read what is available, write it back) and line echo on PORT+1 (read to "\n",
// write the line back), and UDP echo on PORT (RunLoopUdpSocket on the same engine; every datagram
// sent back). One EventRunLoop thread, TCP_NODELAY like the peers. With --metrics the TCP sockets
// count into a SocketMetrics on swift-metrics' default factory (not bootstrapped: no-op handlers),
// which shows what the library's own counting costs.
//
//   RunLoopEchoServer PORT [--engine native|queue-core] [--metrics]
import AsyncSocketKit
import EchoServers
import Foundation

let arguments = Array(CommandLine.arguments.dropFirst())
let engineName = arguments.firstIndex(of: "--engine").flatMap {
    arguments.indices.contains($0 + 1) ? arguments[$0 + 1] : nil
}
guard let portArgument = arguments.first, let port = UInt16(portArgument),
    let engine = RunLoopSocket.Engine(rawValue: engineName ?? "native")
else {
    print("usage: RunLoopEchoServer PORT [--engine native|queue-core] [--metrics]")
    exit(2)
}
signal(SIGPIPE, SIG_IGN)
let raw = RunLoopEchoDelegate(lines: false)
let lines = RunLoopEchoDelegate(lines: true)
let metrics = arguments.contains("--metrics") ? SocketMetrics() : nil
let rawListener = RunLoopSocket(delegate: raw, engine: engine, metrics: metrics)
let lineListener = RunLoopSocket(delegate: lines, engine: engine, metrics: metrics)
let udpEcho = RunLoopUdpEchoDelegate()
let udpSocket = RunLoopUdpSocket(delegate: udpEcho, families: .ipv4Only, engine: engine)
udpSocket.maxReceiveBufferSize = 65_507
do {
    try rawListener.acceptOnInterface("127.0.0.1", port: port)
    try lineListener.acceptOnInterface("127.0.0.1", port: port + 1)
    try udpSocket.bind(toAddress: "127.0.0.1", port: port)
    udpSocket.receive(withTimeout: -1, tag: 0)
} catch {
    print("cannot listen: \(error)")
    exit(1)
}
EventRunLoop.current.run()
