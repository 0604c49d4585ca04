/// Which original a socket follows where the two disagree, chosen when the socket is made.
///
/// The run-loop `AsyncSocket` (`.legacy`) and `GCDAsyncSocket` (`.gcd`) read and write the same
/// bytes; they differ in what follows a pass and in what the end of the peer's data means. The rules
/// that depend on it live in this folder and nowhere else:
/// - the next queued read starts on a later run-loop pass (`.legacy`) or at once (`.gcd`);
/// - the peer's end closes the socket once no read can use what is left (`.legacy`, bytes read ahead
///   go to `unreadData`), or leaves it open while read-ahead bytes wait for reads and then closes it
///   or reports the closed read stream (`.gcd`, see ``EndOfStreamRule``).
package enum Semantics: Sendable, CustomStringConvertible {
    case legacy
    case gcd

    /// Whether a completed read dequeues the next one inside the same pass (GCD) instead of on a
    /// later pass of the loop (the run-loop original, so a delegate never re-enters a read's callback).
    package var dequeuesNextReadAtOnce: Bool { self == .gcd }

    package var description: String {
        switch self {
        case .legacy: return "legacy"
        case .gcd: return "gcd"
        }
    }
}
