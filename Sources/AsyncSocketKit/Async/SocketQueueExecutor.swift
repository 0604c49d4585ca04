import Dispatch

// A task executor over a connection's socket queue: a task that prefers it runs its code where the
// socket's callbacks are made, so resuming it after a read or write needs no other thread, and the
// calls it makes on the socket are queued behind it on the same queue. Jobs run one at a time, in
// order, marked as the socket queue's work (QueueSocket+SocketQueue.swift), so a call that waits for
// the socket queue runs inline instead of waiting for itself.

/// Runs jobs on a socket's queue (see ``AsyncSocketConnection/executor``).
final class SocketQueueExecutor: TaskExecutor {
    private let socket: QueueSocket

    init(socket: QueueSocket) {
        self.socket = socket
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        socket.socketQueue.async { [self] in
            socket.onSocketQueue {
                job.runSynchronously(on: asUnownedTaskExecutor())
            }
        }
    }
}
