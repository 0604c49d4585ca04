import Foundation

/// What a descriptor is watched for.
enum WatchKind {
    /// A connect in flight completing (the descriptor turns writable).
    case connectCompletion
    /// A listener with connections waiting (the descriptor turns readable).
    case incomingConnections
}

/// What the drivers (``ConnectDriver``, ``ListenerDriver``) need from the place a socket runs:
/// watches on descriptors and one-shot timers. Handlers run where the socket's other work runs (the
/// loop thread, in the socket's modes; the socket queue) and are handed the scheduler, so a driver
/// holds no reference to it: the socket that owns a driver may be going away (a QueueSocket closes
/// from its deinit) when it asks the driver to let go.
protocol SocketScheduler: AnyObject {
    associatedtype Watch
    associatedtype Timer
    /// The scheduler handed to handlers: the conforming type itself (named so a class that is not
    /// `final`, QueueSocket, can conform; the drivers require `Fired == Self`).
    associatedtype Fired

    /// Calls `fired` each time `fd` is ready for `kind`. Throws when the watch cannot be set up.
    func watch(_ fd: Int32, for kind: WatchKind, _ fired: @escaping (Fired) -> Void) throws -> Watch
    /// Stops delivering readiness until ``resume(_:)``; the descriptor stays as it is.
    func pause(_ watch: Watch)
    func resume(_ watch: Watch)
    /// Ends the watch on `fd`; with `closing`, `fd` is closed as well.
    func stopWatching(_ watch: Watch, fd: Int32, closing: Bool)
    /// Calls `fired` once, after `seconds`.
    func timer(after seconds: Double, _ fired: @escaping (Fired) -> Void) -> Timer
    func cancelTimer(_ timer: Timer)
}
