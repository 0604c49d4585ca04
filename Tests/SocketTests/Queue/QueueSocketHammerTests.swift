import AsyncSocketCore
import AsyncSocketKit
import Foundation
import Testing

/// Echoes every line it reads on the accepted socket, and checks the client's callbacks: each write
/// completes exactly once and, per thread, in order; each read gets one line, and per thread the
/// echoed lines come back in order.
final class HammerDelegate: QueueSocketDelegate, @unchecked Sendable {
    let queue = DispatchQueue(label: "hammer-delegate")
    let threads: Int
    /// Touched on `queue` only.
    private var lastWritten: [Int]
    private var lastRead: [Int]
    private(set) var problems: [String] = []
    private(set) var writesDone = 0
    private(set) var readsDone = 0
    var child: QueueSocket?
    let slots: [DispatchSemaphore]
    /// Signalled after every completion, for waiting with a deadline.
    let progress = NSCondition()

    init(threads: Int, window: Int) {
        self.threads = threads
        lastWritten = Array(repeating: -1, count: threads)
        lastRead = Array(repeating: -1, count: threads)
        slots = (0..<threads).map { _ in DispatchSemaphore(value: window) }
    }

    func socket(_ sock: QueueSocket, didAcceptNewSocket newSocket: QueueSocket) {
        child = newSocket
        newSocket.readData(to: QueueSocket.lfData, withTimeout: -1, tag: -1)
    }

    func socket(_ sock: QueueSocket, didRead data: Data, withTag tag: Int) {
        if sock === child {
            sock.write(data, withTimeout: -1, tag: -1)
            sock.readData(to: QueueSocket.lfData, withTimeout: -1, tag: -1)
            return
        }
        readsDone += 1
        let parts = String(decoding: data.dropLast(), as: UTF8.self).split(separator: ":").compactMap { Int($0) }
        guard parts.count == 2, parts[0] < threads else {
            problems.append("bad line \(String(decoding: data, as: UTF8.self).debugDescription)")
            return
        }
        if parts[1] <= lastRead[parts[0]] {
            problems.append("thread \(parts[0]) line \(parts[1]) after \(lastRead[parts[0]])")
        }
        lastRead[parts[0]] = parts[1]
        progress.withLock { progress.broadcast() }
    }

    func socket(_ sock: QueueSocket, didWriteDataWithTag tag: Int) {
        guard tag >= 0 else { return }
        writesDone += 1
        let (thread, index) = (tag / 1_000_000, tag % 1_000_000)
        if index != lastWritten[thread] + 1 {
            problems.append("thread \(thread) write \(index) after \(lastWritten[thread])")
        }
        lastWritten[thread] = index
        slots[thread].signal()
        progress.withLock { progress.broadcast() }
    }

    func socketDidDisconnect(_ sock: QueueSocket, withError error: (any Error)?) {
        problems.append("unexpected disconnect: \(String(describing: error))")
    }

    func snapshot() -> (problems: [String], writes: Int, reads: Int) {
        queue.sync { (problems, writesDone, readsDone) }
    }
}

@Suite("QueueSocket: many threads at once")
struct QueueSocketHammerTests {
    static let seconds = ProcessInfo.processInfo.environment["QUEUE_HAMMER_SECONDS"].flatMap(Double.init) ?? 10

    @Test("8 threads of reads, writes and property reads for 10 s: no crash, no lost or reordered callback")
    func hammer() throws {
        let threads = 8
        let delegate = HammerDelegate(threads: threads, window: 32)
        let server = QueueSocket(delegate: delegate, delegateQueue: delegate.queue)
        try server.accept(onInterface: "127.0.0.1", port: 0)
        let client = QueueSocket(delegate: delegate, delegateQueue: delegate.queue)
        try client.connect(toHost: "127.0.0.1", onPort: server.localPort)
        let deadline = Date(timeIntervalSinceNow: Self.seconds)
        let issued = Lock([Int](repeating: 0, count: threads))
        DispatchQueue.concurrentPerform(iterations: threads) { thread in
            var index = 0
            while Date() < deadline && index < 999_999 {
                guard delegate.slots[thread].wait(timeout: .now() + 5) == .success else { break }
                client.write(Data("\(thread):\(index)\n".utf8), withTimeout: 30, tag: thread * 1_000_000 + index)
                client.readData(to: QueueSocket.lfData, withTimeout: 30, tag: thread)
                _ = client.isConnected
                _ = client.connectedPort
                _ = client.localHost
                var tag = 0
                _ = client.progressOfRead(returningTag: &tag, bytesDone: nil, total: nil)
                if index % 100 == 0 {
                    _ = client.description
                }
                index += 1
            }
            issued.withLock { $0[thread] = index }
        }
        let total = issued.withLock { $0.reduce(0, +) }
        let finished = Date(timeIntervalSinceNow: 30)
        var snapshot = delegate.snapshot()
        while (snapshot.writes < total || snapshot.reads < total) && Date() < finished && snapshot.problems.isEmpty {
            delegate.progress.withLock { _ = delegate.progress.wait(until: Date(timeIntervalSinceNow: 0.05)) }
            snapshot = delegate.snapshot()
        }
        #expect(total > 0)
        #expect(snapshot.problems.isEmpty, "\(snapshot.problems.prefix(5))")
        #expect(snapshot.writes == total)
        #expect(snapshot.reads == total)
        client.synchronouslySetDelegate(nil)
        delegate.child?.synchronouslySetDelegate(nil)
        server.synchronouslySetDelegate(nil)
        client.disconnect()
        delegate.child?.disconnect()
        server.disconnect()
    }
}
