import Foundation

/// A clock that moves only when the test says so; timers fire in deadline order.
package final class VirtualClock {
    package private(set) var now: TimeInterval = 0
    private var timers: [(deadline: TimeInterval, id: Int, action: () -> Void)] = []
    private var nextID = 0

    package init() {}

    /// Schedules `action` `seconds` from now; returns an id for ``cancel(_:)``.
    @discardableResult
    package func schedule(after seconds: TimeInterval, _ action: @escaping () -> Void) -> Int {
        nextID += 1
        timers.append((now + max(0, seconds), nextID, action))
        return nextID
    }

    package func cancel(_ id: Int?) {
        guard let id else { return }
        timers.removeAll { $0.id == id }
    }

    package var hasTimers: Bool { !timers.isEmpty }

    /// Moves time forward by `seconds`, firing every timer that falls due, in order.
    package func advance(by seconds: TimeInterval) {
        let end = now + seconds
        while let next = timers.filter({ $0.deadline <= end }).min(by: { ($0.deadline, $0.id) < ($1.deadline, $1.id) })
        {
            timers.removeAll { $0.id == next.id }
            now = next.deadline
            next.action()
        }
        now = end
    }
}
