/// What a step of the handshake led to (``TLSEngine/handshake()``).
package enum HandshakeStatus: Equatable, Sendable {
    /// Send ``TLSEngine/pendingCiphertext`` to the peer, then feed what it answers and call again.
    case needsMoreCiphertext
    /// The session is established; plaintext may flow.
    case complete
    /// Manual trust: decide about the peer's chain with ``TLSEngine/resolveTrust(accepted:)``, then
    /// call ``TLSEngine/handshake()`` again. Reported once per handshake.
    case trustDecisionNeeded(CertificateChain)
    /// The handshake failed; any alert for the peer is in ``TLSEngine/pendingCiphertext``.
    case failed(TLSError)
}

/// What ``TLSEngine/readPlaintext(into:)`` produced.
package enum TLSReadResult: Equatable, Sendable {
    /// This many plaintext bytes were decrypted into the buffer.
    case bytes(Int)
    /// No whole record is buffered: feed more ciphertext (post-handshake messages such as TLS 1.3
    /// session tickets and key updates have been consumed).
    case needsMoreCiphertext
    /// The peer sent close_notify: its plaintext has ended.
    case closed
    /// The session failed.
    case failed(TLSError)
}

/// What ``TLSEngine/writePlaintext(_:)`` did.
package enum TLSWriteResult: Equatable, Sendable {
    /// This many plaintext bytes were accepted and encrypted into ``TLSEngine/pendingCiphertext``
    /// (0 before the handshake has completed).
    case bytes(Int)
    /// The session failed, or was closed with ``TLSEngine/close()``.
    case failed(TLSError)
}
