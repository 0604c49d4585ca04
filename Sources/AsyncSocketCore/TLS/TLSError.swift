import Foundation

/// A TLS failure, in domain `"kCFStreamErrorDomainSSL"` with the closest SecureTransport `OSStatus` as
/// its code, so ported code that compares `(error as NSError).code` with `errSSL…` values keeps working.
///
/// The message is readable on its own and includes OpenSSL's reason (``opensslReason``); a host
/// name mismatch names the setting that turns the name check off.
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
    /// A readable description, including ``opensslReason`` when there is one.
    public let message: String
    /// OpenSSL's own words: the error-queue reason (`ERR_error_string_n`) or the certificate
    /// verification result (`X509_verify_cert_error_string`); empty when OpenSSL said nothing.
    public let opensslReason: String
    /// OpenSSL's certificate verification result (`X509_V_ERR_…`) for chain and name failures.
    public let verifyResult: Int32?

    /// An error with the given parts.
    public init(code: Code, message: String, opensslReason: String = "", verifyResult: Int32? = nil) {
        self.code = code
        self.message = message
        self.opensslReason = opensslReason
        self.verifyResult = verifyResult
    }

    /// `code.rawValue`, the SecureTransport `OSStatus`.
    public var errorCode: Int { code.rawValue }

    /// The message as `NSLocalizedDescriptionKey`, and OpenSSL's reason as
    /// `NSLocalizedFailureReasonErrorKey` when there is one.
    public var errorUserInfo: [String: Any] {
        var info: [String: Any] = [NSLocalizedDescriptionKey: message]
        if !opensslReason.isEmpty {
            info[NSLocalizedFailureReasonErrorKey] = opensslReason
        }
        return info
    }

    /// The message.
    public var description: String { message }
}
