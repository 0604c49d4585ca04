import AsyncSocketCore
import AsyncSocketKit
import Dispatch
import Foundation
import Logging
import Synchronization

/// The `QueueSocket` half of `bench`: an echo server and a client, each with its own queues; the
/// calling thread waits for the client, redrawing the progress line, for at most ten seconds more
/// than the measurement should take.
struct QueueBench {
    let logger: Logger
    let progress: BenchProgress

    /// Runs `workload` for `duration` seconds; returns its rate.
    func measure(_ workload: BenchWorkload, duration: Double) throws -> Double {
        let label = "QueueSocket \(workload.name)"
        let server = QueueEchoBack(logger: logger)
        let port = try server.start()
        defer { server.stop() }
        let client = QueueBenchClient(state: BenchClientState(workload: workload, duration: duration), logger: logger)
        try client.socket.connect(toHost: "127.0.0.1", onPort: port, withTimeout: 5)
        let limit = Date(timeIntervalSinceNow: duration + 10)
        while client.done.wait(timeout: .now() + 0.1) == .timedOut && Date() < limit {
            progress.update(label, elapsed: client.elapsed, done: workload.progressText(bytes: client.received))
        }
        client.socket.disconnect()
        guard let (rate, elapsed) = client.outcome else {
            throw BenchFailure(description: "\(label) did not finish: \(client.failure ?? "timed out")")
        }
        progress.finish(label, elapsed: elapsed, done: workload.progressText(bytes: client.received))
        return rate
    }
}

/// The benchmark client on `QueueSocket`. Its state lives on its delegate queue; the waiting thread
/// reads the byte count (an atomic) while it runs and the outcome after `done` is signalled.
final class QueueBenchClient: QueueSocketDelegate, @unchecked Sendable {
    let delegateQueue = DispatchQueue(label: "asyncsocket.bench.client")
    let socket: QueueSocket
    let done = DispatchSemaphore(value: 0)
    private var state: BenchClientState
    private let payload: Data
    private let startedAt = Atomic<UInt64>(0)
    private let receivedBytes = Atomic<Int>(0)
    private let result = Lock<(outcome: (rate: Double, elapsed: Double)?, failure: String?)>((nil, nil))

    init(state: BenchClientState, logger: Logger) {
        self.state = state
        payload = state.workload.payload
        socket = QueueSocket(delegate: nil, delegateQueue: delegateQueue, logger: logger)
        socket.synchronouslySetDelegate(self)
    }

    /// Bytes echoed back so far.
    var received: Int { receivedBytes.load(ordering: .relaxed) }

    /// Seconds since the client connected.
    var elapsed: Double {
        let started = startedAt.load(ordering: .relaxed)
        return started == 0 ? 0 : Double(BenchClientState.now() - started) / 1e9
    }

    /// The rate and the measured seconds, once finished.
    var outcome: (rate: Double, elapsed: Double)? { result.withLock { $0.outcome } }

    /// Why the client stopped early, if it did.
    var failure: String? { result.withLock { $0.failure } }

    func socket(_ sock: QueueSocket, didConnectToHost host: String, port: UInt16) {
        startedAt.store(BenchClientState.now(), ordering: .relaxed)
        write(state.start(), on: sock)
        sock.readData(withTimeout: -1, tag: 0)
    }

    func socket(_ sock: QueueSocket, didRead data: Data, withTag tag: Int) {
        write(state.didReceive(data.count), on: sock)
        receivedBytes.store(state.received, ordering: .relaxed)
        if let rate = state.rate {
            let elapsed = state.elapsed
            result.withLock { $0.outcome = (rate, elapsed) }
            done.signal()
        } else {
            sock.readData(withTimeout: -1, tag: 0)
        }
    }

    private func write(_ count: Int, on sock: QueueSocket) {
        for _ in 0..<count {
            sock.write(payload, withTimeout: -1, tag: 0)
        }
    }

    func socketDidDisconnect(_ sock: QueueSocket, withError error: (any Error)?) {
        guard state.finishedAt == nil else { return }
        result.withLock { $0.failure = error.map { "\($0)" } ?? "disconnected" }
        done.signal()
    }
}

/// The benchmark's `QueueSocket` echo server: sends back whatever arrives. Its state lives on its
/// delegate queue.
final class QueueEchoBack: QueueSocketDelegate, @unchecked Sendable {
    private let delegateQueue = DispatchQueue(label: "asyncsocket.bench.server")
    private let listener: QueueSocket
    private var connections: [QueueSocket] = []

    init(logger: Logger) {
        listener = QueueSocket(delegate: nil, delegateQueue: delegateQueue, logger: logger)
        listener.synchronouslySetDelegate(self)
    }

    /// Listens on 127.0.0.1; returns the port.
    func start() throws -> UInt16 {
        try listener.accept(onInterface: "127.0.0.1", port: 0)
        return listener.localPort
    }

    func socket(_ sock: QueueSocket, didAcceptNewSocket newSocket: QueueSocket) {
        connections.append(newSocket)
        newSocket.readData(withTimeout: -1, tag: 0)
    }

    func socket(_ sock: QueueSocket, didRead data: Data, withTag tag: Int) {
        sock.write(data, withTimeout: -1, tag: 0)
        sock.readData(withTimeout: -1, tag: 0)
    }

    func socketDidDisconnect(_ sock: QueueSocket, withError error: (any Error)?) {
        connections.removeAll { $0 === sock }
    }

    /// Closes the connections and the listener.
    func stop() {
        let connections = delegateQueue.sync { self.connections }
        for connection in connections {
            connection.disconnect()
        }
        listener.disconnect()
    }
}
