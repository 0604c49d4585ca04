import AsyncSocketKit
import Dispatch
import Foundation
import SocketTestSupport
import Testing

// How a QueueSocket knows a call comes from its own socket queue (QueueSocket+SocketQueue.swift): the
// descriptor getters answer only there, and a call made there runs inline instead of deadlocking. A
// queue the socket made is marked per thread, a queue the user gave (or named with
// markSocketQueueTargetQueue) by a queue-specific value as well.
@Suite("QueueSocket: calls from its own socket queue")
struct QueueSocketQueueMarkTests {
    /// Runs `body` on a new thread and waits for it: `false` when it did not finish within 10 s.
    private func finishes(_ body: @escaping @Sendable () -> Void) -> Bool {
        let done = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            body()
            done.signal()
        }
        return done.wait(timeout: .now() + 10) == .success
    }

    /// Whether calls made from a block on `queue` reach `socket` inline: its descriptor answers there
    /// and a synchronous getter returns (no deadlock) with the right value.
    private func callsInline(to socket: QueueSocket, from queue: DispatchQueue) -> Bool {
        let seen = Ref<(fd: Int32, port: UInt16)>((-1, 0))
        let finished = finishes {
            queue.sync {
                seen.value.fd = socket.socket4FD
                seen.value.port = socket.localPort
            }
        }
        return finished && seen.value.fd >= 0 && seen.value.port == socket.localPort
    }

    private func listening(_ socket: QueueSocket) throws {
        socket.isIPv6Enabled = false
        try socket.accept(onInterface: "127.0.0.1", port: 0)
    }

    @Test(
        "inside perform: the descriptors answer, a synchronous getter runs inline; another socket's do not answer there"
    )
    func ownQueue() throws {
        let recorder = QueueRecorder()
        let socket = QueueSocket(delegate: recorder, delegateQueue: recorder.queue)
        let other = QueueSocket(delegate: recorder, delegateQueue: recorder.queue)
        try listening(socket)
        try listening(other)
        #expect(socket.socket4FD == -1)
        let seen = Ref<(own: Int32, port: UInt16, other: Int32, nestedOwn: Int32, afterNested: Int32)>(
            (-1, 0, 0, 0, -1))
        #expect(
            finishes {
                socket.perform {
                    seen.value.own = socket.socket4FD
                    seen.value.port = socket.localPort
                    seen.value.other = other.socket4FD
                    other.perform { seen.value.nestedOwn = socket.socket4FD }
                    seen.value.afterNested = socket.socket4FD
                }
            })
        #expect(seen.value.own >= 0)
        #expect(seen.value.port == socket.localPort && seen.value.port != 0)
        #expect(seen.value.other == -1)
        #expect(seen.value.nestedOwn == -1)
        #expect(seen.value.afterNested == seen.value.own)
        socket.disconnect()
        other.disconnect()
    }

    @Test("a socket queue given as the delegate queue: the user's own blocks on it call the socket inline")
    func givenQueueAsDelegateQueue() throws {
        let recorder = QueueRecorder()
        let queue = DispatchQueue(label: "socket-and-delegate")
        let socket = try QueueSocket(delegate: recorder, delegateQueue: queue, socketQueue: queue)
        try listening(socket)
        #expect(callsInline(to: socket, from: queue))
        socket.disconnect()
    }

    @Test("markSocketQueueTargetQueue: blocks on the marked target queue call the socket inline; unmarked, they do not")
    func markedTargetQueue() throws {
        let recorder = QueueRecorder()
        let target = DispatchQueue(label: "target")
        let socket = try QueueSocket(
            delegate: recorder, delegateQueue: recorder.queue,
            socketQueue: DispatchQueue(label: "socket", target: target))
        try listening(socket)
        socket.markSocketQueueTargetQueue(target)
        #expect(callsInline(to: socket, from: target))
        socket.unmarkSocketQueueTargetQueue(target)
        let unmarkedFD = Ref<Int32>(0)
        target.sync { unmarkedFD.value = socket.socket4FD }
        #expect(unmarkedFD.value == -1)
        socket.disconnect()
    }
}
