// What lets MigrationTesting's side-by-side runner trace an async port without changing its code: the
// runner runs the port in a task that carries an observer (a task-local value, inherited by the tasks
// the port starts), and each connection or listener the port makes there asks the observer, once, for
// a delegate that sees its callbacks too (a trace recorder). Connections a listener accepts share the
// listener's. Without an observer nothing is looked up after that one task-local read.

/// Sees the sockets under the async connections and listeners made in a task that carries it.
package protocol AsyncSocketObserver: Sendable {
    /// `socket` (a connection about to connect, or a listener about to listen) was made in a task that
    /// carries this observer: returns the delegate that sees its callbacks, before the connection
    /// does, or `nil`.
    func observe(_ socket: QueueSocket) -> (any QueueSocketDelegate & Sendable)?
}

/// The observer of the current task, if any.
package enum AsyncSocketObservation {
    @TaskLocal package static var observer: (any AsyncSocketObserver)?
}
