// What a queue-core connection (QueueCoreSocket.swift) keeps to decide when the peer's end closes
// it: the legacy rule needs to know whether callbacks
// sent before the end are still on their way to the loop, so the end travels there as a probe and
// comes back behind them.
struct LegacyEndWatch {
    /// Carries a probe to the loop (set by the queue core).
    var probe: (@Sendable (Int) -> Void)?
    /// Callbacks handed to the delegate so far.
    var callbacksSent = 0
    /// The callback count when the probe in flight left.
    var probeMark: Int?
    /// The loop's close watch saw the peer's FIN.
    var peerFinished = false

    /// A new connection: nothing seen yet (the probe stays).
    mutating func reset() {
        probeMark = nil
        peerFinished = false
    }
}
