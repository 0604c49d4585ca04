import AsyncSocketCore
import AsyncSocketKit
import Foundation

/// What the async port of a side-by-side run gets: where the peer is, the executor its tasks run on,
/// and names for the connections and listeners it makes, each traced as it is made (the port's code
/// stays as it is: `AsyncSocketConnection.connect` and `AsyncSocketListener` as usual).
public final class AsyncRun: @unchecked Sendable {
    // @unchecked Sendable: `state` is behind a `Lock`; `recorder` and `log` are thread-safe.

    /// Server-role script: the port the peer listens on (127.0.0.1). Client role: `nil`.
    public let peerPort: UInt16?
    /// The run's trace.
    public let log = TraceLog()
    /// A serial executor of the run's own, on a dispatch queue: start the port's tasks on it. (On
    /// Swift's shared pool they could wait for a thread the runner, which blocks while the run
    /// lasts, holds.)
    public let executor: any TaskExecutor
    let recorder: QueueTraceRecorder
    /// The state the program's tasks and the runner share, in the lock. (Kept beside a `Lock<Void>`,
    /// it made ThreadSanitizer report the lock's empty value, modified inside one `withLock`, as racing
    /// with an unlocked read of the same address at the start of another, from a task on the run's
    /// executor: in every run of the side-by-side tests.)
    private let state = Lock(State())

    private struct State {
        var names: [String] = []
        var kept: [AnyObject] = []
        var port: UInt16?
    }

    init(peerPort: UInt16?) {
        self.peerPort = peerPort
        executor = DispatchQueueExecutor(label: "AsyncSocketKit.side-by-side")
        recorder = QueueTraceRecorder(wrapping: nil, log: log, recordsTags: false)
    }

    /// Names the next connection or listener the program makes `label` in the trace (one not named is
    /// `socket`; the connections a listener accepts are `child1`, `child2`, …).
    public func name(next label: String) {
        state.withLock { $0.names.append(label) }
    }

    /// Keeps `object` (the program's client or server object) alive until the run ends.
    public func keep(_ object: AnyObject) {
        state.withLock { $0.kept.append(object) }
    }

    /// Client-role script: tells the runner the port the program listens on.
    public func listening(on port: UInt16) {
        state.withLock { $0.port = port }
    }

    var listeningPort: UInt16? {
        state.withLock { $0.port }
    }

    /// The name of the next socket the program makes.
    private func nextName() -> String {
        state.withLock { $0.names.isEmpty ? "socket" : $0.names.removeFirst() }
    }

    func releaseKept() {
        state.withLock { $0.kept.removeAll() }
    }

    /// What the program's tasks carry: names each socket they make and records its callbacks.
    struct Observer: AsyncSocketObserver {
        let run: AsyncRun

        func observe(_ socket: QueueSocket) -> (any QueueSocketDelegate & Sendable)? {
            run.recorder.name(socket, run.nextName())
            return run.recorder
        }
    }
}
