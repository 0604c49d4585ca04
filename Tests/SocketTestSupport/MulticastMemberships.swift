import Foundation

/// Whether the system lists `group` (an IPv6 multicast address) as joined on `interface`, from
/// `/proc/net/igmp6` (one line per membership: index, interface, the group as 32 hex digits, …).
package func ipv6GroupJoined(_ group: String, on interface: String) -> Bool {
    var address = in6_addr()
    guard inet_pton(AF_INET6, group, &address) == 1,
        let table = try? String(contentsOfFile: "/proc/net/igmp6", encoding: .utf8)
    else { return false }
    let hex = withUnsafeBytes(of: &address) { $0.map { String(format: "%02x", $0) }.joined() }
    return table.split(separator: "\n").contains { line in
        let fields = line.split(separator: " ", omittingEmptySubsequences: true)
        return fields.count > 2 && fields[1] == interface && fields[2] == hex
    }
}
