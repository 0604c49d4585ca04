import AsyncSocketKit
import Foundation
import SocketTestSupport
import Testing

// Cancellation at each place an async connection or listener suspends: the task is cancelled once it is
// seen waiting there (a read or write current on the socket, the handshake's first bytes at the peer), and
// gets CancellationError; the connection closes. (A connect waiting for an answer has no test yet: run
// beside the other tests here, a connect to a full backlog was never seen in SYN_SENT in /proc/net/tcp.) Each waiting task runs on a thread
// executor of its own (the shared pool may be kept busy by other tests).

/// Where a connection's task waits.
enum ReadSuspension: String, CaseIterable, CustomStringConvertible {
    case exactly = "read(exactly:)"
    case through = "read(through:)"
    case upTo = "read(upTo:)"
    case lines = "lines()"

    var description: String { rawValue }

    func wait(on connection: AsyncSocketConnection) async throws {
        switch self {
        case .exactly: _ = try await connection.read(exactly: 4)
        case .through: _ = try await connection.read(through: Data("\n".utf8))
        case .upTo: _ = try await connection.read(upTo: 0)
        case .lines: for try await _ in connection.lines() {}
        }
    }
}

@Suite("Async face: cancellation at every suspension point")
struct AsyncCancellationTests {
    @Test(
        "a read waiting for bytes: CancellationError, and the peer sees the close", arguments: ReadSuspension.allCases)
    func read(suspension: ReadSuspension) async throws {
        try await onNewThread {
            let executor = ThreadExecutor(name: "tasks")
            defer { executor.shutdown() }
            let (_, peer, server) = try await asyncRawPair()
            let waiting = Task(executorPreference: executor) { try await suspension.wait(on: server) }
            #expect(waitUntil { readDone(server) >= 0 })
            waiting.cancel()
            await #expect(throws: CancellationError.self) { try await within { try await waiting.value } }
            #expect(peer.sawClose())
        }
    }

    @Test("a write waiting for the peer to read: CancellationError, and the connection is closed")
    func write() async throws {
        try await onNewThread {
            let executor = ThreadExecutor(name: "tasks")
            defer { executor.shutdown() }
            // The peer stays open and reads nothing: the write waits for room.
            let (_, peer, server) = try await asyncRawPair()
            let big = Data(repeating: 1, count: 8 << 20)
            let waiting = Task(executorPreference: executor) { try await server.write(big) }
            #expect(waitUntil { writeDone(server) > 0 })
            waiting.cancel()
            await #expect(throws: CancellationError.self) { try await within { try await waiting.value } }
            await #expect(throws: AsyncConnectionError.closed) { try await server.read(exactly: 1) }
            withExtendedLifetime(peer) {}
        }
    }

    @Test("startTLS waiting for the peer's answer: CancellationError, and the connection is closed")
    func startTLS() async throws {
        try await onNewThread {
            let executor = ThreadExecutor(name: "tasks")
            defer { executor.shutdown() }
            let fixture = try TLSFixture.shared()
            let listener = try RawListener()
            let port = listener.port
            let client = try await within { try await AsyncSocketConnection.connect(toHost: "127.0.0.1", port: port) }
            let peer = try #require(listener.accept())
            let waiting = Task(executorPreference: executor) { try await client.startTLS(fixture.clientSettings()) }
            // The ClientHello has reached the peer, which never answers: the handshake waits.
            #expect(!peer.receive(count: 1).isEmpty)
            waiting.cancel()
            await #expect(throws: CancellationError.self) { try await within { try await waiting.value } }
            await #expect(throws: AsyncConnectionError.closed) { try await client.read(exactly: 1) }
        }
    }

    @Test("a task waiting for the next connection: the sequence ends, and the listener stops listening")
    func accept() async throws {
        try await onNewThread {
            let executor = ThreadExecutor(name: "tasks")
            defer { executor.shutdown() }
            // Below the ephemeral range: no other test's listener or connection can take the port once it is
            // free, so a refused connect to it says this listener stopped.
            var made: AsyncSocketListener?
            let port = try listenBelowEphemeralRange { made = try AsyncSocketListener(host: "127.0.0.1", port: $0) }
            let listener = try #require(made)
            let waiting = Task(executorPreference: executor) {
                var count = 0
                for try await _ in listener.connections { count += 1 }
                return count
            }
            waiting.cancel()
            #expect(try await within { try await waiting.value } == 0)
            #expect(waitUntil { (try? RawPeer(port: port)) == nil })
        }
    }
}
