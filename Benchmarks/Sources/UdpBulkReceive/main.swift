import AsyncSocketKit
import Dispatch
import Foundation

// A bulk UDP receiver, to measure receive coalescing (UDP_GRO) against one datagram per read:
//
//   UdpBulkReceive PORT [--face queue|runloop] [--coalescing] [--seconds S]
//
// Binds 127.0.0.1:PORT and receives (QueueUdpSocket: `beginReceiving()`; RunLoopUdpSocket: the next
// receive queued from each completed one, 8 queued), counting datagrams and bytes, until 0.5 s pass
// without one after the first, or S seconds (default 30) in all. Send to it with `UdpBulkSend PORT
// --segments 44`: each segmented send reaches a coalescing socket on loopback as one buffer. Prints one
// line, from the first datagram to the last:
//   "face=queue coalescing=1 datagrams=812345 bytes=1137283000 secs=1.234 dgram_s=658000 cpu_s=1.101 cpu_ns_per_dgram=1355"
// Datagrams the receiver could not keep up with are dropped by the kernel; the sender's count minus this
// one is the loss. Used by Benchmarks/UDP.md.

struct Options {
    var port: UInt16 = 0
    var face = "queue"
    var coalescing = false
    var seconds = 30.0

    init(_ arguments: [String]) {
        var rest = arguments[...]
        while let argument = rest.popFirst() {
            switch argument {
            case "--face": face = rest.popFirst() ?? face
            case "--coalescing": coalescing = true
            case "--seconds": seconds = rest.popFirst().flatMap { Double($0) } ?? seconds
            default: port = UInt16(argument) ?? port
            }
        }
    }
}

let options = Options(Array(CommandLine.arguments.dropFirst()))
guard options.port != 0 else {
    FileHandle.standardError.write(Data("usage: UdpBulkReceive PORT [--face queue|runloop] [--coalescing]\n".utf8))
    exit(2)
}

func cpuSeconds() -> Double {
    var usage = rusage()
    getrusage(RUSAGE_SELF.rawValue, &usage)
    return Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec)
        + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6
}

/// What was received: counts and the times of the first and last datagram, with the CPU time then.
final class Tally: @unchecked Sendable {
    // @unchecked Sendable: touched on one queue (QueueUdpSocket's delegate queue) or one loop thread only.
    var datagrams = 0
    var bytes = 0
    var first: (wall: Date, cpu: Double)?
    var last: (wall: Date, cpu: Double)?

    func count(_ data: Data) {
        if first == nil { first = (Date(), cpuSeconds()) }
        datagrams += 1
        bytes += data.count
        if datagrams % 1024 == 0 { last = (Date(), cpuSeconds()) }
    }

    /// Whether the stream is over: something came, and nothing for 0.5 s.
    var idle: Bool {
        guard let first else { return false }
        return Date().timeIntervalSince(last?.wall ?? first.wall) > 0.5
    }
}

final class QueueReceiver: QueueUdpSocketDelegate, @unchecked Sendable {
    // @unchecked Sendable: `tally` is touched on `queue` only.
    let queue = DispatchQueue(label: "UdpBulkReceive")
    let tally = Tally()

    func udpSocket(
        _ sock: QueueUdpSocket, didReceive data: Data, fromAddress address: Data,
        withFilterContext filterContext: (any Sendable)?
    ) {
        tally.count(data)
    }
}

final class LoopReceiver: RunLoopUdpSocketDelegate {
    let tally = Tally()

    func onUdpSocket(
        _ sock: RunLoopUdpSocket, didReceive data: Data, withTag tag: Int, fromHost host: String, port: UInt16
    ) -> Bool {
        tally.count(data)
        sock.receive(withTimeout: -1, tag: 0)
        return true
    }
}

let deadline = Date().addingTimeInterval(options.seconds)
var tally: Tally
switch options.face {
case "runloop":
    let receiver = LoopReceiver()
    let socket = RunLoopUdpSocket(delegate: receiver, families: .ipv4Only)
    try socket.bind(toAddress: "127.0.0.1", port: options.port)
    if options.coalescing { try socket.enableReceiveCoalescing(true) }
    for _ in 0..<8 { socket.receive(withTimeout: -1, tag: 0) }
    while !receiver.tally.idle, Date() < deadline {
        _ = EventRunLoop.current.run(mode: .default, before: Date().addingTimeInterval(0.1))
    }
    socket.close()
    tally = receiver.tally
default:
    let receiver = QueueReceiver()
    let socket = QueueUdpSocket(delegate: receiver, delegateQueue: receiver.queue)
    try socket.bind(toPort: options.port, interface: "127.0.0.1")
    if options.coalescing { try socket.enableReceiveCoalescing(true) }
    try socket.beginReceiving()
    while !receiver.queue.sync(execute: { receiver.tally.idle }), Date() < deadline {
        Thread.sleep(forTimeInterval: 0.1)
    }
    socket.close()
    tally = receiver.queue.sync { receiver.tally }
}
guard let first = tally.first, let last = tally.last else {
    print("face=\(options.face) datagrams=\(tally.datagrams): too few to time")
    exit(1)
}
let seconds = last.wall.timeIntervalSince(first.wall)
let cpu = last.cpu - first.cpu
print(
    "face=\(options.face) coalescing=\(options.coalescing ? 1 : 0) datagrams=\(tally.datagrams) bytes=\(tally.bytes)"
        + " secs=\(String(format: "%.3f", seconds)) dgram_s=\(Int(Double(tally.datagrams) / max(seconds, 1e-9)))"
        + " cpu_s=\(String(format: "%.3f", cpu)) cpu_ns_per_dgram=\(Int(cpu / Double(max(tally.datagrams, 1)) * 1e9))")
