import AsyncSocketKit
import Foundation
import MigrationTesting

/// What the test clients do once connected, one step after the other (each starts when the
/// previous one completed), so their traces have one order whatever the timing.
enum ClientStep: Sendable {
    case readLine(tag: Int, timeout: TimeInterval = 10, maxLength: Int = 0)
    case readLength(Int, tag: Int)
    case write(String, tag: Int)
    case startTLS(TLSSettings)
    case disconnect
}

/// A legacy client playing steps; extends the first read timeout (only) by `timeoutExtension`.
final class LegacyStepClient: RunLoopSocketDelegate, @unchecked Sendable {
    let socket: RunLoopSocket
    private var steps: [ClientStep]
    private var timeoutExtension: TimeInterval

    init(engine: RunLoopSocket.Engine, steps: [ClientStep], timeoutExtension: TimeInterval = 0) {
        socket = RunLoopSocket(engine: engine)
        self.steps = steps
        self.timeoutExtension = timeoutExtension
        socket.delegate = self
    }

    func next() {
        guard !steps.isEmpty else { return }
        switch steps.removeFirst() {
        case .readLine(let tag, let timeout, let maxLength):
            socket.readData(to: RunLoopSocket.crlfData, withTimeout: timeout, maxLength: maxLength, tag: tag)
        case .readLength(let length, let tag):
            socket.readData(toLength: length, withTimeout: 10, tag: tag)
        case .write(let text, let tag):
            socket.write(Data(text.utf8), withTimeout: 10, tag: tag)
        case .startTLS(let settings):
            socket.startTLS(settings)
        case .disconnect:
            socket.disconnect()
        }
    }

    func onSocket(_ sock: RunLoopSocket, didConnectToHost host: String, port: UInt16) { next() }
    func onSocket(_ sock: RunLoopSocket, didRead data: Data, withTag tag: Int) { next() }
    func onSocket(_ sock: RunLoopSocket, didWriteDataWithTag tag: Int) { next() }
    func onSocketDidSecure(_ sock: RunLoopSocket) { next() }

    func onSocket(
        _ sock: RunLoopSocket, shouldTimeoutReadWithTag tag: Int, elapsed: TimeInterval, bytesDone length: Int
    ) -> TimeInterval {
        defer { timeoutExtension = 0 }
        return timeoutExtension
    }
}

/// The same client on QueueSocket. GCD notices the peer's close only through a read (its read
/// source may stay suspended otherwise), so once its steps are done the port keeps a read-any
/// queued, with ``trailingTag`` — as a real port would — unless `keepsReading` is off.
final class ModernStepClient: QueueSocketDelegate, @unchecked Sendable {
    // @unchecked Sendable: `steps` is touched on the delegate queue only (and before connecting).
    static let trailingTag = 99
    let socket: QueueSocket
    private var steps: [ClientStep]
    private var timeoutExtension: TimeInterval
    private let keepsReading: Bool

    init(steps: [ClientStep], timeoutExtension: TimeInterval = 0, keepsReading: Bool = true) {
        socket = QueueSocket()
        self.steps = steps
        self.timeoutExtension = timeoutExtension
        self.keepsReading = keepsReading
        socket.synchronouslySetDelegate(self, delegateQueue: DispatchQueue(label: "ModernStepClient"))
    }

    func next() {
        guard !steps.isEmpty else {
            if keepsReading {
                socket.readData(withTimeout: -1, tag: Self.trailingTag)
            }
            return
        }
        switch steps.removeFirst() {
        case .readLine(let tag, let timeout, let maxLength):
            socket.readData(to: QueueSocket.crlfData, withTimeout: timeout, maxLength: maxLength, tag: tag)
        case .readLength(let length, let tag):
            socket.readData(toLength: length, withTimeout: 10, tag: tag)
        case .write(let text, let tag):
            socket.write(Data(text.utf8), withTimeout: 10, tag: tag)
        case .startTLS(let settings):
            socket.startTLS(settings)
        case .disconnect:
            socket.disconnect()
        }
    }

    func socket(_ sock: QueueSocket, didConnectToHost host: String, port: UInt16) { next() }
    func socket(_ sock: QueueSocket, didRead data: Data, withTag tag: Int) { next() }
    func socket(_ sock: QueueSocket, didWriteDataWithTag tag: Int) { next() }
    func socketDidSecure(_ sock: QueueSocket) { next() }

    func socket(
        _ sock: QueueSocket, shouldTimeoutReadWithTag tag: Int, elapsed: TimeInterval, bytesDone length: Int
    ) -> TimeInterval {
        defer { timeoutExtension = 0 }
        return timeoutExtension
    }
}

/// Subjects for a step client of each kind, connecting to the run's peer.
enum StepSubjects {
    static func legacy(
        _ steps: [ClientStep], engine: RunLoopSocket.Engine = .native, timeoutExtension: TimeInterval = 0
    ) -> SideBySideSubject {
        .legacy(engine: engine) { run in
            let client = LegacyStepClient(engine: run.engine, steps: steps, timeoutExtension: timeoutExtension)
            run.keep(client)
            run.trace(client.socket, label: "client")
            try client.socket.connectToHost("127.0.0.1", onPort: run.peerPort ?? 0, withTimeout: 10)
        }
    }

    /// The standard rules, leaving out the modern client's trailing reads.
    static var rules: EquivalenceRules {
        var rules = EquivalenceRules.standard
        rules.custom = [
            { entry in
                if case .read(ModernStepClient.trailingTag, _) = entry.event { return nil }
                return entry
            }
        ]
        return rules
    }

    static func modern(_ steps: [ClientStep], timeoutExtension: TimeInterval = 0, keepsReading: Bool = true)
        -> SideBySideSubject
    {
        .modern { run in
            let client = ModernStepClient(
                steps: steps, timeoutExtension: timeoutExtension, keepsReading: keepsReading)
            run.keep(client)
            run.trace(client.socket, label: "client")
            try client.socket.connect(toHost: "127.0.0.1", onPort: run.peerPort ?? 0, withTimeout: 10)
        }
    }
}

/// The same client on AsyncSocketConnection, its steps one `await` each (a read's timeout is left to
/// the default of the tagged calls' 10 s: no step here waits that long). Once its steps are done it
/// reads on until the peer closes, as the QueueSocket port keeps a read queued.
enum AsyncStepClient {
    static func play(_ steps: [ClientStep], port: UInt16) async {
        guard let connection = try? await AsyncSocketConnection.connect(toHost: "127.0.0.1", port: port) else {
            return
        }
        do {
            for step in steps {
                switch step {
                case .readLine(_, _, let maxLength):
                    _ = try await connection.read(through: QueueSocket.crlfData, maxLength: maxLength)
                case .readLength(let length, _):
                    _ = try await connection.read(exactly: length)
                case .write(let text, _):
                    try await connection.write(Data(text.utf8))
                case .startTLS(let settings):
                    try await connection.startTLS(settings)
                case .disconnect:
                    connection.close()
                    return
                }
            }
            while true {
                _ = try await connection.read(upTo: 0)
            }
        } catch {
            connection.close()
        }
    }
}

extension StepSubjects {
    static func async(_ steps: [ClientStep]) -> SideBySideSubject {
        .async { run in
            run.name(next: "client")
            let port = run.peerPort ?? 0
            Task(executorPreference: run.executor) {
                await AsyncStepClient.play(steps, port: port)
            }
        }
    }
}
