import Foundation

/// Thrown by ``within(_:_:)`` when its body did not finish in time.
package struct DeadlinePassed: Error, CustomStringConvertible {
    package let seconds: Double
    package var description: String { "not done within \(seconds) s" }
}

/// Runs `body` and returns what it returns, or throws ``DeadlinePassed`` (cancelling `body`) when it has
/// not finished within `seconds`: the bound of a test's await that could otherwise wait forever.
package func within<T: Sendable>(_ seconds: Double = 10, _ body: @escaping @Sendable () async throws -> T)
    async throws -> T
{
    try await withThrowingTaskGroup(of: T?.self) { group in
        group.addTask { try await body() }
        group.addTask {
            try await Task.sleep(for: .seconds(seconds))
            return nil
        }
        defer { group.cancelAll() }
        guard case let value?? = try await group.next() else { throw DeadlinePassed(seconds: seconds) }
        return value
    }
}
