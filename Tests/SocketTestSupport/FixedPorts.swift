// A test that closes a listener and binds its port again races every other test running in parallel: a
// port the kernel handed out from its ephemeral range (a `port: 0` listener, an outgoing connection's
// source port) can be handed out again the moment it is freed, and the re-bind then fails for a reason
// the test is not about. Listening on a port below the ephemeral range keeps the kernel from reusing it.
import Foundation

/// The first port of the kernel's ephemeral range (`/proc/sys/net/ipv4/ip_local_port_range`).
package func ephemeralPortFloor() -> UInt16 {
    guard let text = try? String(contentsOfFile: "/proc/sys/net/ipv4/ip_local_port_range", encoding: .utf8),
        let first = text.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" }).first,
        let floor = UInt16(first)
    else { return 32768 }
    return floor
}

/// Calls `listen` with ports below the ephemeral range, starting at a random one, until it does not throw
/// (at most 64 tries); returns the port it listened on, or rethrows the last error.
package func listenBelowEphemeralRange(_ listen: (UInt16) throws -> Void) throws -> UInt16 {
    let upper = max(ephemeralPortFloor(), 2048)
    let lower = upper / 2
    var port = UInt16.random(in: lower..<upper)
    for _ in 1..<64 {
        if (try? listen(port)) != nil {
            return port
        }
        port = port + 1 < upper ? port + 1 : lower
    }
    try listen(port)
    return port
}
