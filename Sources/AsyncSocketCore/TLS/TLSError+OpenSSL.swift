import CAsyncSocketShims
import COpenSSL

// Maps an OpenSSL failure to the closest SecureTransport code. What the policy recorded decides
// first (a manual rejection, a missing ALPN protocol), then the reason of the oldest SSL error:
// "certificate verify failed" is refined by the X509 verification result, and a received alert
// (reason 1000 + alert number) by the alert. Everything else is a protocol error.
extension TLSError {
    /// What the engine knows when an operation fails.
    struct FailureContext {
        let ssl: OpaquePointer
        let policy: UnsafeMutablePointer<ask_tls_policy>
        let role: TLSSettings.Role
        let expectedHost: PeerHost?
        /// "handshake", "read" or "write", for the message.
        let operation: String
    }

    /// The error for a failed OpenSSL call that returned `sslError` (`SSL_get_error`); drains the
    /// error queue.
    static func openSSLFailure(_ sslError: Int32, _ context: FailureContext) -> TLSError {
        let queue = OpenSSLErrorQueue.drain()
        let reason = queue.text
        let prefix = "TLS \(context.operation) failed: "
        func error(_ code: Code, _ what: String) -> TLSError {
            TLSError(
                code: code, message: prefix + what + (reason.isEmpty ? "" : " (OpenSSL: \(reason))"),
                opensslReason: reason)
        }
        if context.policy.pointee.alpn_missing != 0 {
            return error(.handshakeFailed, "no ALPN protocol is common to both sides, and one is required")
        }
        if context.policy.pointee.trust_state == ASK_TLS_TRUST_REJECTED {
            return error(.peerBadCertificate, "the server's certificate chain was rejected by manual trust evaluation")
        }
        guard let sslReason = queue.sslReason else {
            if sslError == SSL_ERROR_SYSCALL || sslError == SSL_ERROR_ZERO_RETURN {
                return error(.closedAbort, "the peer closed the connection")
            }
            return error(.protocolError, "OpenSSL reported error \(sslError)")
        }
        if sslReason == SSL_R_CERTIFICATE_VERIFY_FAILED {
            let recorded = context.policy.pointee.first_error
            let result =
                recorded != X509_V_OK ? recorded : Int32(truncatingIfNeeded: SSL_get_verify_result(context.ssl))
            return verificationFailure(result, context)
        }
        if (SSL_AD_REASON_OFFSET..<SSL_AD_REASON_OFFSET + 256).contains(sslReason) {
            let alert = sslReason - SSL_AD_REASON_OFFSET
            let name = String(cString: SSL_alert_desc_string_long(alert))
            return error(alertCode(alert), "the peer sent the fatal alert \"\(name)\"")
        }
        switch sslReason {
        case SSL_R_UNEXPECTED_EOF_WHILE_READING:
            return error(.closedAbort, "the peer closed the connection without a close_notify")
        case SSL_R_UNSUPPORTED_PROTOCOL, SSL_R_NO_PROTOCOLS_AVAILABLE, SSL_R_VERSION_TOO_LOW, SSL_R_VERSION_TOO_HIGH:
            return error(.peerProtocolVersion, "no TLS version is acceptable to both sides")
        case SSL_R_PEER_DID_NOT_RETURN_A_CERTIFICATE:
            return error(.peerCertificateUnknown, "the client sent no certificate, and one is required")
        case SSL_R_NO_APPLICATION_PROTOCOL:
            return error(.handshakeFailed, "no ALPN protocol is common to both sides, and one is required")
        case SSL_R_PROTOCOL_IS_SHUTDOWN:
            return error(.closedGraceful, "the session has been closed")
        default:
            return error(.protocolError, "the peer's data is not valid TLS")
        }
    }

    private static func verificationFailure(_ result: Int32, _ context: FailureContext) -> TLSError {
        let reason = String(cString: X509_verify_cert_error_string(Int(result)))
        let whose = context.role == .client ? "the server's" : "the client's"
        let code: Code
        var what: String
        switch result {
        case X509_V_ERR_CERT_HAS_EXPIRED:
            code = .certificateExpired
            what = "a certificate in \(whose) chain has expired"
        case X509_V_ERR_CERT_NOT_YET_VALID:
            code = .certificateNotYetValid
            what = "a certificate in \(whose) chain is not valid yet"
        case X509_V_ERR_HOSTNAME_MISMATCH, X509_V_ERR_IP_ADDRESS_MISMATCH, X509_V_ERR_EMAIL_MISMATCH:
            code = .hostNameMismatch
            what = "the server's certificate does not match \"\(context.expectedHost?.text ?? "")\""
        case X509_V_ERR_UNABLE_TO_GET_ISSUER_CERT:
            code = .noRootCertificate
            what = "an issuer in \(whose) chain cannot be found"
        default:
            code = .certificateChainInvalid
            what = "\(whose) certificate chain is not trusted"
        }
        what = "TLS \(context.operation) failed: \(what) (OpenSSL: \(reason))"
        if code == .hostNameMismatch {
            what +=
                "; set TLSSettings.peerName to .none, or kCFStreamSSLPeerName to NSNull(), to skip the host name check"
        }
        return TLSError(code: code, message: what, opensslReason: reason, verifyResult: result)
    }

    private static func alertCode(_ alert: Int32) -> Code {
        switch alert {
        case SSL_AD_BAD_CERTIFICATE: return .peerBadCertificate
        case SSL_AD_UNSUPPORTED_CERTIFICATE: return .peerUnsupportedCertificate
        case SSL_AD_CERTIFICATE_REVOKED: return .peerCertificateRevoked
        case SSL_AD_CERTIFICATE_EXPIRED: return .peerCertificateExpired
        case SSL_AD_CERTIFICATE_UNKNOWN, SSL_AD_CERTIFICATE_REQUIRED: return .peerCertificateUnknown
        case SSL_AD_UNKNOWN_CA: return .peerUnknownCA
        case SSL_AD_PROTOCOL_VERSION: return .peerProtocolVersion
        case SSL_AD_NO_APPLICATION_PROTOCOL: return .handshakeFailed
        default: return .fatalAlert
        }
    }
}
