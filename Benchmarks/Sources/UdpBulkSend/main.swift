import AsyncSocketKit
import Dispatch
import Foundation

// A bulk UDP sender, to measure segmented sends (UDP_SEGMENT) against one datagram per send:
//
//   UdpBulkSend PORT [--face queue|runloop] [--segments K] [--datagrams N] [--size BYTES]
//
// Sends N datagrams of BYTES bytes (default 200,000 × 1,400) to 127.0.0.1:PORT, K per call (default 1: a
// plain send each; K > 1: `send(_:segmentSize:…)` with K × BYTES bytes, cut by the kernel), keeping 8 calls
// in flight, each next one started from the previous one's `didSendDataWithTag`. Prints one line:
//   "face=queue segments=44 datagrams=200000 secs=0.412 dgram_s=485000 cpu_s=0.398 failed=0"
// Nothing reads the datagrams here; the receiver (any UDP socket on PORT, or none: the kernel then drops
// them) does not slow the sender. Used by Benchmarks/UDP.md.

struct Options {
    var port: UInt16 = 0
    var face = "queue"
    var segments = 1
    var datagrams = 200_000
    var size = 1400

    init(_ arguments: [String]) {
        var rest = arguments[...]
        while let argument = rest.popFirst() {
            switch argument {
            case "--face": face = rest.popFirst() ?? face
            case "--segments": segments = rest.popFirst().flatMap { Int($0) } ?? segments
            case "--datagrams": datagrams = rest.popFirst().flatMap { Int($0) } ?? datagrams
            case "--size": size = rest.popFirst().flatMap { Int($0) } ?? size
            default: port = UInt16(argument) ?? port
            }
        }
    }
}

let options = Options(Array(CommandLine.arguments.dropFirst()))
guard options.port != 0, options.segments >= 1, options.size >= 1 else {
    FileHandle.standardError.write(Data("usage: UdpBulkSend PORT [--face queue|runloop] [--segments K]\n".utf8))
    exit(2)
}
let calls = (options.datagrams + options.segments - 1) / options.segments
let chunk = Data(repeating: 0x42, count: options.size * options.segments)
let inFlight = 8
let host = "127.0.0.1"

func cpuSeconds() -> Double {
    var usage = rusage()
    getrusage(RUSAGE_SELF.rawValue, &usage)
    return Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec)
        + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6
}

/// Counts the calls reported and starts the next ones; `finished` once every call was reported.
final class Pacer: @unchecked Sendable {
    // @unchecked Sendable: touched on one queue (QueueUdpSocket's delegate queue) or one loop thread only.
    var started = 0
    var reported = 0
    var failed = 0
    var finished: Bool { reported == calls }

    /// Starts the next call, if any is left: `segmented` with `--segments` above 1, else `plain`.
    func next(segmented: (Int) -> Void, plain: (Int) -> Void) {
        guard started < calls else { return }
        started += 1
        options.segments > 1 ? segmented(started) : plain(started)
    }
}

final class QueueSender: QueueUdpSocketDelegate, @unchecked Sendable {
    // @unchecked Sendable: `pacer` is touched on `queue` only; `done` is a semaphore.
    let queue = DispatchQueue(label: "UdpBulkSend")
    let pacer = Pacer()
    let done = DispatchSemaphore(value: 0)

    func start(_ sock: QueueUdpSocket) {
        queue.async { [self] in
            for _ in 0..<inFlight { sendNext(sock) }
        }
    }

    func sendNext(_ sock: QueueUdpSocket) {
        pacer.next(
            segmented: {
                sock.send(chunk, segmentSize: options.size, toHost: host, port: options.port, withTimeout: -1, tag: $0)
            },
            plain: { sock.send(chunk, toHost: host, port: options.port, withTimeout: -1, tag: $0) })
    }

    func report(_ sock: QueueUdpSocket, failed: Bool) {
        pacer.reported += 1
        if failed { pacer.failed += 1 }
        if pacer.finished {
            done.signal()
            return
        }
        sendNext(sock)
    }

    func udpSocket(_ sock: QueueUdpSocket, didSendDataWithTag tag: Int) { report(sock, failed: false) }

    func udpSocket(_ sock: QueueUdpSocket, didNotSendDataWithTag tag: Int, dueToError error: (any Error)?) {
        report(sock, failed: true)
    }
}

final class LoopSender: RunLoopUdpSocketDelegate {
    let pacer = Pacer()

    func sendNext(_ sock: RunLoopUdpSocket) {
        pacer.next(
            segmented: {
                _ = sock.send(
                    chunk, segmentSize: options.size, toHost: host, port: options.port, withTimeout: -1, tag: $0)
            },
            plain: { _ = sock.send(chunk, toHost: host, port: options.port, withTimeout: -1, tag: $0) })
    }

    func onUdpSocket(_ sock: RunLoopUdpSocket, didSendDataWithTag tag: Int) {
        pacer.reported += 1
        sendNext(sock)
    }

    func onUdpSocket(_ sock: RunLoopUdpSocket, didNotSendDataWithTag tag: Int, dueToError error: any Error) {
        pacer.reported += 1
        pacer.failed += 1
        sendNext(sock)
    }
}

let startWall = Date()
let startCPU = cpuSeconds()
var failed = 0
switch options.face {
case "runloop":
    let sender = LoopSender()
    let socket = RunLoopUdpSocket(delegate: sender, families: .ipv4Only)
    for _ in 0..<inFlight { sender.sendNext(socket) }
    let deadline = Date().addingTimeInterval(60)
    while !sender.pacer.finished, Date() < deadline {
        _ = EventRunLoop.current.run(mode: .default, before: Date().addingTimeInterval(0.1))
    }
    failed = sender.pacer.failed + (sender.pacer.finished ? 0 : calls - sender.pacer.reported)
    socket.close()
default:
    let sender = QueueSender()
    let socket = QueueUdpSocket(delegate: sender, delegateQueue: sender.queue)
    sender.start(socket)
    if sender.done.wait(timeout: .now() + 60) == .timedOut {
        FileHandle.standardError.write(Data("UdpBulkSend: not done within 60 s\n".utf8))
    }
    failed = sender.queue.sync { sender.pacer.failed + (calls - sender.pacer.reported) }
    socket.close()
}
let seconds = Date().timeIntervalSince(startWall)
let cpu = cpuSeconds() - startCPU
let sent = calls * options.segments
print(
    "face=\(options.face) segments=\(options.segments) datagrams=\(sent) secs=\(String(format: "%.3f", seconds))"
        + " dgram_s=\(Int(Double(sent) / seconds)) cpu_s=\(String(format: "%.3f", cpu)) failed=\(failed)")
