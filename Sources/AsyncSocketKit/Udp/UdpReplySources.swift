import Foundation

// A socket bound to a wildcard address learns, with each datagram (IP_PKTINFO / IPV6_RECVPKTINFO),
// which of the host's addresses the sender reached; a reply to that sender then leaves from that
// address, as the sender expects, instead of from the one the kernel would pick for the route back.
// Both UDP faces keep these; the memory is small and bounded, the oldest sender forgotten first.

/// The local address each recent sender reached, for replies.
struct UdpReplySources {
    private var entries: [(peer: SocketAddress, source: UdpReplySource)] = []
    /// At most this many senders are remembered.
    static let limit = 16

    /// Remembers where `peer` reached the socket (not a group or broadcast address: no reply can
    /// leave from one).
    mutating func remember(_ local: UdpReplySource, for peer: SocketAddress) {
        guard !Self.isGroupOrBroadcast(local.local) else { return }
        if let known = entries.firstIndex(where: { $0.peer == peer }) {
            entries[known].source = local
            return
        }
        if entries.count == Self.limit {
            entries.removeFirst()
        }
        entries.append((peer, local))
    }

    /// Where a reply to `destination` leaves from, if it sent something recently.
    func source(for destination: SocketAddress) -> UdpReplySource? {
        entries.last { $0.peer == destination }?.source
    }

    private static func isGroupOrBroadcast(_ address: SocketAddress) -> Bool {
        guard let host = address.host else { return false }
        if address.isIPv6 { return host.lowercased().hasPrefix("ff") }
        let first = host.split(separator: ".").first.flatMap { Int($0) } ?? 0
        return (224...239).contains(first) || host == "255.255.255.255"
    }
}
