import CAsyncSocketShims
import COpenSSL
import Foundation
import Logging

// An OpenSSL session over two memory BIOs, so it never touches a descriptor: the driver feeds what
// the network delivered into the read BIO (feedCiphertext), lets the session run (handshake,
// readPlaintext, writePlaintext, close), and sends what the write BIO collected
// (takeCiphertext). Plaintext is decrypted straight into the caller's buffer and encrypted straight
// from it. Every call starts with an empty OpenSSL error queue and leaves it empty.
//
// Manual trust does not let the handshake finish first: the client's certificate callback
// suspends the handshake (SSL_ERROR_WANT_RETRY_VERIFY) right after the server's certificate, so a
// rejection fails the handshake with a bad_certificate alert before any application data is
// accepted.

/// An I/O-free TLS session (OpenSSL 3). Not thread-safe: use it from one thread or queue at a time.
package final class TLSEngine {
    private enum Phase {
        case handshaking
        case awaitingTrust
        case established
        case failed(TLSError)
    }

    private let settings: TLSSettings
    private let verification: TLSPeerVerification
    private let context: OpaquePointer
    private let ssl: OpaquePointer
    /// The OpenSSL `SSL*` of this engine, for callers that need OpenSSL calls of their own (the
    /// `sslContext` escape hatch); valid as long as the engine lives.
    package var sslHandle: OpaquePointer { ssl }
    /// Ciphertext from the network, read by OpenSSL (owned by `ssl`).
    private let networkInput: OpaquePointer
    /// Ciphertext for the network, written by OpenSSL (owned by `ssl`).
    private let networkOutput: OpaquePointer
    private let policy: UnsafeMutablePointer<ask_tls_policy>
    private var phase = Phase.handshaking
    private var peerHasClosed = false
    private var receivedCloseNotify = false
    private var sentCloseNotify = false

    /// Whether the handshake has finished (with manual trust: and the chain was accepted).
    package private(set) var isHandshakeComplete = false

    /// A session for `settings`. `connectHost` is the host string the socket connected to, which a
    /// client checks the server's certificate against under ``TLSSettings/PeerName/automatic``.
    /// Each opt-out in `settings` logs one warning through `logger`. Throws ``TLSError/Code/badConfiguration``
    /// for settings that cannot be used (an unreadable identity or trust root, a bad cipher string…).
    package init(settings: TLSSettings, connectHost: String?, logger: Logger?) throws(TLSError) {
        ERR_clear_error()
        self.settings = settings
        verification = try TLSPeerVerification(settings: settings, connectHost: connectHost, logger: logger)
        let serverALPN = settings.role == .server ? try TLSContextFactory.alpnWireFormat(settings.alpnProtocols) : []
        context = try TLSContextCache.context(for: settings)
        guard let policy = ask_tls_policy_new(verification.flags, serverALPN, serverALPN.count) else {
            SSL_CTX_free(context)
            throw TLSError(code: .badConfiguration, message: "TLS: out of memory")
        }
        self.policy = policy
        let ssl = SSL_new(context)
        let input = BIO_new(BIO_s_mem())
        let output = BIO_new(BIO_s_mem())
        guard let ssl, let input, let output else {
            let error = Self.setupFailure("cannot create the TLS session")
            BIO_free(input)
            BIO_free(output)
            SSL_free(ssl)
            SSL_CTX_free(context)
            ask_tls_policy_free(policy)
            throw error
        }
        SSL_set_bio(ssl, input, output)
        self.ssl = ssl
        networkInput = input
        networkOutput = output
        try configureSession()
    }

    deinit {
        SSL_free(ssl)
        SSL_CTX_free(context)
        ask_tls_policy_free(policy)
    }

    /// Applies the role, the policy, the host name check and SNI. On failure `deinit` frees everything.
    private func configureSession() throws(TLSError) {
        if settings.role == .client {
            SSL_set_connect_state(ssl)
        } else {
            SSL_set_accept_state(ssl)
        }
        guard ask_tls_attach_policy(ssl, policy, verification.verifyMode) == 1 else {
            throw Self.setupFailure("cannot attach the verification policy")
        }
        switch verification.expectedHost {
        case .dns(let name):
            SSL_set_hostflags(ssl, UInt32(X509_CHECK_FLAG_NO_PARTIAL_WILDCARDS))
            guard SSL_set1_host(ssl, name) == 1 else {
                throw Self.setupFailure("cannot check the host name \"\(name)\"")
            }
        case .ip(let address):
            guard X509_VERIFY_PARAM_set1_ip_asc(SSL_get0_param(ssl), address) == 1 else {
                throw Self.setupFailure("cannot check the IP address \(address)")
            }
        case nil:
            break
        }
        if let serverName = verification.serverName, ask_tls_set_server_name(ssl, serverName) != 1 {
            throw Self.setupFailure("cannot send the server name \"\(serverName)\"")
        }
        ERR_clear_error()
    }

    private static func setupFailure(_ what: String) -> TLSError {
        let reason = OpenSSLErrorQueue.drain().text
        return TLSError(
            code: .badConfiguration, message: "TLS: \(what)" + (reason.isEmpty ? "" : " (OpenSSL: \(reason))"),
            opensslReason: reason)
    }

    // MARK: Ciphertext

    /// Hands the engine bytes that arrived from the network.
    package func feedCiphertext(_ bytes: UnsafeRawBufferPointer) {
        guard var cursor = bytes.baseAddress else { return }
        var remaining = bytes.count
        while remaining > 0 {
            let written = BIO_write(networkInput, cursor, Int32(clamping: remaining))
            guard written > 0 else { return }
            cursor += Int(written)
            remaining -= Int(written)
        }
    }

    /// Hands the engine bytes that arrived from the network (bytes read past the end of the plaintext
    /// phase, for instance).
    package func feedCiphertext(_ data: Data) {
        data.withUnsafeBytes { feedCiphertext($0) }
    }

    /// The number of ciphertext bytes waiting to be sent to the network.
    package var pendingCiphertext: Int {
        Int(BIO_ctrl_pending(networkOutput))
    }

    /// Moves up to `buffer.count` bytes of pending ciphertext into `buffer`; returns how many.
    package func takeCiphertext(into buffer: UnsafeMutableRawBufferPointer) -> Int {
        guard let base = buffer.baseAddress, !buffer.isEmpty else { return 0 }
        let count = BIO_read(networkOutput, base, Int32(clamping: buffer.count))
        return max(0, Int(count))
    }

    /// The network reported the end of the peer's data: a handshake still waiting for bytes fails
    /// with ``TLSError/Code/closedAbort``, and so does a read that needs more than is buffered.
    package func peerClosed() {
        peerHasClosed = true
        ask_tls_mem_bio_set_eof(networkInput)
    }

    // MARK: Handshake

    /// Advances the handshake with the ciphertext fed so far. After every call, send
    /// ``pendingCiphertext`` to the peer. With manual trust, `.trustDecisionNeeded` comes once, right
    /// after the server's certificate; until ``resolveTrust(accepted:)`` the handshake waits and this
    /// returns `.needsMoreCiphertext`.
    package func handshake() -> HandshakeStatus {
        switch phase {
        case .established: return .complete
        case .failed(let error): return .failed(error)
        case .awaitingTrust: return .needsMoreCiphertext
        case .handshaking: break
        }
        ERR_clear_error()
        let result = SSL_do_handshake(ssl)
        if result == 1 {
            return finishHandshake()
        }
        let sslError = SSL_get_error(ssl, result)
        switch sslError {
        case SSL_ERROR_WANT_READ where peerHasClosed:
            return .failed(
                fail(TLSError(code: .closedAbort, message: "TLS handshake failed: the peer closed the connection")))
        case SSL_ERROR_WANT_READ, SSL_ERROR_WANT_WRITE:
            ERR_clear_error()
            return .needsMoreCiphertext
        case SSL_ERROR_WANT_RETRY_VERIFY:
            ERR_clear_error()
            phase = .awaitingTrust
            return .trustDecisionNeeded(CertificateChain(peerOf: ssl, verifyResult: policy.pointee.first_error))
        default:
            return .failed(fail(failure(sslError, during: "handshake")))
        }
    }

    /// Answers `.trustDecisionNeeded`. Accepting lets the next ``handshake()`` go on; rejecting queues
    /// a bad_certificate alert as ciphertext and makes the handshake fail with
    /// ``TLSError/Code/peerBadCertificate``.
    package func resolveTrust(accepted: Bool) {
        guard case .awaitingTrust = phase else { return }
        policy.pointee.trust_state = accepted ? ASK_TLS_TRUST_ACCEPTED : ASK_TLS_TRUST_REJECTED
        phase = .handshaking
        if !accepted {
            _ = handshake()
        }
    }

    private func finishHandshake() -> HandshakeStatus {
        ERR_clear_error()
        if settings.requiresALPN && negotiatedALPN == nil {
            let error = TLSError(
                code: .handshakeFailed,
                message: "TLS handshake failed: no ALPN protocol is common to both sides, and one is required")
            return .failed(fail(error))
        }
        phase = .established
        isHandshakeComplete = true
        return .complete
    }

    // MARK: Plaintext

    /// Decrypts into `buffer` what the fed ciphertext holds. Post-handshake messages (TLS 1.3 session
    /// tickets, key updates) are consumed on the way; a key update may leave ciphertext to send.
    package func readPlaintext(into buffer: UnsafeMutableRawBufferPointer) -> TLSReadResult {
        switch phase {
        case .failed(let error): return .failed(error)
        case .handshaking, .awaitingTrust: return .needsMoreCiphertext
        case .established: break
        }
        if receivedCloseNotify {
            return .closed
        }
        guard let base = buffer.baseAddress, !buffer.isEmpty else { return .bytes(0) }
        ERR_clear_error()
        var buffered = Int.max
        while true {
            var count = 0
            if SSL_read_ex(ssl, base, buffer.count, &count) == 1 {
                return .bytes(count)
            }
            let sslError = SSL_get_error(ssl, 0)
            switch sslError {
            case SSL_ERROR_WANT_READ, SSL_ERROR_WANT_WRITE:
                ERR_clear_error()
                // A post-handshake message was consumed and more records may follow: go on while
                // OpenSSL keeps taking bytes.
                let remaining = Int(BIO_ctrl_pending(networkInput))
                if remaining > 0 && remaining < buffered {
                    buffered = remaining
                    continue
                }
                return .needsMoreCiphertext
            case SSL_ERROR_ZERO_RETURN:
                ERR_clear_error()
                receivedCloseNotify = true
                return .closed
            default:
                return .failed(fail(failure(sslError, during: "read")))
            }
        }
    }

    /// Encrypts `bytes` into ``pendingCiphertext``; a memory BIO never pushes back, so everything is
    /// accepted once the handshake is complete.
    package func writePlaintext(_ bytes: UnsafeRawBufferPointer) -> TLSWriteResult {
        switch phase {
        case .failed(let error): return .failed(error)
        case .handshaking, .awaitingTrust: return .bytes(0)
        case .established: break
        }
        guard let base = bytes.baseAddress, !bytes.isEmpty else { return .bytes(0) }
        ERR_clear_error()
        var written = 0
        if SSL_write_ex(ssl, base, bytes.count, &written) == 1 {
            return .bytes(written)
        }
        let sslError = SSL_get_error(ssl, 0)
        switch sslError {
        case SSL_ERROR_WANT_READ, SSL_ERROR_WANT_WRITE:
            ERR_clear_error()
            return .bytes(0)
        default:
            let error = failure(sslError, during: "write")
            return .failed(error.code == .closedGraceful ? error : fail(error))
        }
    }

    /// Queues close_notify as ciphertext, once. Before the handshake has completed there is nothing
    /// to close: send nothing and close the connection.
    package func close() {
        guard case .established = phase, !sentCloseNotify else { return }
        sentCloseNotify = true
        ERR_clear_error()
        SSL_shutdown(ssl)
        ERR_clear_error()
    }

    // MARK: Session facts

    /// The ALPN protocol both sides agreed on.
    package var negotiatedALPN: String? {
        var data: UnsafePointer<UInt8>?
        var length: UInt32 = 0
        SSL_get0_alpn_selected(ssl, &data, &length)
        guard let data, length > 0 else { return nil }
        return String(decoding: UnsafeBufferPointer(start: data, count: Int(length)), as: UTF8.self)
    }

    /// The protocol version of the established session, such as "TLSv1.3".
    package var negotiatedVersion: String? {
        guard isHandshakeComplete else { return nil }
        return String(cString: SSL_get_version(ssl))
    }

    /// The certificates the peer presented, once it has presented them.
    package var peerCertificateChain: CertificateChain? {
        guard ask_tls_peer_chain_count(ssl) > 0 else { return nil }
        return CertificateChain(peerOf: ssl, verifyResult: policy.pointee.first_error)
    }

    /// Whether decrypted plaintext is buffered inside the engine, so that a read returns bytes
    /// without more ciphertext.
    package var hasBufferedPlaintext: Bool {
        SSL_pending(ssl) > 0
    }

    // MARK: Failures

    private func failure(_ sslError: Int32, during operation: String) -> TLSError {
        TLSError.openSSLFailure(
            sslError,
            TLSError.FailureContext(
                ssl: ssl, policy: policy, role: settings.role, expectedHost: verification.expectedHost,
                operation: operation))
    }

    /// Records `error` as the end of the session.
    private func fail(_ error: TLSError) -> TLSError {
        ERR_clear_error()
        phase = .failed(error)
        return error
    }
}
