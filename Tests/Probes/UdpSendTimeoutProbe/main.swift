import AsyncSocketKit
import Dispatch
import Foundation

// UDP send timeouts, which loopback alone never reaches: the kernel frees a datagram's send-buffer
// memory as soon as loopback takes it. LoadFaultTests' UdpSendTimeoutFaultTests runs this program in a
// network namespace of its own whose loopback has a token-bucket qdisc at 1 Mbit/s, so datagrams wait
// in the qdisc holding the socket's send buffer, and after about a hundred 1400-byte sends a send finds
// no room and waits, with its timer (the qdisc needs most of a second to make room again). For each
// face (QueueUdpSocket; RunLoopUdpSocket on each engine) it sends datagrams one after another, each from
// the previous one's `didSend`, with a 0.3 s timeout, until one is not sent, and prints one line:
//   "<face>: sent N, then <error domain> <code> after S s, open"   (or "…, closed")
// or "<face>: FAILED <what happened>". It exits 0 when it printed a line per face.
//
// Every datagram goes to a socket of this program that reads them all, and the program exits only once
// it has them (or after 20 s): a datagram still in the qdisc when the program ends would reach a closed
// port, and the kernel's ICMP reply, sent from sockets every namespace shares, would wait behind the
// slow qdisc holding their send buffer; enough of those silence ICMP on the whole machine until the
// namespace is gone.

let payload = Data(repeating: 0x55, count: 1400)
let timeout: TimeInterval = 0.3
/// More sends than any send buffer holds at 1400 bytes each: reaching it means no send ever waited.
let sendLimit = 5000

/// Counts the datagrams a QueueUdpSocket bound to 127.0.0.1 receives.
final class Receiver: QueueUdpSocketDelegate, @unchecked Sendable {
    // @unchecked Sendable: `count` is touched under `lock` only; `queue` is constant.
    private let lock = NSCondition()
    private var count = 0
    private let queue = DispatchQueue(label: "UdpSendTimeoutProbe.receiver")

    /// Makes `socket` receive on 127.0.0.1 for this receiver; its port.
    func listen(_ socket: QueueUdpSocket) -> UInt16 {
        socket.synchronouslySetDelegate(self, delegateQueue: queue)
        do {
            try socket.bind(toPort: 0, interface: "127.0.0.1")
            try socket.beginReceiving()
        } catch {
            preconditionFailure("the receiving socket: \(error)")
        }
        return socket.localPort
    }

    func udpSocket(
        _ sock: QueueUdpSocket, didReceive data: Data, fromAddress address: Data,
        withFilterContext filterContext: (any Sendable)?
    ) {
        lock.lock()
        count += 1
        lock.broadcast()
        lock.unlock()
    }

    /// Waits until `total` datagrams arrived, or `deadline`; whether they did.
    func wait(for total: Int, until deadline: Date) -> Bool {
        lock.lock()
        defer { lock.unlock() }
        while count < total {
            if !lock.wait(until: deadline) { return count >= total }
        }
        return true
    }
}

let receiver = Receiver()
let receivingSocket = QueueUdpSocket()
let receiverPort = receiver.listen(receivingSocket)

func describe(_ error: any Error) -> String {
    let bridged = error as NSError
    return "\(bridged.domain) \(bridged.code)"
}

func report(_ face: String, sent: Int, error: (any Error)?, waited: TimeInterval, open: Bool) {
    guard let error else {
        print("\(face): FAILED \(sent) datagrams sent and none waited")
        return
    }
    let seconds = String(format: "%.2f", waited)
    print("\(face): sent \(sent), then \(describe(error)) after \(seconds) s, \(open ? "open" : "closed")")
}

/// Sends from the delegate queue until a send fails.
final class QueueSender: QueueUdpSocketDelegate, @unchecked Sendable {
    // @unchecked Sendable: every variable is touched on `queue` only (the delegate queue), and read by
    // the main thread after `done` is signalled from there.
    let queue = DispatchQueue(label: "UdpSendTimeoutProbe.delegate")
    let done = DispatchSemaphore(value: 0)
    var sent = 0
    var failure: (any Error)?
    var lastSendStarted = Date()
    var waited: TimeInterval = 0

    func sendNext(_ sock: QueueUdpSocket) {
        lastSendStarted = Date()
        sock.send(payload, toHost: "127.0.0.1", port: receiverPort, withTimeout: timeout, tag: sent)
    }

    func udpSocket(_ sock: QueueUdpSocket, didSendDataWithTag tag: Int) {
        sent += 1
        guard sent < sendLimit else {
            done.signal()
            return
        }
        sendNext(sock)
    }

    func udpSocket(_ sock: QueueUdpSocket, didNotSendDataWithTag tag: Int, dueToError error: (any Error)?) {
        failure = error
        waited = Date().timeIntervalSince(lastSendStarted)
        done.signal()
    }
}

/// Sends from the loop's thread until a send fails, then stops the loop.
final class LoopSender: RunLoopUdpSocketDelegate {
    var sent = 0
    var failure: (any Error)?
    var finished = false
    var lastSendStarted = Date()
    var waited: TimeInterval = 0

    func sendNext(_ sock: RunLoopUdpSocket) {
        lastSendStarted = Date()
        if !sock.send(payload, toHost: "127.0.0.1", port: receiverPort, withTimeout: timeout, tag: sent) {
            finished = true
        }
    }

    func onUdpSocket(_ sock: RunLoopUdpSocket, didSendDataWithTag tag: Int) {
        sent += 1
        guard sent < sendLimit else {
            finished = true
            return
        }
        sendNext(sock)
    }

    func onUdpSocket(_ sock: RunLoopUdpSocket, didNotSendDataWithTag tag: Int, dueToError error: any Error) {
        failure = error
        waited = Date().timeIntervalSince(lastSendStarted)
        finished = true
    }
}

/// Runs the QueueUdpSocket face; the datagrams it sent.
func queueFace() -> Int {
    let sender = QueueSender()
    let socket = QueueUdpSocket(delegate: sender, delegateQueue: sender.queue)
    sender.queue.async { sender.sendNext(socket) }
    guard sender.done.wait(timeout: .now() + 20) == .success else {
        print("QueueUdpSocket: FAILED no answer within 20 s")
        return 0
    }
    let (sent, failure, waited) = sender.queue.sync { (sender.sent, sender.failure, sender.waited) }
    report("QueueUdpSocket", sent: sent, error: failure, waited: waited, open: !socket.isClosed)
    socket.close()
    return sent
}

/// Runs the RunLoopUdpSocket face on `engine`; the datagrams it sent.
func loopFace(_ engine: RunLoopSocket.Engine) -> Int {
    let face = "RunLoopUdpSocket \(engine)"
    let sender = LoopSender()
    let socket = RunLoopUdpSocket(delegate: sender, engine: engine)
    sender.sendNext(socket)
    let deadline = Date().addingTimeInterval(20)
    while !sender.finished, Date() < deadline {
        _ = EventRunLoop.current.run(mode: .default, before: Date().addingTimeInterval(0.1))
    }
    guard sender.finished else {
        print("\(face): FAILED no answer within 20 s")
        return sender.sent
    }
    report(face, sent: sender.sent, error: sender.failure, waited: sender.waited, open: !socket.isClosed)
    socket.close()
    return sender.sent
}

var sentInAll = queueFace()
for engine in RunLoopSocket.Engine.allCases {
    sentInAll += loopFace(engine)
}
if !receiver.wait(for: sentInAll, until: Date().addingTimeInterval(20)) {
    print("receiver: FAILED not every datagram sent arrived within 20 s")
}
