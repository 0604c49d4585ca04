import Foundation

/// How a TLS session is set up: the role, who the peer must be, what to trust, what to present, and
/// which protocol versions, ALPN protocols and ciphers are acceptable.
///
/// The defaults are strict (a deliberate difference from the original): a client verifies the
/// peer's chain against the system trust store *and* its host name (see ``PeerName/automatic``),
/// and TLS 1.2 is the minimum. Every opt-out is logged at `.warning` level by the engine that uses it.
/// ``init(legacyDictionary:)`` reads the dictionaries ported code passes to `startTLS`.
public struct TLSSettings: Sendable, Equatable {
    /// Which end of the handshake this side plays.
    public enum Role: Sendable, Equatable {
        /// The side that connected, and checks the server's certificate and name.
        case client
        /// The side that accepted, and presents ``TLSSettings/identity``.
        case server
    }

    /// The name the client checks the server's certificate against.
    public enum PeerName: Sendable, Equatable {
        /// The host string the socket connected to, when it is a DNS name or an IP literal.
        case automatic
        /// This DNS name or IP literal (`kCFStreamSSLPeerName`).
        case name(String)
        /// No name check: an explicit opt-out (`kCFStreamSSLPeerName` set to `NSNull()`).
        case none
    }

    /// The certificates a peer's chain must lead to.
    public enum TrustRoots: Sendable, Equatable {
        /// OpenSSL's default verify paths (the system trust store).
        case system
        /// The system trust store plus these CA files (PEM) or hashed certificate directories.
        case systemAnd([String])
        /// Only these CA files (PEM) or hashed certificate directories.
        case only([String])
    }

    /// The certificate and private key this side presents. Its description never shows a password.
    public enum Identity: Sendable, Equatable, CustomStringConvertible {
        /// A PEM certificate file (leaf first, then intermediates) and a PEM key file, decrypted with
        /// `password` when the key is encrypted. Both paths may name the same file.
        case pem(certificatePath: String, keyPath: String, password: String?)
        /// The contents of such files.
        case pemData(certificate: Data, key: Data, password: String?)
        /// A PKCS#12 archive (certificate, key and CA certificates). OpenSSL 3 reads archives made
        /// with current algorithms; RC2/3DES archives from old tools must be re-exported.
        case pkcs12(Data, password: String)

        /// The kind and source of the identity, with any password left out.
        public var description: String {
            switch self {
            case .pem(let certificatePath, let keyPath, _): return "pem(\(certificatePath), key: \(keyPath))"
            case .pemData(let certificate, let key, _): return "pemData(\(certificate.count) + \(key.count) bytes)"
            case .pkcs12(let archive, _): return "pkcs12(\(archive.count) bytes)"
            }
        }
    }

    /// A TLS protocol version.
    public enum Version: Int, Sendable, Equatable, Comparable {
        // swift-format-ignore: AlwaysUseLowerCamelCase
        /// TLS 1.2 (0x0303).
        case tls1_2 = 0x0303
        // swift-format-ignore: AlwaysUseLowerCamelCase
        /// TLS 1.3 (0x0304).
        case tls1_3 = 0x0304

        /// Whether `a` is older than `b`.
        public static func < (a: Version, b: Version) -> Bool { a.rawValue < b.rawValue }
    }

    /// Whether a server asks for the client's certificate.
    public enum ClientAuthentication: Sendable, Equatable {
        /// The server does not ask.
        case none
        /// The server asks; a client without a certificate is still accepted, one with a bad
        /// certificate is not.
        case request
        /// The server asks and rejects a client without a valid certificate.
        case require
    }

    /// Which end of the handshake this side plays (`kCFStreamSSLIsServer`).
    public var role: Role
    /// The name a client checks the server's certificate against (`kCFStreamSSLPeerName`).
    public var peerName: PeerName = .automatic
    /// The certificates a peer's chain must lead to.
    public var trustRoots: TrustRoots = .system
    /// Accept a chain that leads to no trusted root (`kCFStreamSSLAllowsAnyRoot`). Logged as a warning.
    public var allowsAnyRoot = false
    /// Accept an expired root (`kCFStreamSSLAllowsExpiredRoots`). Logged as a warning.
    public var allowsExpiredRoots = false
    /// Accept expired certificates below the root (`kCFStreamSSLAllowsExpiredCertificates`).
    /// Logged as a warning.
    public var allowsExpiredCertificates = false
    /// Verify the peer's chain (`kCFStreamSSLValidatesCertificateChain`). `false` forgives every chain
    /// error but a host name mismatch (that needs ``peerName`` `.none`). Logged as a warning.
    public var validatesCertificateChain = true
    /// The certificate and key this side presents: required for a server, optional for a client
    /// (`kCFStreamSSLCertificates`).
    public var identity: Identity?
    /// The lowest version accepted; `nil` means TLS 1.2.
    public var minimumVersion: Version?
    /// The highest version accepted; `nil` means the highest OpenSSL supports.
    public var maximumVersion: Version?
    /// ALPN protocols, most preferred first (`GCDAsyncSocketSSLALPN`).
    public var alpnProtocols: [String] = []
    /// Fail the handshake when no protocol of ``alpnProtocols`` is agreed. A server selects the first
    /// of the client's offers that is in its list.
    public var requiresALPN = false
    /// The TLS 1.2 cipher list in OpenSSL syntax (`SSL_CTX_set_cipher_list`); `nil` keeps OpenSSL's
    /// default.
    public var cipherList: String?
    /// The TLS 1.3 cipher suites in OpenSSL syntax (`SSL_CTX_set_ciphersuites`); `nil` keeps OpenSSL's
    /// default.
    public var cipherSuites: String?
    /// Client: stop after the server's certificate and let the application decide whether to trust
    /// it (`GCDAsyncSocketManuallyEvaluateTrust`); see ``TLSEngine/handshake()``.
    public var manualTrustEvaluation = false
    /// Server: whether to ask for the client's certificate.
    public var clientAuthentication: ClientAuthentication = .none

    /// Strict settings for `role`.
    public init(role: Role = .client) {
        self.role = role
    }
}
