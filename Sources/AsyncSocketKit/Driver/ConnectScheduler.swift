import Foundation

/// What a ``ConnectDriver`` needs from the place a socket runs: a watch for a connecting descriptor
/// becoming writable and a one-shot timer. Both handlers run where the socket's other work runs (the
/// loop thread in the socket's modes; the socket queue).
protocol ConnectScheduler: AnyObject {
    associatedtype ConnectWatch
    associatedtype ConnectTimer

    /// Calls `fired` when `fd`'s connect completes (the descriptor turns writable). Throws when the
    /// watch cannot be set up; the attempt then counts as failed.
    func watchConnecting(_ fd: Int32, _ fired: @escaping () -> Void) throws -> ConnectWatch
    /// Stops the watch on `fd`; with `closing`, the attempt lost and `fd` is closed as well.
    func stopWatching(_ watch: ConnectWatch, fd: Int32, closing: Bool)
    /// Calls `fired` once, after `seconds`.
    func connectTimer(after seconds: Double, _ fired: @escaping () -> Void) -> ConnectTimer
    func cancelConnectTimer(_ timer: ConnectTimer)
}
