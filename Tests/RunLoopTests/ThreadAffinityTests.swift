import AsyncSocketKit
import Foundation
import SocketTestSupport
import Testing

@Suite("EventRunLoop thread affinity")
struct ThreadAffinityTests {
    @Test("registering on another thread's loop stops the program, naming the call and both threads")
    func wrongThreadStops() async throws {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let worker = EventRunLoopThread(name: "loop-owner")
            _ = worker.loop.addTimer(after: 1) { _ in }
        }
        let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(message.contains("EventRunLoop.addTimer(after:repeating:modes:_:) called on thread"))
        #expect(message.contains("'loop-owner'"))
        #expect(message.contains("belongs to thread"))
    }

    @Test("the main loop is one object, reachable from any thread, but owned by the main thread")
    func mainLoop() async throws {
        let loops = try await onNewThread { (EventRunLoop.main, EventRunLoop.main, EventRunLoop.current) }
        #expect(loops.0 === loops.1)
        #expect(loops.0 !== loops.2)
        #expect(!loops.0.isCurrent)
        await #expect(processExitsWith: .failure) {
            _ = try await onNewThread {
                _ = EventRunLoop.main.addTimer(after: 1) { _ in }
            }
        }
    }

    @Test("each thread has its own current loop, the same one on every call")
    func currentPerThread() async throws {
        let first = try await onNewThread { EventRunLoop.current === EventRunLoop.current }
        #expect(first)
        let worker = EventRunLoopThread()
        defer { worker.terminate() }
        let other = try await onNewThread { EventRunLoop.current }
        #expect(other !== worker.loop)
    }
}
