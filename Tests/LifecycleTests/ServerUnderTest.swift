import AsyncSocketKit
import AsyncSocketServiceLifecycle
import Foundation
import SocketTestSupport
import Synchronization
import Testing

/// The faces a SocketServerService can serve.
enum Face: String, CaseIterable, CustomTestStringConvertible {
    case queueSocket
    case runLoopNative
    /// The native engine, each accepted connection moved to a loop of its own once connected.
    case runLoopMoved
    case runLoopQueueCore
    case async

    var testDescription: String { rawValue }
}

/// A listener on 127.0.0.1 whose connections answer "go\n" with the 32 MiB reply, and its service.
struct ServerUnderTest: @unchecked Sendable {
    // @unchecked Sendable: the closures touch their face's objects only through that face's own
    // thread-safe calls (QueueSocket, the async face) or on the loop thread (RunLoopSocket).
    let port: UInt16
    let service: SocketServerService
    /// Where the service's run() (and the async face's server tasks) run: a thread of their own, not
    /// the shared pool, which the suite's blocking tests can hold for seconds.
    let executor: ThreadExecutor
    /// Whether the accepted connection has queued its whole reply.
    let replyQueued: @Sendable () -> Bool
    /// Whether the accepted connection has closed.
    let connectionClosed: @Sendable () -> Bool
    let tearDown: @Sendable () async -> Void

    static func make(_ face: Face, drainTimeout: Duration) async throws -> ServerUnderTest {
        let executor = ThreadExecutor(name: "lifecycle-service")
        switch face {
        case .queueSocket: return try queueSocket(drainTimeout, executor)
        case .runLoopNative: return try runLoop(.native, drainTimeout, executor)
        case .runLoopMoved: return try runLoop(.native, drainTimeout, executor, movingConnections: true)
        case .runLoopQueueCore: return try runLoop(.queueCore, drainTimeout, executor)
        case .async: return try await async(drainTimeout, executor)
        }
    }

    private static func queueSocket(_ drainTimeout: Duration, _ executor: ThreadExecutor) throws -> ServerUnderTest {
        let recorder = QueueRecorder()
        let queued = Atomic<Bool>(false)
        recorder.onAccept = { child in child.readData(to: Data("\n".utf8), withTimeout: -1, tag: 0) }
        recorder.onRead = { socket, _, _ in
            for tag in 1...SocketServerServiceTests.chunks {
                socket.write(SocketServerServiceTests.chunk, withTimeout: -1, tag: tag)
            }
            queued.store(true, ordering: .sequentiallyConsistent)
        }
        let listener = QueueSocket(delegate: recorder, delegateQueue: recorder.queue)
        recorder.name(listener, "server")
        let service = SocketServerService(listener: listener, drainTimeout: drainTimeout)
        try listener.accept(onInterface: "127.0.0.1", port: 0)
        return ServerUnderTest(
            port: listener.localPort, service: service, executor: executor,
            replyQueued: { queued.load(ordering: .sequentiallyConsistent) },
            connectionClosed: {
                recorder.events("child1").contains { if case .disconnected = $0 { true } else { false } }
            },
            tearDown: {
                listener.disconnect()
                executor.shutdown()
            })
    }

    private static func runLoop(
        _ engine: RunLoopSocket.Engine, _ drainTimeout: Duration, _ executor: ThreadExecutor,
        movingConnections: Bool = false
    ) throws -> ServerUnderTest {
        let thread = EventRunLoopThread(name: "lifecycle-server")
        let worker = EventRunLoopThread(name: "lifecycle-worker")
        let recorder = Recorder()
        let queued = Atomic<Bool>(false)
        recorder.onAccept = { _, child in child.readData(to: Data("\n".utf8), withTimeout: -1, tag: 0) }
        if movingConnections {
            // After the accept sequence: the service learnt the listener's loop for the connection.
            recorder.onConnect = { socket in socket.moveToRunLoop(worker.loop) }
        }
        recorder.onRead = { socket, _, _ in
            for tag in 1...SocketServerServiceTests.chunks {
                socket.write(SocketServerServiceTests.chunk, withTimeout: -1, tag: tag)
            }
            queued.store(true, ordering: .sequentiallyConsistent)
        }
        let made = Ref<Result<(RunLoopSocket, SocketServerService, UInt16), any Error>?>(nil)
        let done = DispatchSemaphore(value: 0)
        thread.loop.perform {
            made.value = Result {
                let listener = RunLoopSocket(delegate: recorder, engine: engine)
                recorder.name(listener, "server")
                let service = SocketServerService(listener: listener, drainTimeout: drainTimeout)
                try listener.acceptOnInterface("127.0.0.1", port: 0)
                return (listener, service, listener.localPort)
            }
            done.signal()
        }
        done.wait()
        let (listener, service, port) = try made.value!.get()
        let reference = Ref<RunLoopSocket?>(listener)
        return ServerUnderTest(
            port: port, service: service, executor: executor,
            replyQueued: { queued.load(ordering: .sequentiallyConsistent) },
            connectionClosed: { recorder.events("child1").contains(.didDisconnect) },
            tearDown: {
                thread.loop.perform {
                    reference.value?.disconnect()
                    reference.value = nil
                }
                thread.terminate()
                worker.terminate()
                executor.shutdown()
            })
    }

    private static func async(_ drainTimeout: Duration, _ executor: ThreadExecutor) async throws -> ServerUnderTest {
        let listener = try AsyncSocketListener(host: "127.0.0.1", port: 0)
        let service = SocketServerService(listener: listener, drainTimeout: drainTimeout)
        let state = AsyncServerState()
        let reply = Data(repeating: 0x5A, count: SocketServerServiceTests.replySize)
        let server = Task(executorPreference: executor) {
            for try await connection in listener.connections {
                state.accepted.withLock { $0 = connection }
                Task(executorPreference: executor) {
                    defer { state.closed.store(true, ordering: .sequentiallyConsistent) }
                    _ = try? await connection.read(through: Data("\n".utf8))
                    try? await connection.write(reply)
                    // The close ends the wait: the drain's close after the write, or the deadline's.
                    _ = try? await connection.read(upTo: 1)
                }
            }
        }
        return ServerUnderTest(
            port: listener.port, service: service, executor: executor,
            replyQueued: { state.accepted.withLock { ($0?.queuedWriteBytes ?? 0) > 0 } },
            connectionClosed: { state.closed.load(ordering: .sequentiallyConsistent) },
            tearDown: {
                listener.close()
                _ = await server.result
                executor.shutdown()
            })
    }
}

/// What the async server's tasks share with the test.
final class AsyncServerState: Sendable {
    let accepted = Mutex<AsyncSocketConnection?>(nil)
    let closed = Atomic<Bool>(false)
}
