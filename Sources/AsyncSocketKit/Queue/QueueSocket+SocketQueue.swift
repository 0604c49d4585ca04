import CAsyncSocketShims
import Dispatch

// Knowing whether the calling thread runs this socket's queue, so a call made there runs inline
// instead of deadlocking in `sync`. GCDAsyncSocket marks the queue with a queue-specific value. When
// a queue that carries one goes away, libdispatch runs the value's destructor (Swift's `setSpecific`
// always has one) asynchronously on a global queue: a worker thread woken for every socket that
// closes, about a fifth of the server's time when connections are short (Benchmarks/QUEUE-CORE.md).
// So everything the socket runs on its queue goes through `onSocketQueue`, which marks the calling
// thread with the queue's identity for the duration (`sync`, `async`, the sources' and timers'
// handlers, and the per-operation paths that queue work themselves). A queue the socket made is
// marked only so; a queue the user gave may also run the user's own blocks (it may be the delegate
// queue), so it keeps the queue-specific value too, as do the queues named by
// ``markSocketQueueTargetQueue(_:)``.
extension QueueSocket {
    var isOnSocketQueue: Bool {
        if ask_current_socket_queue() == socketQueueIdentity {
            return true
        }
        guard socketQueueIsUsers || marksTargetQueues.load(ordering: .relaxed) else { return false }
        return DispatchQueue.getSpecific(key: queueKey) == true
    }

    /// Runs `body` with the calling thread marked as running this socket's queue (the caller is on it).
    func onSocketQueue<T>(_ body: () throws -> T) rethrows -> T {
        let outer = ask_current_socket_queue()
        ask_set_current_socket_queue(socketQueueIdentity)
        defer { ask_set_current_socket_queue(outer) }
        return try body()
    }

    /// Runs `body`, which may throw, on the socket queue and waits (inline when already there).
    func syncThrowing<T>(_ body: () throws -> T) throws -> T {
        if isOnSocketQueue {
            return try body()
        }
        return try socketQueue.sync { try onSocketQueue(body) }
    }

    /// Runs `body` on the socket queue and waits (inline when already there). Through Dispatch's
    /// non-generic `sync`, which allocates one object fewer per call than its generic, rethrowing one
    /// (the queue-core engine's reads and writes from the loop come this way).
    func sync<T>(_ body: () -> T) -> T {
        if isOnSocketQueue {
            return body()
        }
        var result: T?
        socketQueue.sync { () -> Void in result = onSocketQueue(body) }
        return result!
    }

    /// Queues `body` on the socket queue. (The per-operation paths write `socketQueue.async { [self]
    /// in onSocketQueue { … } }` themselves: wrapping `body` here costs one more allocation per call.)
    func async(_ body: @escaping @Sendable () -> Void) {
        socketQueue.async { [self] in onSocketQueue(body) }
    }

    /// Makes calls from `queue`, a queue the socket queue targets, run inline instead of deadlocking
    /// (`markSocketQueueTargetQueue:`).
    public func markSocketQueueTargetQueue(_ queue: DispatchQueue) {
        marksTargetQueues.store(true, ordering: .relaxed)
        queue.setSpecific(key: queueKey, value: true)
    }

    /// Undoes ``markSocketQueueTargetQueue(_:)``.
    ///
    /// Original: `unmarkSocketQueueTargetQueue:` (GCDAsyncSocket).
    public func unmarkSocketQueueTargetQueue(_ queue: DispatchQueue) {
        queue.setSpecific(key: queueKey, value: nil)
    }
}
