import CAsyncSocketShims
import COpenSSL
import Logging

/// How one engine verifies its peer: the policy flags the C callbacks read, the OpenSSL verify
/// mode, the host name or address a client checks, and the name it sends as SNI. Working it out
/// logs one warning per opt-out that weakens a verification that actually runs.
struct TLSPeerVerification {
    let flags: UInt32
    let verifyMode: Int32
    /// What a client checks the server's certificate against; `nil` for a server or with
    /// ``TLSSettings/PeerName/none``.
    let expectedHost: PeerHost?
    /// The DNS name a client sends as SNI.
    let serverName: String?

    init(settings: TLSSettings, connectHost: String?, logger: Logger?) throws(TLSError) {
        let isClient = settings.role == .client
        if settings.manualTrustEvaluation && !isClient {
            throw TLSError(
                code: .badConfiguration,
                message: "TLS settings: manualTrustEvaluation is supported for clients only, as in GCDAsyncSocket")
        }
        var flags: UInt32 = 0
        if settings.manualTrustEvaluation { flags |= ASK_TLS_MANUAL_TRUST }
        if settings.requiresALPN { flags |= ASK_TLS_REQUIRE_ALPN }
        let verifiesPeer = isClient || settings.clientAuthentication != .none
        let optOuts: [(Bool, UInt32, String)] = [
            (
                settings.allowsAnyRoot, ASK_TLS_ALLOW_ANY_ROOT,
                "allowsAnyRoot (kCFStreamSSLAllowsAnyRoot) accepts a peer chain that leads to no trusted root"
            ),
            (
                settings.allowsExpiredRoots, ASK_TLS_ALLOW_EXPIRED_ROOTS,
                "allowsExpiredRoots (kCFStreamSSLAllowsExpiredRoots) accepts an expired root"
            ),
            (
                settings.allowsExpiredCertificates, ASK_TLS_ALLOW_EXPIRED_CERTIFICATES,
                "allowsExpiredCertificates (kCFStreamSSLAllowsExpiredCertificates) accepts expired peer certificates"
            ),
            (
                !settings.validatesCertificateChain, ASK_TLS_SKIP_CHAIN_VALIDATION,
                "validatesCertificateChain = false (kCFStreamSSLValidatesCertificateChain) accepts any peer chain; "
                    + "only the host name is checked"
            ),
        ]
        for (isSet, flag, warning) in optOuts where isSet {
            flags |= flag
            if verifiesPeer {
                logger?.warning("TLS: \(warning)")
            }
        }
        self.flags = flags
        switch (settings.role, settings.clientAuthentication) {
        case (.client, _): verifyMode = SSL_VERIFY_PEER
        case (.server, .none): verifyMode = SSL_VERIFY_NONE
        case (.server, .request): verifyMode = SSL_VERIFY_PEER
        case (.server, .require): verifyMode = SSL_VERIFY_PEER | SSL_VERIFY_FAIL_IF_NO_PEER_CERT
        }
        guard isClient else {
            expectedHost = nil
            serverName = nil
            return
        }
        let connected = connectHost.flatMap(PeerHost.init)
        switch settings.peerName {
        case .none:
            logger?.warning(
                "TLS: peerName is .none (kCFStreamSSLPeerName = NSNull()): the server's host name is not checked")
            expectedHost = nil
        case .automatic:
            guard let connected else {
                throw TLSError(
                    code: .badConfiguration,
                    message: "TLS settings: there is no host name to check the server's certificate against; set "
                        + "TLSSettings.peerName to .name(…), or to .none to skip the host name check")
            }
            expectedHost = connected
        case .name(let name):
            guard let host = PeerHost(name) else {
                throw TLSError(
                    code: .badConfiguration,
                    message: "TLS settings: peerName .name(\"\") is empty; use .none to skip the host name check")
            }
            expectedHost = host
        }
        switch expectedHost ?? connected {
        case .dns(let name): serverName = name
        case .ip, nil: serverName = nil
        }
    }
}
