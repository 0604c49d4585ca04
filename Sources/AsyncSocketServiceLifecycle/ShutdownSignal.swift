import AsyncSocketCore
import ServiceLifecycle

// Waits for the service group's graceful shutdown or the task's cancellation with synchronous handlers
// only. ServiceLifecycle's own `gracefulShutdown()` resumes its caller through an actor and unstructured
// tasks, so it needs a free thread of Swift's shared pool; a server whose pool threads are all blocked
// (blocking work, a busy test suite) would never hear the signal. Here the handler resumes the waiting
// task directly, on whatever executor it runs.

/// Why the wait for shutdown ended.
enum ShutdownReason: Sendable {
    case gracefulShutdown
    case cancelled
}

/// One wait for the first of graceful shutdown and cancellation.
final class ShutdownSignal: Sendable {
    private struct State {
        var reason: ShutdownReason?
        var waiter: CheckedContinuation<ShutdownReason, Never>?
    }

    private let state = Lock(State())

    /// Suspends until the service group shuts down gracefully or the calling task is cancelled (at once
    /// when either already happened).
    static func next() async -> ShutdownReason {
        let signal = ShutdownSignal()
        return await withTaskCancellationHandler {
            await withGracefulShutdownHandler {
                await signal.wait()
            } onGracefulShutdown: {
                signal.fire(.gracefulShutdown)
            }
        } onCancel: {
            signal.fire(.cancelled)
        }
    }

    /// Records the first reason and resumes the waiting task, if one waits.
    private func fire(_ reason: ShutdownReason) {
        let waiter = state.withLock { state -> CheckedContinuation<ShutdownReason, Never>? in
            guard state.reason == nil else { return nil }
            state.reason = reason
            defer { state.waiter = nil }
            return state.waiter
        }
        waiter?.resume(returning: reason)
    }

    private func wait() async -> ShutdownReason {
        await withCheckedContinuation { continuation in
            let ready = state.withLock { state -> ShutdownReason? in
                if let reason = state.reason { return reason }
                state.waiter = continuation
                return nil
            }
            if let ready {
                continuation.resume(returning: ready)
            }
        }
    }
}
