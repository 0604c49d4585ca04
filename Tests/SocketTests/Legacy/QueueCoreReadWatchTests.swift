import AsyncSocketCore
import AsyncSocketKit
import Foundation
import SocketTestSupport
import Testing

// The queue core's read watch (QueueCoreReadWatch.swift): the socket says what it wants from any
// thread, the loop applies the latest wish to its file source.
@Suite("The queue core's read watch: the loop applies the socket's latest wish to its file source")
struct QueueCoreReadWatchTests {
    @Test("a wish made before the loop's source exists is applied when the source is attached")
    func wishBeforeAttach() async throws {
        try await onNewThread {
            try Self.withSocketPair { local, remote in
                let watch = QueueCoreReadWatch()
                watch.want(true)
                let fired = Ref(0)
                let source = EventRunLoop.current.addFileSource(local) { event in
                    if event == .readable { fired.value += 1 }
                }
                defer { source.cancel() }
                #expect(!source.wantsReadable)
                watch.attach(source)
                #expect(source.wantsReadable)
                #expect(write(remote, "x", 1) == 1)
                #expect(runUntil { fired.value > 0 })
                watch.want(false)
                #expect(!source.wantsReadable)
                watch.detach()
            }
        }
    }

    @Test("a wish from another thread reaches the loop; one made later on the loop wins over it")
    func latestWishWins() async throws {
        try await onNewThread {
            try Self.withSocketPair { local, _ in
                let watch = QueueCoreReadWatch()
                let source = EventRunLoop.current.addFileSource(local) { _ in }
                defer { source.cancel() }
                watch.attach(source)
                let loop = EventRunLoop.current
                let arrived = Lock(false)
                let sent = DispatchSemaphore(value: 0)
                // From another thread: watch, then a marker queued behind the watch's own perform.
                Thread.detachNewThread {
                    watch.want(true)
                    loop.perform { arrived.withLock { $0 = true } }
                    sent.signal()
                }
                #expect(sent.wait(timeout: .now() + 10) == .success)
                #expect(runUntil { arrived.withLock { $0 } })
                #expect(source.wantsReadable)
                // The same from another thread, then the loop changes its mind before that perform runs:
                // the perform applies the latest wish, not the one it was sent for.
                arrived.withLock { $0 = false }
                Thread.detachNewThread {
                    watch.want(true)
                    loop.perform { arrived.withLock { $0 = true } }
                    sent.signal()
                }
                #expect(sent.wait(timeout: .now() + 10) == .success)
                watch.want(false)
                #expect(!source.wantsReadable)
                #expect(runUntil { arrived.withLock { $0 } })
                #expect(!source.wantsReadable)
                watch.detach()
            }
        }
    }

    /// Runs `body` with both ends of a new socket pair, and closes them.
    static func withSocketPair(_ body: (_ local: Int32, _ remote: Int32) throws -> Void) throws {
        let (local, remote) = makeSocketPair()
        defer {
            close(local)
            close(remote)
        }
        try body(local, remote)
    }
}
