import AsyncSocketCore
import Foundation

// The order a connect by name tries the resolved addresses in: where the originals differ, the
// semantics decides. Legacy AsyncSocket tries every address, alternating families from the first
// one on, each 0.3 s after the one before. GCDAsyncSocket tries one address of the preferred family
// and one of the other after `alternateAddressDelay`, leaving out a disabled family.

enum ConnectOrder {
    /// How long an address gets before the next is tried as well (legacy; GCD's is settable).
    static let legacyStagger: Double = 0.3

    /// The resolver's order, alternating families from the first one on.
    static func legacy(_ addresses: [SocketAddress]) -> [SocketAddress] {
        guard let first = addresses.first else { return [] }
        var same = addresses.filter { $0.family == first.family }[...]
        var other = addresses.filter { $0.family != first.family }[...]
        var ordered: [SocketAddress] = []
        while !same.isEmpty || !other.isEmpty {
            if let next = same.popFirst() { ordered.append(next) }
            if let next = other.popFirst() { ordered.append(next) }
        }
        return ordered
    }

    /// The first address of the preferred family, then the first of the other; families that are
    /// disabled are left out. Empty when nothing remains.
    static func gcd(
        _ addresses: [SocketAddress], ipv4Enabled: Bool, ipv6Enabled: Bool, ipv4Preferred: Bool
    ) -> [SocketAddress] {
        let v4 = ipv4Enabled ? addresses.first(where: \.isIPv4) : nil
        let v6 = ipv6Enabled ? addresses.first(where: \.isIPv6) : nil
        let ordered = ipv4Preferred || v6 == nil ? [v4, v6] : [v6, v4]
        return ordered.compactMap { $0 }
    }
}
