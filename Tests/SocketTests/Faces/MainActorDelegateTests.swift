import AsyncSocketKit
import Foundation
import SocketTestSupport
import Testing

// The pattern README.md and Migration/README.md show under "Delegates in Swift 6": a `@MainActor`
// class cannot conform to RunLoopSocketDelegate with main-actor methods ("conformance crosses into
// main actor-isolated code"), so its delegate methods are `nonisolated` and step onto the main actor
// with `MainActor.assumeIsolated`. That holds because a RunLoopSocket calls its delegate on its
// loop's thread, and the loop of the main thread (`EventRunLoop.main`) is where the main actor runs in
// a program. The HostLookup example runs this pattern on `EventRunLoop.main` for real. A QueueSocket
// gets the same pattern with `DispatchQueue.main` as its delegate queue.

/// The pattern: main-actor state, nonisolated delegate methods that assume the main actor.
@MainActor
final class MainActorLineClient: RunLoopSocketDelegate {
    let socket = RunLoopSocket()
    private(set) var status: [String] = []

    init() {
        socket.delegate = self
    }

    func start(port: UInt16) throws {
        try socket.connectToHost("127.0.0.1", onPort: port, withTimeout: 5)
    }

    nonisolated func onSocket(_ sock: RunLoopSocket, didConnectToHost host: String, port: UInt16) {
        MainActor.assumeIsolated {
            status.append("connected")
            sock.readData(to: RunLoopSocket.lfData, withTimeout: 5, tag: 0)
        }
    }

    nonisolated func onSocket(_ sock: RunLoopSocket, didRead data: Data, withTag tag: Int) {
        MainActor.assumeIsolated {
            status.append("read " + String(decoding: data, as: UTF8.self).trimmingCharacters(in: .newlines))
            sock.disconnect()
        }
    }

    nonisolated func onSocketDidDisconnect(_ sock: RunLoopSocket) {
        MainActor.assumeIsolated {
            status.append("closed")
        }
    }
}

/// The alternative: a `@preconcurrency` conformance. The methods stay main-actor methods; Swift
/// checks at run time, on every call, that it comes on the main actor (and stops the program if not).
@MainActor
final class PreconcurrencyLineClient: @preconcurrency RunLoopSocketDelegate {
    let socket = RunLoopSocket()
    private(set) var status: [String] = []

    init() {
        socket.delegate = self
    }

    func onSocket(_ sock: RunLoopSocket, didConnectToHost host: String, port: UInt16) {
        status.append("connected")
        sock.readData(to: RunLoopSocket.lfData, withTimeout: 5, tag: 0)
    }

    func onSocket(_ sock: RunLoopSocket, didRead data: Data, withTag tag: Int) {
        status.append("read " + String(decoding: data, as: UTF8.self).trimmingCharacters(in: .newlines))
        sock.disconnect()
    }

    func onSocketDidDisconnect(_ sock: RunLoopSocket) {
        status.append("closed")
    }
}

/// The same pattern on QueueSocket, with the main queue as the delegate queue: the main actor's
/// queue, so `assumeIsolated` holds there too.
@MainActor
final class MainQueueLineClient: QueueSocketDelegate {
    let socket = QueueSocket()
    private(set) var status: [String] = []
    var onClosed: (() -> Void)?

    init() {
        socket.setDelegate(self, delegateQueue: .main)
    }

    nonisolated func socket(_ sock: QueueSocket, didConnectToHost host: String, port: UInt16) {
        MainActor.assumeIsolated {
            status.append("connected")
            sock.readData(to: QueueSocket.lfData, withTimeout: 5, tag: 0)
        }
    }

    nonisolated func socket(_ sock: QueueSocket, didRead data: Data, withTag tag: Int) {
        MainActor.assumeIsolated {
            status.append("read " + String(decoding: data, as: UTF8.self).trimmingCharacters(in: .newlines))
            sock.disconnect()
        }
    }

