import AsyncSocketKit
import Foundation
import SocketTestSupport
import Testing

// MARK: A two-level hierarchy on the base classes

/// First level: conforms through the base class, queues a line read once connected.
class LegacyLineReader: RunLoopSocketDelegateBase {
    let log: CallLog

    init(log: CallLog) {
        self.log = log
    }

    override func onSocket(_ sock: RunLoopSocket, didConnectToHost host: String, port: UInt16) {
        log.add("connected")
        sock.readData(to: RunLoopSocket.lfData, withTimeout: 10, tag: 7)
    }
}

/// Second level: overrides two methods its superclass left to the base class.
final class LegacyLinePrinter: LegacyLineReader {
    override func onSocket(_ sock: RunLoopSocket, didRead data: Data, withTag tag: Int) {
        log.add("read \(tag) \(String(decoding: data, as: UTF8.self).debugDescription)")
        sock.disconnect()
    }

    override func onSocketDidDisconnect(_ sock: RunLoopSocket) {
        log.add("disconnected")
    }
}

/// First level on QueueSocket.
class QueueLineReader: QueueSocketDelegateBase {
    let log: CallLog

    init(log: CallLog) {
        self.log = log
    }

    override func socket(_ sock: QueueSocket, didConnectToHost host: String, port: UInt16) {
        log.add("connected")
        sock.readData(to: QueueSocket.lfData, withTimeout: 10, tag: 7)
    }
}

/// Second level on QueueSocket.
final class QueueLinePrinter: QueueLineReader {
    override func socket(_ sock: QueueSocket, didRead data: Data, withTag tag: Int) {
        log.add("read \(tag) \(String(decoding: data, as: UTF8.self).debugDescription)")
        sock.disconnect()
    }

    override func socketDidDisconnect(_ sock: QueueSocket, withError error: (any Error)?) {
        log.add("disconnected")
    }
}

// MARK: The pitfall the base classes fix

/// A plain class conforming to the protocol. Swift binds every requirement it does not implement to
/// the protocol extension's default here, once, for this class and all its subclasses.
class PlainLegacyDelegate: RunLoopSocketDelegate {
    let log: CallLog

    init(log: CallLog) {
        self.log = log
    }

    func onSocket(_ sock: RunLoopSocket, didConnectToHost host: String, port: UInt16) {
        log.add("connected")
        sock.readData(to: RunLoopSocket.lfData, withTimeout: 10, tag: 7)
    }

    /// A near miss (`didReadData:` is the Objective-C name): a method of its own, never called.
    func onSocket(_ sock: RunLoopSocket, didReadData data: Data, withTag tag: Int) {
        log.add("near miss called")
    }

    func onSocket(_ sock: RunLoopSocket, willDisconnectWithError error: (any Error)?) {
        log.add("unread \(sock.unreadData()?.count ?? -1)")
    }

    func onSocketDidDisconnect(_ sock: RunLoopSocket) {
        log.add("disconnected")
    }
}

/// Adds the read callback in a subclass. It compiles (there is nothing to override), and it is
/// never called: the conformance of `PlainLegacyDelegate` already uses the default.
final class PlainLegacySubclass: PlainLegacyDelegate {
    func onSocket(_ sock: RunLoopSocket, didRead data: Data, withTag tag: Int) {
        log.add("subclass read called")
    }
}

/// The same on QueueSocket.
class PlainQueueDelegate: QueueSocketDelegate {
    let log: CallLog

    init(log: CallLog) {
        self.log = log
    }

    func socket(_ sock: QueueSocket, didConnectToHost host: String, port: UInt16) {
        log.add("connected")
        sock.readData(to: QueueSocket.lfData, withTimeout: 10, tag: 7)
    }

    func socketDidDisconnect(_ sock: QueueSocket, withError error: (any Error)?) {
        log.add("disconnected")
    }
}

/// Adds the read callback in a subclass: never called.
final class PlainQueueSubclass: PlainQueueDelegate {
    func socket(_ sock: QueueSocket, didRead data: Data, withTag tag: Int) {
        log.add("subclass read called")
    }
}

@Suite("DelegateBase: subclasses of the delegate base classes are called like an Objective-C hierarchy")
struct DelegateBaseTests {
    @Test(
        "RunLoopSocket: a subclass of a subclass of RunLoopSocketDelegateBase gets didRead and didDisconnect",
        arguments: RunLoopSocket.Engine.allCases)
    func legacyHierarchy(engine: RunLoopSocket.Engine) async throws {
        try await onNewThread {
            let log = CallLog()
            let delegate = LegacyLinePrinter(log: log)
            let listener = try RawListener()
            let socket = RunLoopSocket(delegate: delegate, engine: engine)
            try socket.connectToHost("127.0.0.1", onPort: listener.port, withTimeout: 10)
            #expect(runUntil { log.all.contains("connected") })
            let peer = try #require(listener.accept())
            peer.send("hello\n")
            #expect(runUntil { log.all.contains("disconnected") })
            #expect(log.all == ["connected", "read 7 \"hello\\n\"", "disconnected"])
        }
    }

