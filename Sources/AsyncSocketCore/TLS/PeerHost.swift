import Foundation

/// A host a client verifies the server's certificate against: a DNS name (also sent as SNI) or an
/// IP literal (checked against the certificate's IP addresses, never sent as SNI).
enum PeerHost: Equatable {
    case dns(String)
    case ip(String)

    /// Classifies `host`. IP literals lose their brackets and IPv6 zone ("[fe80::1%eth0]" →
    /// "fe80::1"), names their trailing dot; `nil` for an empty host.
    init?(_ host: String) {
        var text = Substring(host)
        if text.hasPrefix("["), text.hasSuffix("]") {
            text = text.dropFirst().dropLast()
        }
        let address = String(text.prefix { $0 != "%" })
        if Self.isIPLiteral(address) {
            self = .ip(address)
            return
        }
        let name = text.hasSuffix(".") ? text.dropLast() : text
        guard !name.isEmpty else { return nil }
        self = .dns(String(name))
    }

    /// The name or address as given to OpenSSL.
    var text: String {
        switch self {
        case .dns(let name): return name
        case .ip(let address): return address
        }
    }

    private static func isIPLiteral(_ text: String) -> Bool {
        var storage = in6_addr()
        return inet_pton(AF_INET, text, &storage) == 1 || inet_pton(AF_INET6, text, &storage) == 1
    }
}
