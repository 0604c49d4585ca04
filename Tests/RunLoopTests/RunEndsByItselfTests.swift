import AsyncSocketCore
import AsyncSocketKit
import Foundation
import SocketTestSupport
import Testing

// The README's pattern — connect, then `EventRunLoop.current.run()` with no `stop()` — must end by
// itself for every way a connection can end, on both engines: once a socket is closed it leaves
// nothing in its loop's modes, whoever closed it and from where.

/// One way a client connection ends.
enum ConnectionEnding: String, CaseIterable, CustomStringConvertible, Sendable {
    case disconnectInReadCallback
    case disconnectAfterWriting
    case disconnectAfterReading
    case disconnectFromPerformBlock
    case disconnectFromTimer
    case peerCloses
    case readTimeout
    case refusedByAddress
    case refusedByHost
    case failedNameLookup

    var description: String { rawValue }
}

/// How a test runs its loop until there is nothing left.
enum RunStyle: String, CaseIterable, CustomStringConvertible, Sendable {
    /// `run()`.
    case run
    /// `run(mode: .default, before: .distantFuture)` again and again until it answers `.finished`.
    case runModeFarDeadline

    var description: String { rawValue }
}

/// Runs the current loop in `style` and reports whether it returned by itself (`run()` returning,
/// or `run(mode:before:)` answering `.finished`) within `seconds`; past that a watchdog stops it (so a
/// broken loop fails the test instead of hanging it).
func runReturnsByItself(_ style: RunStyle = .run, within seconds: TimeInterval = 10) -> Bool {
    let loop = EventRunLoop.current
    let state = Lock<(returned: Bool, stopped: Bool)>((false, false))
    let watchdog = DispatchWorkItem {
        state.withLock { state in
            guard !state.returned else { return }
            state.stopped = true
            loop.stop()
        }
    }
    DispatchQueue.global().asyncAfter(deadline: .now() + seconds, execute: watchdog)
    switch style {
    case .run:
        loop.run()
    case .runModeFarDeadline:
        while loop.run(mode: .default, before: .distantFuture) == .handledSource {}
    }
    watchdog.cancel()
    return state.withLock { state in
        state.returned = true
        return !state.stopped
    }
}

@Suite("EventRunLoop.run() returns once a socket's ending leaves its mode empty")
struct RunEndsByItselfTests {
    static let cases: [(RunLoopSocket.Engine, ConnectionEnding)] = RunLoopSocket.Engine.allCases.flatMap { engine in
        ConnectionEnding.allCases.map { (engine, $0) }
    }

    static let styles: [(RunLoopSocket.Engine, RunStyle)] = RunLoopSocket.Engine.allCases.flatMap { engine in
        RunStyle.allCases.map { (engine, $0) }
    }

    @Test("connect, then run() with no stop(): it returns after the connection ends", arguments: cases)
    func runReturns(engine: RunLoopSocket.Engine, ending: ConnectionEnding) async throws {
        let dns = ScriptedDNSServer()
        defer { dns.stop() }
        let resolver = HostResolver(nameservers: [dns.address], timeout: 0.5)
        try await onNewThread {
            let recorder = Recorder()
            let client = RunLoopSocket(delegate: recorder, engine: engine, resolver: resolver)
            recorder.name(client, "client")
            let listener = try RawListener()
            var peer: RawPeer?
            switch ending {
            case .refusedByAddress:
                try client.connectToAddress(loopbackAddress(port: unusedPort()))
            case .refusedByHost:
                try client.connectToHost("127.0.0.1", onPort: unusedPort())
            case .failedNameLookup:
                try client.connectToHost("no-such-host.test", onPort: 80, withTimeout: 10)
            default:
                try client.connectToHost("127.0.0.1", onPort: listener.port, withTimeout: 10)
                try #require(runUntil { client.isConnected })
                peer = listener.accept()
                try #require(peer != nil)
                arrange(ending, client: client, recorder: recorder, peer: peer!)
            }
            #expect(runReturnsByItself(.run), "run() did not return by itself on \(engine) after \(ending)")
            #expect(recorder.events("client").last == .didDisconnect, "\(recorder.events("client"))")
            #expect(!client.isConnected)
            withExtendedLifetime(peer) {}
        }
    }

    @Test(
        "a listener whose child ends the conversation and which then closes itself: the run returns",
        arguments: styles)
    func listenerAndChild(engine: RunLoopSocket.Engine, style: RunStyle) async throws {
        try await onNewThread {
            let recorder = Recorder()
            let server = RunLoopSocket(delegate: recorder, engine: engine)
            recorder.name(server, "server")
            try server.acceptOnInterface("127.0.0.1", port: 0)
            recorder.onConnect = { sock in sock.readData(to: RunLoopSocket.crlfData, withTimeout: 10, tag: 1) }
            recorder.onRead = { sock, _, _ in
                sock.write(Data("ok\r\n".utf8), withTimeout: 10, tag: 2)
                sock.disconnectAfterWriting()
            }
            recorder.onDisconnect = { sock in
                if sock !== server { server.disconnect() }
            }
            let peer = try RawPeer(port: server.localPort)
            peer.send("hello\r\n")
            #expect(runReturnsByItself(style), "the run did not return by itself on \(engine) (\(style))")
            #expect(recorder.events("server").last == .didDisconnect)
            #expect(recorder.events("child1").last == .didDisconnect)
            #expect(peer.receive(count: 4) == Array("ok\r\n".utf8))
        }
    }

    @Test("a refused connect, then run(mode:before:) with a far deadline answers .finished", arguments: styles)
    func refusedFarDeadline(engine: RunLoopSocket.Engine, style: RunStyle) async throws {
        try await onNewThread {
            let recorder = Recorder()
            let client = RunLoopSocket(delegate: recorder, engine: engine)
            recorder.name(client, "client")
            try client.connectToHost("127.0.0.1", onPort: unusedPort(), withTimeout: 10)
            #expect(runReturnsByItself(style), "the run did not return by itself on \(engine) (\(style))")
            #expect(recorder.events("client").last == .didDisconnect)
        }
    }

    /// Sets up the connected client so that the connection ends the given way once the loop runs.
    private func arrange(_ ending: ConnectionEnding, client: RunLoopSocket, recorder: Recorder, peer: RawPeer) {
        let loop = EventRunLoop.current
        switch ending {
        case .disconnectInReadCallback:
            recorder.onRead = { sock, _, _ in sock.disconnect() }
            client.readData(to: RunLoopSocket.crlfData, withTimeout: 10, tag: 1)
            peer.send("line\r\n")
        case .disconnectAfterWriting:
            client.write(Data("bye\r\n".utf8), withTimeout: 10, tag: 1)
            client.disconnectAfterWriting()
        case .disconnectAfterReading:
            client.readData(toLength: 4, withTimeout: 10, tag: 1)
            client.disconnectAfterReading()
            peer.send("four")
        case .disconnectFromPerformBlock:
            let socket = Ref(client)
            loop.perform { socket.value.disconnect() }
        case .disconnectFromTimer:
            loop.addTimer(after: 0.02) { _ in client.disconnect() }
        case .peerCloses:
            client.readData(withTimeout: -1, tag: 1)
            peer.send("last")
            peer.shutdownWrite()
        case .readTimeout:
            client.readData(toLength: 10, withTimeout: 0.05, tag: 1)
        case .refusedByAddress, .refusedByHost, .failedNameLookup:
            break
        }
    }
}