    @Test("QueueSocket: a subclass of a subclass of QueueSocketDelegateBase gets didRead and didDisconnect")
    func queueHierarchy() throws {
        let log = CallLog()
        let delegate = QueueLinePrinter(log: log)
        let listener = try RawListener()
        let socket = QueueSocket(delegate: delegate, delegateQueue: DispatchQueue(label: "delegate-base"))
        try socket.connect(toHost: "127.0.0.1", onPort: listener.port, withTimeout: 10)
        let peer = try #require(listener.accept())
        peer.send("hello\n")
        #expect(log.wait(for: "disconnected"))
        #expect(log.all == ["connected", "read 7 \"hello\\n\"", "disconnected"])
        withExtendedLifetime(delegate) {}
    }

    @Test("the base classes answer every question with the protocol's default")
    func defaults() throws {
        let legacy = RunLoopSocketDelegateBase()
        let socket = RunLoopSocket()
        #expect(legacy.onSocket(socket, wantsRunLoopForNewSocket: socket) == nil)
        #expect(legacy.onSocketWillConnect(socket))
        #expect(legacy.onSocket(socket, shouldTimeoutReadWithTag: 1, elapsed: 5, bytesDone: 0) == 0)
        #expect(legacy.onSocket(socket, shouldTimeoutWriteWithTag: 1, elapsed: 5, bytesDone: 0) == 0)
        let queue = QueueSocketDelegateBase()
        let queueSocket = QueueSocket()
        #expect(queue.newSocketQueueForConnection(fromAddress: Data(), on: queueSocket) == nil)
        #expect(queue.socket(queueSocket, shouldTimeoutReadWithTag: 1, elapsed: 5, bytesDone: 0) == 0)
        #expect(queue.socket(queueSocket, shouldTimeoutWriteWithTag: 1, elapsed: 5, bytesDone: 0) == 0)
        let answer = CallLog()
        let chain = CertificateChain(
            certificates: [], subjectSummaries: [], verifyResult: 0, verifyResultDescription: "ok")
        queue.socket(queueSocket, didReceiveTrust: chain) { answer.add("trusted \($0)") }
        #expect(answer.all == ["trusted false"])
    }
}

@Suite("DelegateBase pitfall: Swift calls the protocol's default, not a method a subclass adds or a near miss")
struct DelegateBasePitfallTests {
    @Test(
        "RunLoopSocket: the read completes (nothing left unread) but neither the subclass's didRead nor the near miss runs",
        arguments: RunLoopSocket.Engine.allCases)
    func legacySubclassMethodIgnored(engine: RunLoopSocket.Engine) async throws {
        try await onNewThread {
            let log = CallLog()
            let delegate = PlainLegacySubclass(log: log)
            let listener = try RawListener()
            let socket = RunLoopSocket(delegate: delegate, engine: engine)
            try socket.connectToHost("127.0.0.1", onPort: listener.port, withTimeout: 10)
            #expect(runUntil { log.all.contains("connected") })
            var peer: RawPeer? = try #require(listener.accept()) as RawPeer
            peer?.send("hello\n")
            // The read queued in didConnect is done (the socket has no current read) once it took the
            // line; then the peer closes, and the close is all the delegate hears besides the connect.
            #expect(runUntil { log.all == ["connected"] && socket.readProgress.fraction.isNaN })
            peer = nil
            #expect(runUntil { log.all.contains("disconnected") })
            #expect(log.all == ["connected", "unread 0", "disconnected"])
        }
    }

    @Test("QueueSocket: through a whole connection, the subclass's didRead never runs")
    func queueSubclassMethodIgnored() throws {
        let log = CallLog()
        let delegate = PlainQueueSubclass(log: log)
        let listener = try RawListener()
        let socket = QueueSocket(delegate: delegate, delegateQueue: DispatchQueue(label: "delegate-pitfall"))
        try socket.connect(toHost: "127.0.0.1", onPort: listener.port, withTimeout: 10)
        var peer: RawPeer? = try #require(listener.accept()) as RawPeer
        peer?.send("hello\n")
        #expect(log.wait(for: "connected"))
        // The queued read takes the line and asks for nothing more; the close then reaches the socket
        // through a read it queues itself (GCD's rule), so it is queued here as the next read.
        socket.readData(withTimeout: 10, tag: 8)
        peer = nil
        #expect(log.wait(for: "disconnected"))
        #expect(log.all == ["connected", "disconnected"])
        withExtendedLifetime(delegate) {}
    }

    @Test("called directly, the subclass's method runs; through the protocol, the default does")
    func staticVersusWitness() {
        let log = CallLog()
        let delegate = PlainLegacySubclass(log: log)
        let socket = RunLoopSocket()
        delegate.onSocket(socket, didRead: Data(), withTag: 0)
        let asDelegate: any RunLoopSocketDelegate = delegate
        asDelegate.onSocket(socket, didRead: Data(), withTag: 0)
        #expect(log.all == ["subclass read called"])
    }
}
