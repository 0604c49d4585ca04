import Foundation

/// The events the trace recorders write, in the order they happened, shared by all the sockets of
/// one run (a listener and its accepted sockets, or several clients). Safe from any thread.
public final class TraceLog: @unchecked Sendable {
    // @unchecked Sendable: every stored property is touched only under `condition`.
    private let condition = NSCondition()
    private var entries: [TraceEntry] = []
    private var labels: [ObjectIdentifier: String] = [:]
    private var children = 0
    private var open: Set<String> = []
    private var version = 0
    private var opened = 0

    /// An empty log.
    public init() {}

    /// Every event so far.
    public var trace: [TraceEntry] {
        condition.withLock { entries }
    }

    /// The events of the socket labelled `label`.
    public func events(of label: String) -> [TraceEvent] {
        condition.withLock { entries.filter { $0.socket == label }.map(\.event) }
    }

    /// Whether every connection that opened (connected or accepted) has reported its final
    /// disconnect.
    public var allConnectionsClosed: Bool {
        condition.withLock { open.isEmpty }
    }

    /// How many connections have opened (connected or accepted) so far.
    public var connectionsOpened: Int {
        condition.withLock { opened }
    }

    /// Waits until `predicate` holds, up to `timeout` seconds; returns whether it did. The predicate
    /// runs outside the log's lock (it may read the log) and again after every recorded event.
    public func wait(timeout: TimeInterval, until predicate: () -> Bool) -> Bool {
        let deadline = Date(timeIntervalSinceNow: timeout)
        while true {
            let seen = condition.withLock { version }
            if predicate() {
                return true
            }
            condition.lock()
            var inTime = true
            while version == seen && inTime {
                inTime = condition.wait(until: deadline)
            }
            condition.unlock()
            if !inTime {
                return predicate()
            }
        }
    }

    /// Waits up to `timeout` seconds until each socket labelled in `labels` has reported its final
    /// callback (``TraceEvent/disconnected(_:)``); returns whether all did.
    func waitForDisconnects(of labels: [String], timeout: TimeInterval) -> Bool {
        wait(timeout: timeout) {
            labels.allSatisfy { label in
                events(of: label).contains { if case .disconnected = $0 { true } else { false } }
            }
        }
    }

    /// Names `socket` (an object identity) `label`, unless it already has a name.
    func name(_ socket: AnyObject, _ label: String) {
        condition.withLock {
            let key = ObjectIdentifier(socket)
            if labels[key] == nil {
                labels[key] = label
            }
        }
    }

    /// The label of `socket`: its name, or "socket" for one nobody named.
    func label(of socket: AnyObject) -> String {
        condition.withLock { labels[ObjectIdentifier(socket)] ?? "socket" }
    }

    /// Names a newly accepted socket `childN` and returns the name.
    func nameChild(_ socket: AnyObject) -> String {
        condition.withLock {
            children += 1
            let label = "child\(children)"
            labels[ObjectIdentifier(socket)] = label
            return label
        }
    }

    /// Appends an event and wakes waiters.
    func record(_ socket: AnyObject, _ event: TraceEvent) {
        condition.withLock {
            let label = labels[ObjectIdentifier(socket)] ?? "socket"
            entries.append(TraceEntry(socket: label, event: event))
            switch event {
            case .connected:
                open.insert(label)
                opened += 1
            case .accepted(let child):
                open.insert(child)
                opened += 1
            case .disconnected:
                open.remove(label)
            default:
                break
            }
            version += 1
            condition.broadcast()
        }
    }
}