    nonisolated func socketDidDisconnect(_ sock: QueueSocket, withError error: (any Error)?) {
        MainActor.assumeIsolated {
            status.append("closed")
            onClosed?()
        }
    }
}

/// Without the main actor: a plain class, used on one loop thread (what a worker thread's delegate is).
final class LoopThreadLineClient: RunLoopSocketDelegate {
    let socket = RunLoopSocket()
    private(set) var status: [String] = []

    init() {
        socket.delegate = self
    }

    func onSocket(_ sock: RunLoopSocket, didConnectToHost host: String, port: UInt16) {
        status.append("connected")
        sock.readData(to: RunLoopSocket.lfData, withTimeout: 5, tag: 0)
    }

    func onSocket(_ sock: RunLoopSocket, didRead data: Data, withTag tag: Int) {
        status.append("read " + String(decoding: data, as: UTF8.self).trimmingCharacters(in: .newlines))
        sock.disconnect()
    }

    func onSocketDidDisconnect(_ sock: RunLoopSocket) {
        status.append("closed")
    }
}

@Suite("Delegates in Swift 6: the main-actor patterns compile and run where the main actor runs")
struct MainActorDelegateTests {
    /// Plays the server: accepts once the client's loop has connected, sends a line.
    private static func serve(_ listener: RawListener, loop: EventRunLoop, connected: () -> Bool) -> RawPeer? {
        guard runUntil(loop, connected) else { return nil }
        let peer = listener.accept()
        peer?.send("hello\n")
        return peer
    }

    @Test("a plain class on a loop thread")
    func loopThread() async throws {
        try await onNewThread {
            let listener = try RawListener()
            let client = LoopThreadLineClient()
            try client.socket.connectToHost("127.0.0.1", onPort: listener.port, withTimeout: 5)
            let peer = try #require(Self.serve(listener, loop: .current) { client.status == ["connected"] })
            #expect(runUntil { client.status.last == "closed" })
            #expect(client.status == ["connected", "read hello", "closed"])
            withExtendedLifetime(peer) {}
        }
    }

    // Swift Testing does not run the main actor on the process's main thread on Linux, so
    // `EventRunLoop.main` cannot run here; these run on the loop of the thread the main actor is on
    // during the test, which is what makes `assumeIsolated` (and the @preconcurrency check) hold.
    @Test("@MainActor class, nonisolated methods with MainActor.assumeIsolated")
    @MainActor
    func mainActorAssumeIsolated() throws {
        let listener = try RawListener()
        let client = MainActorLineClient()
        try client.start(port: listener.port)
        let peer = try #require(Self.serve(listener, loop: .current) { client.status == ["connected"] })
        #expect(runUntil { client.status.last == "closed" })
        #expect(client.status == ["connected", "read hello", "closed"])
        withExtendedLifetime(peer) {}
    }

    @Test("QueueSocket: @MainActor class, delegate queue .main, MainActor.assumeIsolated", .timeLimit(.minutes(1)))
    @MainActor
    func mainQueue() async throws {
        let listener = try RawListener()
        let client = MainQueueLineClient()
        try client.socket.connect(toHost: "127.0.0.1", onPort: listener.port, withTimeout: 5)
        let peer = try #require(listener.accept())
        peer.send("hello\n")
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            client.onClosed = { done.resume() }
        }
        #expect(client.status == ["connected", "read hello", "closed"])
        withExtendedLifetime(peer) {}
    }

    @Test("@MainActor class with a @preconcurrency conformance")
    @MainActor
    func mainActorPreconcurrency() throws {
        let listener = try RawListener()
        let client = PreconcurrencyLineClient()
        try client.socket.connectToHost("127.0.0.1", onPort: listener.port, withTimeout: 5)
        let peer = try #require(Self.serve(listener, loop: .current) { client.status == ["connected"] })
        #expect(runUntil { client.status.last == "closed" })
        #expect(client.status == ["connected", "read hello", "closed"])
        withExtendedLifetime(peer) {}
    }
}
