import AsyncSocketKit
import Foundation
import SocketTestSupport
import Testing

// Helpers shared by the fault suites: the bytes a peer sends, a peer that reads on its own thread,
// and the "the process is still usable" check each fault case ends with.

/// `count` bytes of a pattern that never repeats at a short period (so a lost, doubled or
/// reordered chunk shows up as a mismatch).
func patternBytes(_ count: Int, seed: UInt8 = 0) -> [UInt8] {
    (0..<count).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ $0 >> 8 &+ Int(seed)) }
}

extension Recorder {
    /// Whether `label` reported its final disconnect.
    func closed(_ label: String) -> Bool {
        events(label).contains(.didDisconnect)
    }

    /// The total of `label`'s partial read reports.
    func partialReadBytes(_ label: String) -> Int {
        events(label).reduce(0) { total, event in
            if case .partialRead(let n, _) = event { return total + n }
            return total
        }
    }
}

extension Recorder.Event {
    /// Whether the event is a partial read or write report.
    var isProgress: Bool {
        switch self {
        case .partialRead, .partialWrite: return true
        default: return false
        }
    }
}

extension QueueRecorder.Event {
    /// Whether the event is a partial read or write report.
    var isProgress: Bool {
        switch self {
        case .partialRead, .partialWrite: return true
        default: return false
        }
    }
}

extension Bool {
    /// The opposite (for key paths: `filter(\.isProgress.negated)`).
    var negated: Bool { !self }
}

extension QueueRecorder {
    /// Whether `label` reported its final disconnect.
    func closed(_ label: String) -> Bool {
        events(label).contains { if case .disconnected = $0 { true } else { false } }
    }

    /// The final disconnect's error of `label` (domain, code), once there is one.
    func disconnectError(_ label: String) -> (domain: String?, code: Int?)? {
        for event in events(label) {
            if case .disconnected(let domain, let code) = event { return (domain, code) }
        }
        return nil
    }

    /// The total of `label`'s partial read reports.
    func partialReadBytes(_ label: String) -> Int {
        events(label).reduce(0) { total, event in
            if case .partialRead(let n, _) = event { return total + n }
            return total
        }
    }
}

/// A QueueSocket client ("client") connected to a RawListener's accepted peer.
struct QueueClientConnection {
    let recorder = QueueRecorder()
    let client: QueueSocket
    let peer: RawPeer

    init() throws {
        let listener = try RawListener()
        client = QueueSocket(delegate: recorder, delegateQueue: recorder.queue)
        recorder.name(client, "client")
        try client.connect(toHost: "127.0.0.1", onPort: listener.port)
        guard let accepted = listener.accept() else {
            throw QueueSocketError(.other, "the test connection did not come up")
        }
        peer = accepted
        let recorder = recorder
        guard recorder.wait(until: { !recorder.events("client").isEmpty }) else {
            throw QueueSocketError(.other, "the test connection did not report")
        }
    }
}

/// Reads everything from a peer on a thread of its own, until end of file, an error or `timeout`.
final class PeerDrain: @unchecked Sendable {
    private let condition = NSCondition()
    private var bytes: [UInt8] = []
    private var ended = false
    private var endedCleanly = false

    init(_ peer: RawPeer, timeout: TimeInterval = 20) {
        let fd = peer.fd
        Thread.detachNewThread { [self] in
            let deadline = Date(timeIntervalSinceNow: timeout)
            var buffer = [UInt8](repeating: 0, count: 65_536)
            var clean = false
            while Date() < deadline {
                var pfd = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
                guard poll(&pfd, 1, 50) > 0 else { continue }
                let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
                if n <= 0 {
                    clean = n == 0
                    break
                }
                condition.withLock { bytes += buffer[0..<n] }
            }
            condition.withLock {
                ended = true
                endedCleanly = clean
                condition.broadcast()
            }
        }
    }

