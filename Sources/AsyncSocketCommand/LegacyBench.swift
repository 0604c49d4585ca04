import AsyncSocketKit
import Dispatch
import Foundation

/// The `RunLoopSocket` half of `bench`: an echo server on a worker loop of its own, the client on
/// the calling thread's loop, which runs until the client is done (or, at the latest, ten seconds
/// after the measurement should have ended).
struct LegacyBench {
    let factory: RunLoopSocketFactory
    let progress: BenchProgress

    /// Runs `workload` for `duration` seconds; returns its rate.
    func measure(_ workload: BenchWorkload, duration: Double) throws -> Double {
        let label = "RunLoopSocket \(workload.name)"
        let server = try LegacyEchoBackServer(factory: factory)
        defer { server.stop() }
        let client = LegacyBenchClient(
            socket: factory.makeSocket(), state: BenchClientState(workload: workload, duration: duration))
        try client.socket.connectToHost("127.0.0.1", onPort: server.port, withTimeout: 5)
        let loop = EventRunLoop.current
        let ticker = loop.addTimer(after: 0.1, repeating: 0.1) { _ in
            progress.update(
                label, elapsed: client.state.elapsed, done: workload.progressText(bytes: client.state.received))
        }
        let limit = loop.addTimer(after: duration + 10) { _ in loop.stop() }
        loop.run()
        ticker.invalidate()
        limit.invalidate()
        client.socket.disconnect()
        guard let rate = client.state.rate else {
            throw BenchFailure(description: "\(label) did not finish: \(client.failure ?? "timed out")")
        }
        progress.finish(label, elapsed: client.state.elapsed, done: workload.progressText(bytes: client.state.received))
        return rate
    }
}

/// Why a measurement gave no result.
struct BenchFailure: Error, CustomStringConvertible {
    let description: String
}

/// The benchmark client on `RunLoopSocket`: writes what ``BenchClientState`` allows, reads whatever
/// comes back, and stops the loop when done or disconnected.
final class LegacyBenchClient: RunLoopSocketDelegate {
    let socket: RunLoopSocket
    private(set) var state: BenchClientState
    private let payload: Data
    private(set) var failure: String?

    init(socket: RunLoopSocket, state: BenchClientState) {
        self.socket = socket
        self.state = state
        payload = state.workload.payload
        socket.delegate = self
    }

    func onSocket(_ sock: RunLoopSocket, didConnectToHost host: String, port: UInt16) {
        write(state.start(), on: sock)
        sock.readData(withTimeout: -1, tag: 0)
    }

    func onSocket(_ sock: RunLoopSocket, didRead data: Data, withTag tag: Int) {
        write(state.didReceive(data.count), on: sock)
        if state.finishedAt != nil {
            EventRunLoop.current.stop()
        } else {
            sock.readData(withTimeout: -1, tag: 0)
        }
    }

    private func write(_ count: Int, on sock: RunLoopSocket) {
        for _ in 0..<count {
            sock.write(payload, withTimeout: -1, tag: 0)
        }
    }

    func onSocket(_ sock: RunLoopSocket, willDisconnectWithError error: (any Error)?) {
        failure = error.map { "\($0)" } ?? "the server closed the connection"
    }

    func onSocketDidDisconnect(_ sock: RunLoopSocket) {
        if state.finishedAt == nil {
            EventRunLoop.current.stop()
        }
    }
}

/// The benchmark's `RunLoopSocket` echo server, on an `EventRunLoopThread` of its own.
final class LegacyEchoBackServer: Sendable {
    let port: UInt16
    private let worker: EventRunLoopThread
    private let delegate: LegacyEchoBack

    /// Starts the worker and, on it, the listener on 127.0.0.1.
    init(factory: RunLoopSocketFactory) throws {
        let worker = EventRunLoopThread(name: "bench-server")
        let started = ResultBox<(LegacyEchoBack, UInt16)>()
        worker.loop.perform {
            started.set(
                Result {
                    let delegate = try LegacyEchoBack(factory: factory)
                    return (delegate, try delegate.start())
                })
        }
        do {
            (delegate, port) = try started.wait()
        } catch {
            worker.terminate()
            throw error
        }
        self.worker = worker
    }

    /// Closes every socket on the worker's thread, then ends the worker.
    func stop() {
        let stopped = ResultBox<Void>()
        worker.loop.perform { [delegate] in
            delegate.stop()
            stopped.set(.success(()))
        }
        _ = try? stopped.wait()
        worker.terminate()
    }
}

/// The delegate of the benchmark's `RunLoopSocket` echo server: sends back whatever arrives. Made
/// and used on the server's worker thread only (hence `@unchecked Sendable`: it is handed to the
/// thread that started the worker, which only passes it back).
final class LegacyEchoBack: RunLoopSocketDelegate, @unchecked Sendable {
    private let listener: RunLoopSocket
    private var connections: [RunLoopSocket] = []

    init(factory: RunLoopSocketFactory) throws {
        listener = factory.makeSocket()
        listener.delegate = self
    }

    /// Listens on 127.0.0.1; returns the port.
    func start() throws -> UInt16 {
        try listener.acceptOnInterface("127.0.0.1", port: 0)
        return listener.localPort
    }

    func onSocket(_ sock: RunLoopSocket, didAcceptNewSocket newSocket: RunLoopSocket) {
        connections.append(newSocket)
    }

    func onSocket(_ sock: RunLoopSocket, didConnectToHost host: String, port: UInt16) {
        sock.readData(withTimeout: -1, tag: 0)
    }

    func onSocket(_ sock: RunLoopSocket, didRead data: Data, withTag tag: Int) {
        sock.write(data, withTimeout: -1, tag: 0)
        sock.readData(withTimeout: -1, tag: 0)
    }

    func onSocketDidDisconnect(_ sock: RunLoopSocket) {
        connections.removeAll { $0 === sock }
    }

    func stop() {
        for connection in connections {
            connection.disconnect()
        }
        listener.disconnect()
    }
}

/// A result handed from one thread to another that waits for it (at most ten seconds).
final class ResultBox<Value>: @unchecked Sendable {
    private let condition = NSCondition()
    private var result: Result<Value, any Error>?

    func set(_ result: Result<Value, any Error>) {
        condition.withLock {
            self.result = result
            condition.broadcast()
        }
    }

    /// The value, the error, or a ``BenchFailure`` after ten seconds.
    func wait() throws -> Value {
        let deadline = Date(timeIntervalSinceNow: 10)
        let outcome = condition.withLock { () -> Result<Value, any Error>? in
            while result == nil && condition.wait(until: deadline) {}
            return result
        }
        guard let outcome else { throw BenchFailure(description: "the benchmark server did not start") }
        return try outcome.get()
    }
}
