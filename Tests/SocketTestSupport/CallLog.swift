import Foundation

/// What a test's delegates heard, in order, from whichever thread called them; a test waits for an
/// entry with a deadline.
package final class CallLog: @unchecked Sendable {
    private let condition = NSCondition()
    private var entries: [String] = []

    package init() {}

    package func add(_ entry: String) {
        condition.withLock {
            entries.append(entry)
            condition.broadcast()
        }
    }

    package var all: [String] { condition.withLock { entries } }

    /// Waits until `entry` was added or `timeout` passes.
    package func wait(for entry: String, timeout: TimeInterval = 10) -> Bool {
        let deadline = Date(timeIntervalSinceNow: timeout)
        return condition.withLock {
            while !entries.contains(entry) {
                if !condition.wait(until: deadline) { return entries.contains(entry) }
            }
            return true
        }
    }
}
