import Foundation

/// A TLS failure, in domain `"kCFStreamErrorDomainSSL"` with the closest SecureTransport `OSStatus` as
/// its code, so ported code that compares `(error as NSError).code` with `errSSL…` values keeps working.
///
/// The message is readable on its own and includes OpenSSL's reason (``opensslReason``); a host
/// name mismatch names the setting that turns the name check off. The bridged `NSError` always has
/// a failure reason (OpenSSL's, else the message), because swift-corelibs-foundation prints an
/// `NSError` as `Error Domain=… Code=… "<localizedFailureReason>"` and would print `"(null)"`
/// without one.
public struct TLSError: Error, CustomNSError, CustomStringConvertible, Sendable, Equatable {
    /// SecureTransport result codes (`OSStatus`) this library reports.
    public enum Code: Int, Sendable, CaseIterable {
        /// `errSSLProtocol`: a protocol error, or bytes that are not TLS.
        case protocolError = -9800
        /// `errSSLFatalAlert`: the peer sent a fatal alert not listed below.
        case fatalAlert = -9802
        /// `errSSLClosedGraceful`: the session was closed (written to after `close()`).
        case closedGraceful = -9805
        /// `errSSLClosedAbort`: the peer closed or vanished in the middle of the handshake (or of a
        /// record).
        case closedAbort = -9806
        /// `errSSLXCertChainInvalid`: the peer's chain does not lead to a trusted root, or is
        /// otherwise invalid.
        case certificateChainInvalid = -9807
        /// `errSSLNoRootCert`: an issuer in the peer's chain could not be found at all.
        case noRootCertificate = -9813
        /// `errSSLCertExpired`: a certificate in the peer's chain has expired.
        case certificateExpired = -9814
        /// `errSSLCertNotYetValid`: a certificate in the peer's chain is not valid yet.
        case certificateNotYetValid = -9815
        /// `errSSLPeerBadCert`: the chain was rejected by manual trust evaluation, or the peer
        /// rejected ours (bad_certificate alert).
        case peerBadCertificate = -9825
        /// `errSSLPeerUnsupportedCert`: the peer sent an unsupported_certificate alert.
        case peerUnsupportedCertificate = -9826
        /// `errSSLPeerCertRevoked`: the peer sent a certificate_revoked alert.
        case peerCertificateRevoked = -9827
        /// `errSSLPeerCertExpired`: the peer sent a certificate_expired alert.
        case peerCertificateExpired = -9828
        /// `errSSLPeerCertUnknown`: a required certificate is missing (the client sent none, or
        /// the server's certificate_required alert), or the peer sent certificate_unknown.
        case peerCertificateUnknown = -9829
        /// `errSSLPeerUnknownCA`: the peer does not trust our chain (unknown_ca alert).
        case peerUnknownCA = -9831
        /// `errSSLPeerProtocolVersion`: no protocol version both sides accept.
        case peerProtocolVersion = -9836
        /// `errSSLHostNameMismatch`: the peer's certificate does not name the expected host.
        case hostNameMismatch = -9843
        /// `errSSLBadConfiguration`: the settings cannot be used (identity, trust roots, ciphers,
        /// versions, ALPN).
        case badConfiguration = -9848
        /// `errSSLHandshakeFail`: the handshake failed because ``TLSSettings/requiresALPN`` found no
        /// common ALPN protocol.
        case handshakeFailed = -9858
    }

    /// The error domain CFNetwork used for SecureTransport errors.
    public static let errorDomain = "kCFStreamErrorDomainSSL"

    /// Which failure.
    public let code: Code
    /// A readable description, including ``opensslReason`` when there is one; never empty.
    public let message: String
    /// OpenSSL's own words: the error-queue reason (`ERR_error_string_n`) or the certificate
    /// verification result (`X509_verify_cert_error_string`); empty when OpenSSL said nothing.
    public let opensslReason: String
    /// OpenSSL's certificate verification result (`X509_V_ERR_…`) for chain and name failures.
    public let verifyResult: Int32?

    /// An error with the given parts. An empty `message` is replaced by
    /// ``defaultDescription(_:)`` for `code`.
    public init(code: Code, message: String, opensslReason: String = "", verifyResult: Int32? = nil) {
        self.code = code
        self.message = Self.isBlank(message) ? Self.defaultDescription(code) : message
        self.opensslReason = opensslReason
        self.verifyResult = verifyResult
    }

    /// `code.rawValue`, the SecureTransport `OSStatus`.
    public var errorCode: Int { code.rawValue }

    /// The message as `NSLocalizedDescriptionKey`, and OpenSSL's reason as
    /// `NSLocalizedFailureReasonErrorKey` when there is one (else the message again).
    public var errorUserInfo: [String: Any] {
        [
            NSLocalizedDescriptionKey: message,
            NSLocalizedFailureReasonErrorKey: Self.isBlank(opensslReason) ? message : opensslReason,
        ]
    }

    /// The message.
    public var description: String { message }

    /// A sentence for each code, after SecureTransport's descriptions; used when an error is made
    /// with an empty message.
    public static func defaultDescription(_ code: Code) -> String {
        switch code {
        case .protocolError: return "TLS protocol error"
        case .fatalAlert: return "TLS handshake failed: the peer sent a fatal alert"
        case .closedGraceful: return "The TLS session was closed"
        case .closedAbort: return "The TLS connection was closed in the middle of the handshake or of a record"
        case .certificateChainInvalid: return "The peer's certificate chain is not trusted"
        case .noRootCertificate: return "An issuer in the peer's certificate chain cannot be found"
        case .certificateExpired: return "A certificate in the peer's chain has expired"
        case .certificateNotYetValid: return "A certificate in the peer's chain is not valid yet"
        case .peerBadCertificate: return "The certificate was rejected"
        case .peerUnsupportedCertificate: return "The peer does not support the certificate"
        case .peerCertificateRevoked: return "The peer reports that the certificate was revoked"
        case .peerCertificateExpired: return "The peer reports that the certificate has expired"
        case .peerCertificateUnknown: return "A required certificate is missing or was not accepted"
        case .peerUnknownCA: return "The peer does not trust the certificate's issuer"
        case .peerProtocolVersion: return "No TLS version is acceptable to both sides"
        case .hostNameMismatch: return "The peer's certificate does not match the expected host name"
        case .badConfiguration: return "The TLS settings cannot be used"
        case .handshakeFailed: return "TLS handshake failed"
        }
    }

    private static func isBlank(_ text: String) -> Bool {
        text.allSatisfy(\.isWhitespace)
    }
}

// A legacy settings dictionary that cannot be used is a TLS error too: it reads as one sentence in
// every form (`localizedDescription`, the bridged `NSError`'s failure reason, `"\(error)"`).
extension TLSSettingsError: LocalizedError {
    /// The sentence naming the key, what it accepts and what it got (``description``), as
    /// `localizedDescription`.
    public var errorDescription: String? { description }

    /// The same sentence, so the bridged `NSError` prints it on Linux (whose `NSError` description
    /// shows the failure reason).
    public var failureReason: String? { description }
}
