import Foundation

/// A peer's outcome, handed from the thread that plays its script to the threads that wait for it.
final class PeerResult: @unchecked Sendable {
    // @unchecked Sendable: `value` is touched only under `condition`.
    private let condition = NSCondition()
    private var value: PeerOutcome?

    /// The outcome, once there is one.
    var outcome: PeerOutcome? {
        condition.withLock { value }
    }

    /// Waits up to `timeout` seconds for the outcome; `nil` if there is none by then.
    func wait(timeout: TimeInterval) -> PeerOutcome? {
        let deadline = Date(timeIntervalSinceNow: timeout)
        return condition.withLock {
            while value == nil, condition.wait(until: deadline) {}
            return value
        }
    }

    func finish(_ outcome: PeerOutcome) {
        condition.withLock {
            value = outcome
            condition.broadcast()
        }
    }
}
