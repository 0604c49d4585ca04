import AsyncSocketCore
import CAsyncSocketShims
import Foundation

/// A thread that runs its own ``EventRunLoop`` until terminated: the worker loops a listening socket
/// hands accepted sockets to (`onSocket(_:wantsRunLoopForNewSocket:)`).
///
/// The worker runs ``RunLoopMode/default`` and stays alive with nothing registered, waiting for
/// ``EventRunLoop/perform(inModes:_:)`` blocks. ``EventRunLoop/stop()`` only interrupts the current
/// run; ``terminate()`` ends the thread, and the thread frees every libevent object and file
/// descriptor of its loop as it exits.
public final class EventRunLoopThread: Sendable {
    /// The worker's loop.
    public let loop: EventRunLoop
    private let thread: pthread_t
    private let joined = Lock(false)

    /// Starts a thread named `name` (at most 15 characters are kept) and returns once its loop exists.
    public init(name: String = "EventRunLoop") {
        let start = WorkerStart(name: name)
        var thread = pthread_t()
        let context = Unmanaged.passRetained(start).toOpaque()
        let rc = pthread_create(
            &thread, nil,
            { context in
                let start = Unmanaged<WorkerStart>.fromOpaque(context!).takeRetainedValue()
                start.main()
                return nil
            }, context)
        guard rc == 0 else {
            Unmanaged<WorkerStart>.fromOpaque(context).release()
            fatalError("EventRunLoopThread: pthread_create failed: \(String(cString: strerror(rc)))")
        }
        self.thread = thread
        self.loop = start.waitForLoop()
    }

    /// Ends the worker's current run, lets the thread free its loop and exit, and waits for it.
    /// Idempotent; must not be called from the worker thread itself.
    public func terminate() {
        precondition(!loop.isCurrent, "EventRunLoopThread.terminate() called on the worker thread itself")
        let mustJoin = joined.withLock { joined in
            defer { joined = true }
            return !joined
        }
        guard mustJoin else { return }
        loop.requestTermination()
        pthread_join(thread, nil)
    }
}

/// Hands the new thread's loop back to the thread that started it.
private final class WorkerStart: Sendable {
    let name: String
    private let ready = DispatchSemaphore(value: 0)
    private let created = Lock<EventRunLoop?>(nil)

    init(name: String) {
        self.name = name
    }

    func main() {
        ask_set_thread_name(String(name.prefix(15)))
        let loop = EventRunLoop.current
        loop.retainForWorker()
        created.withLock { $0 = loop }
        ready.signal()
        while !loop.isTerminationRequested {
            _ = loop.runMode(.default, deadline: .max, returnAfterSourceHandled: false)
        }
    }

    func waitForLoop() -> EventRunLoop {
        ready.wait()
        return created.withLock { $0! }
    }
}
