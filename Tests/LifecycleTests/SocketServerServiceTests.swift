import AsyncSocketKit
import AsyncSocketServiceLifecycle
import Foundation
import ServiceLifecycle
import ServiceLifecycleTestKit
import SocketTestSupport
import Synchronization
import Testing

// SocketServerService over loopback on every face: a client asks for 32 MiB and does not read yet, so
// most of the reply waits in the server's write queue when the graceful shutdown comes; then the
// listener refuses new connections, the client reads every byte and then the close, and run()
// returns. With a short deadline and a client that never reads, the connection is closed at the
// deadline; cancelled, the service closes everything at once. Waits poll with a deadline (`eventually`).
// Each test runs on a thread of its own (`onNewThread`): the raw client's blocking reads must not hold
// a thread of the shared pool, where the service and the async face's tasks run.
@Suite("SocketServerService: graceful shutdown stops accepting, drains queued writes within a deadline, then closes")
struct SocketServerServiceTests {
    /// The reply a client asks for with "go\n": 512 writes of 64 KiB (one write on the async face).
    static let chunk = Data(repeating: 0x5A, count: 65_536)
    static let chunks = 512
    static let replySize = chunk.count * chunks

    /// A server on `face` and a raw client that asked for the reply and reads none of it yet: the reply
    /// is queued in the server's connection.
    static func replyWaiting(_ face: Face, drainTimeout: Duration) async throws -> (ServerUnderTest, RawPeer) {
        let server = try await ServerUnderTest.make(face, drainTimeout: drainTimeout)
        let client = try RawPeer(port: server.port)
        client.send("go\n")
        #expect(await eventually { server.replyQueued() })
        return (server, client)
    }

    @Test("the queued reply arrives whole, then the close; new connections are refused", arguments: Face.allCases)
    func drains(face: Face) async throws {
        try await onNewThread {
            try await testGracefulShutdown { trigger in
                let (server, client) = try await Self.replyWaiting(face, drainTimeout: .seconds(60))
                let run = RunningService(server)
                trigger.triggerGracefulShutdown()
                #expect(await eventually { (try? RawPeer(port: server.port)) == nil }, "the listener still accepts")
                // Well within the 60 s deadline: the drain, not the deadline, closes the connection.
                let received = client.receive(count: Self.replySize + 1, timeout: 15)
                #expect(received.count == Self.replySize)
                #expect(received.allSatisfy { $0 == 0x5A })
                #expect(await eventually(15) { run.finished })
                #expect(await eventually { server.connectionClosed() })
                await server.tearDown()
            }
        }
    }

    @Test("a client that never reads: closed at the deadline, and run() returns", arguments: Face.allCases)
    func deadline(face: Face) async throws {
        try await onNewThread {
            try await testGracefulShutdown { trigger in
                let (server, client) = try await Self.replyWaiting(face, drainTimeout: .milliseconds(200))
                let started = ContinuousClock.now
                let run = RunningService(server)
                trigger.triggerGracefulShutdown()
                #expect(await eventually { run.finished })
                let elapsed = ContinuousClock.now - started
                #expect(elapsed >= .milliseconds(200), "\(elapsed)")
                #expect(await eventually { server.connectionClosed() })
                let received = client.receive(count: Self.replySize, timeout: 10)
                #expect(received.count < Self.replySize)
                await server.tearDown()
            }
        }
    }

    @Test("cancelled instead of shut down: the listener and the connection close at once", arguments: Face.allCases)
    func cancelled(face: Face) async throws {
        try await onNewThread {
            try await testGracefulShutdown { _ in
                let (server, client) = try await Self.replyWaiting(face, drainTimeout: .seconds(60))
                let run = RunningService(server)
                run.task.cancel()
                #expect(await eventually { run.finished })
                #expect(await eventually { server.connectionClosed() })
                #expect(await eventually { (try? RawPeer(port: server.port)) == nil })
                // The client, kept open until here (its own close would end the connection too), reads
                // the start of the reply and then the close.
                #expect(client.receive(count: Self.replySize, timeout: 10).count < Self.replySize)
                await server.tearDown()
            }
        }
    }
}

/// A service's run() in a task of its own on the server's executor (inheriting the test's
/// graceful-shutdown trigger).
final class RunningService: Sendable {
    private final class Flag: Sendable {
        let done = Atomic<Bool>(false)
    }

    let task: Task<Void, any Error>
    private let flag = Flag()

    init(_ server: ServerUnderTest) {
        let flag = flag
        let service = server.service
        task = Task(executorPreference: server.executor) {
            defer { flag.done.store(true, ordering: .sequentiallyConsistent) }
            try await service.run()
        }
    }

    /// Whether run() returned.
    var finished: Bool { flag.done.load(ordering: .sequentiallyConsistent) }
}

/// Polls `condition` every 5 ms until it holds or `seconds` pass.
func eventually(_ seconds: Double = 10, _ condition: () -> Bool) async -> Bool {
    let deadline = ContinuousClock.now + .seconds(seconds)
    while !condition() {
        guard ContinuousClock.now < deadline else { return false }
        try? await Task.sleep(for: .milliseconds(5))
    }
    return true
}