    /// What arrived so far.
    var received: [UInt8] { condition.withLock { bytes } }
    /// Whether the reader stopped (end of file, error or timeout).
    var isDone: Bool { condition.withLock { ended } }
    /// Whether it stopped at a clean end of file.
    var sawEndOfFile: Bool { condition.withLock { ended && endedCleanly } }

    /// Waits (without a loop) until the reader stops.
    func wait(timeout: TimeInterval = 20) -> Bool {
        let deadline = Date(timeIntervalSinceNow: timeout)
        return condition.withLock {
            while !ended {
                if !condition.wait(until: deadline) { return false }
            }
            return true
        }
    }
}

/// Sends `bytes` one at a time, `interval` apart, on a thread of its own (a slow peer).
func dribble(_ bytes: [UInt8], to peer: RawPeer, interval: TimeInterval) {
    let fd = peer.fd
    Thread.detachNewThread {
        for byte in bytes {
            var value = byte
            guard Glibc.send(fd, &value, 1, Int32(MSG_NOSIGNAL)) == 1 else { return }
            usleep(useconds_t(interval * 1_000_000))
        }
    }
}

/// The process's resident set size in bytes (/proc/self/statm).
/// Whether resident size tells anything about the program's own memory: not under a sanitizer, whose
/// allocator keeps memory the program freed (AddressSanitizer's quarantine, ThreadSanitizer's shadow).
let residentSizeIsMeaningful = !runsUnderSanitizer

func residentBytes() -> Int {
    guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return 0 }
    let fields = text.split(separator: " ")
    guard fields.count > 1, let pages = Int(fields[1]) else { return 0 }
    return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
}

/// After a fault: a fresh RunLoopSocket connection of `engine` on this thread's loop still works
/// (connects, writes, reads, closes, and its auditor sees nothing wrong).
func expectFreshRunLoopConnection(engine: RunLoopSocket.Engine, sourceLocation: SourceLocation = #_sourceLocation) {
    if !freshRunLoopConnectionWorks(engine: engine) {
        Issue.record("a fresh connection failed after the fault", sourceLocation: sourceLocation)
    }
}

/// After a fault: a fresh QueueSocket connection still works.
func expectFreshQueueConnection(sourceLocation: SourceLocation = #_sourceLocation) {
    if !freshQueueConnectionWorks() {
        Issue.record("a fresh connection failed after the fault", sourceLocation: sourceLocation)
    }
}

/// Whether a fresh RunLoopSocket connection on this thread's loop connects, carries bytes both
/// ways and closes cleanly.
func freshRunLoopConnectionWorks(engine: RunLoopSocket.Engine) -> Bool {
    guard let connection = try? ClientConnection(engine: engine) else { return false }
    connection.client.write(Data("fresh".utf8), withTimeout: 5, tag: 1)
    connection.client.readData(toLength: 2, withTimeout: 5, tag: 2)
    let peer = connection.peer
    guard waitUntil({ kernelPending(peer.fd).count == 5 }), peer.receive(count: 5) == Array("fresh".utf8) else {
        return false
    }
    peer.send("ok")
    let read = runUntil { connection.events.contains(.read(Data("ok".utf8), tag: 2)) }
    connection.client.disconnect()
    return read && connection.recorder.closed("client") && connection.recorder.auditor.violations.isEmpty
}

/// Whether a fresh QueueSocket connection connects, carries bytes both ways and closes cleanly.
func freshQueueConnectionWorks() -> Bool {
    guard let connection = try? QueueClientConnection() else { return false }
    let recorder = connection.recorder
    connection.client.write(Data("fresh".utf8), withTimeout: 5, tag: 1)
    connection.client.readData(toLength: 2, withTimeout: 5, tag: 2)
    guard connection.peer.receive(count: 5) == Array("fresh".utf8) else { return false }
    connection.peer.send("ok")
    let read = recorder.wait { recorder.events("client").contains(.read(Data("ok".utf8), tag: 2)) }
    connection.client.disconnect()
    return read && recorder.wait { recorder.closed("client") } && recorder.auditor.violations.isEmpty
}
