import Foundation

/// What a recording delegate heard, shared by ``Recorder`` (RunLoopSocket) and ``QueueRecorder``
/// (QueueSocket): the labels given to sockets, every callback in arrival order with the socket's label
/// and thread, the sockets accepted (named "child1", "child2", … in order), and a wait for a
/// condition with a deadline. Safe from any thread.
package final class RecorderLog<Socket: AnyObject, Event>: @unchecked Sendable {
    // @unchecked Sendable: every variable is behind `condition`.
    package struct Entry: CustomStringConvertible {
        package let socket: String
        package let event: Event
        package let thread: pthread_t
        package var description: String { "\(socket) \(event)" }
    }

    private let condition = NSCondition()
    private var names: [ObjectIdentifier: String] = [:]
    private var entries: [Entry] = []
    private var childCount = 0
    private var acceptedSockets: [Socket] = []

    package init() {}

    package func name(_ socket: Socket, _ label: String) {
        condition.withLock { names[ObjectIdentifier(socket)] = label }
    }

    package func label(_ socket: Socket) -> String {
        condition.withLock { names[ObjectIdentifier(socket)] ?? "?" }
    }

    package func append(_ socket: Socket, _ event: Event) {
        condition.withLock {
            entries.append(Entry(socket: names[ObjectIdentifier(socket)] ?? "?", event: event, thread: pthread_self()))
            condition.broadcast()
        }
    }

    /// Names `child` after the accepts so far, keeps it when `keep` says so, and records `event` (made
    /// with the child's label) for `listener`, in one critical section: a waiter that sees the
    /// accepted socket also sees the event. Returns the child's label.
    package func accepted(_ child: Socket, by listener: Socket, keep: Bool, _ event: (String) -> Event) -> String {
        condition.withLock {
            childCount += 1
            let label = "child\(childCount)"
            names[ObjectIdentifier(child)] = label
            if keep { acceptedSockets.append(child) }
            entries.append(
                Entry(socket: names[ObjectIdentifier(listener)] ?? "?", event: event(label), thread: pthread_self()))
            condition.broadcast()
            return label
        }
    }

    /// The accepted sockets kept so far.
    package var accepted: [Socket] { condition.withLock { acceptedSockets } }

    package var all: [Entry] { condition.withLock { entries } }

    package func events(_ label: String) -> [Event] {
        condition.withLock { entries.filter { $0.socket == label }.map(\.event) }
    }

    /// Runs `body` under the log's lock (for a recorder's own scripted answers).
    package func withLock<T>(_ body: () throws -> T) rethrows -> T {
        try condition.withLock(body)
    }

    /// Waits until `predicate` holds (checked after every entry, and at least every 50 ms) or
    /// `timeout` passes.
    package func wait(timeout: TimeInterval, until predicate: () -> Bool) -> Bool {
        let deadline = Date(timeIntervalSinceNow: timeout)
        while !predicate() {
            if Date() >= deadline { return false }
            condition.lock()
            _ = condition.wait(until: min(deadline, Date(timeIntervalSinceNow: 0.05)))
            condition.unlock()
        }
        return true
    }
}
