import AsyncSocketCore
import AsyncSocketKit
import Foundation

/// What the legacy program of a side-by-side run gets: where the peer is, the run loop it runs on
/// (its calls happen on that loop's thread), and the means to trace its sockets.
public final class LegacyRun: @unchecked Sendable {
    // @unchecked Sendable: `recorders`, `traced` and `kept` are touched on the loop's thread, and read by the
    // runner only after the loop has finished with them (perform + wait); `listeningPort` under `lock`.

    /// Server-role script: the port the peer listens on (127.0.0.1). Client role: `nil`. A datagram
    /// script: the port of the peer's UDP socket (127.0.0.1).
    public let peerPort: UInt16?
    /// The engine this run asks for (the program passes it to `RunLoopSocket(engine:)`).
    public let engine: RunLoopSocket.Engine
    /// The loop of the run's thread; the program's code runs there.
    public let loop: EventRunLoop
    /// The run's trace.
    public let log = TraceLog()
    private var recorders: [LegacyTraceRecorder] = []
    private var traced: [WeakReference<RunLoopSocket>] = []
    private var udpRecorders: [LegacyUdpTraceRecorder] = []
    private var tracedUdp: [WeakReference<RunLoopUdpSocket>] = []
    private var kept: [AnyObject] = []
    private let lock = Lock()
    private var port: UInt16?

    init(peerPort: UInt16?, engine: RunLoopSocket.Engine, loop: EventRunLoop) {
        self.peerPort = peerPort
        self.engine = engine
        self.loop = loop
    }

    /// Traces `socket` (a recorder goes in front of its delegate, which must be set already) under
    /// `label`, and keeps the recorder for the run.
    public func trace(_ socket: RunLoopSocket, label: String = "socket") {
        recorders.append(LegacyTraceRecorder.attach(to: socket, label: label, log: log))
        traced.append(WeakReference(socket))
    }

    /// Traces the UDP `socket` (a recorder goes in front of its delegate, which must be set already)
    /// under `label`, and keeps the recorder for the run.
    public func trace(_ socket: RunLoopUdpSocket, label: String = "socket") {
        udpRecorders.append(LegacyUdpTraceRecorder.attach(to: socket, label: label, log: log))
        tracedUdp.append(WeakReference(socket))
    }

    /// The sockets the program traced that are still alive (they live on ``loop``).
    var tracedSockets: [RunLoopSocket] {
        traced.compactMap(\.object)
    }

    /// The UDP sockets the program traced that are still alive (they live on ``loop``).
    var tracedUdpSockets: [RunLoopUdpSocket] {
        tracedUdp.compactMap(\.object)
    }

    /// Keeps `object` (the program's client or server object) alive until the run ends.
    public func keep(_ object: AnyObject) {
        kept.append(object)
    }

    /// Client-role script: tells the runner the port the program listens on.
    public func listening(on port: UInt16) {
        lock.withLock { self.port = port }
    }

    var listeningPort: UInt16? {
        lock.withLock { port }
    }

    func releaseKept() {
        kept.removeAll()
        recorders.removeAll()
        traced.removeAll()
        udpRecorders.removeAll()
        tracedUdp.removeAll()
    }
}

/// What the modern program of a side-by-side run gets: where the peer is, and the means to trace
/// its sockets.
public final class ModernRun: @unchecked Sendable {
    // @unchecked Sendable: every stored variable is touched under `lock`.

    /// Server-role script: the port the peer listens on (127.0.0.1). Client role: `nil`. A datagram
    /// script: the port of the peer's UDP socket (127.0.0.1).
    public let peerPort: UInt16?
    /// The run's trace.
    public let log = TraceLog()
    private let lock = Lock()
    private var storedRecorders: [QueueTraceRecorder] = []
    private var storedUdpRecorders: [QueueUdpTraceRecorder] = []
    private var kept: [AnyObject] = []
    private var port: UInt16?

    init(peerPort: UInt16?) {
        self.peerPort = peerPort
    }

    /// Traces `socket` (a recorder goes in front of its delegate, which must be set already) under
    /// `label`, and keeps the recorder for the run.
    public func trace(_ socket: QueueSocket, label: String = "socket") {
        let recorder = QueueTraceRecorder.attach(to: socket, label: label, log: log)
        lock.withLock { storedRecorders.append(recorder) }
    }

    /// Traces the UDP `socket` (a recorder goes in front of its delegate, which must be set already)
    /// under `label`, and keeps the recorder for the run.
    public func trace(_ socket: QueueUdpSocket, label: String = "socket") {
        let recorder = QueueUdpTraceRecorder.attach(to: socket, label: label, log: log)
        lock.withLock { storedUdpRecorders.append(recorder) }
    }

    /// Keeps `object` (the program's client or server object) alive until the run ends.
    public func keep(_ object: AnyObject) {
        lock.withLock { kept.append(object) }
    }

    /// Client-role script: tells the runner the port the program listens on.
    public func listening(on port: UInt16) {
        lock.withLock { self.port = port }
    }

    var listeningPort: UInt16? {
        lock.withLock { port }
    }

    var recorders: [QueueTraceRecorder] {
        lock.withLock { storedRecorders }
    }

    var udpRecorders: [QueueUdpTraceRecorder] {
        lock.withLock { storedUdpRecorders }
    }

    func releaseKept() {
        lock.withLock {
            kept.removeAll()
            storedRecorders.removeAll()
            storedUdpRecorders.removeAll()
        }
    }
}
