// C helpers for the TLS engine: OpenSSL macros Swift cannot import, the verification, ALPN and
// client-hello callbacks, and identity loading that must never prompt for a password. Every name
// starts with `ask_tls_`.
#ifndef ASYNCSOCKET_TLS_SHIMS_H
#define ASYNCSOCKET_TLS_SHIMS_H

#include <openssl/bio.h>
#include <openssl/err.h>
#include <openssl/ssl.h>
#include <openssl/x509.h>
#include <openssl/x509_vfy.h>
#include <stddef.h>

/// Forgive a chain that does not end in a trusted root (kCFStreamSSLAllowsAnyRoot).
#define ASK_TLS_ALLOW_ANY_ROOT 0x01u
/// Forgive an expired root (kCFStreamSSLAllowsExpiredRoots).
#define ASK_TLS_ALLOW_EXPIRED_ROOTS 0x02u
/// Forgive expired certificates below the root (kCFStreamSSLAllowsExpiredCertificates).
#define ASK_TLS_ALLOW_EXPIRED_CERTIFICATES 0x04u
/// Forgive every chain error but a name mismatch (kCFStreamSSLValidatesCertificateChain = NO).
#define ASK_TLS_SKIP_CHAIN_VALIDATION 0x08u
/// Client: suspend the handshake after the server's certificate for the application's decision.
#define ASK_TLS_MANUAL_TRUST 0x10u
/// Fail the handshake when no ALPN protocol is agreed.
#define ASK_TLS_REQUIRE_ALPN 0x20u

/// Where a manual trust decision stands (ask_tls_policy.trust_state).
#define ASK_TLS_TRUST_UNDECIDED 0
#define ASK_TLS_TRUST_PENDING 1
#define ASK_TLS_TRUST_ACCEPTED 2
#define ASK_TLS_TRUST_REJECTED 3

/// What `ask_tls_ctx_use_pem` and `ask_tls_ctx_use_pkcs12` report.
#define ASK_TLS_IDENTITY_OK 0
#define ASK_TLS_IDENTITY_BAD_CERTIFICATE (-1)
#define ASK_TLS_IDENTITY_BAD_KEY (-2)
#define ASK_TLS_IDENTITY_KEY_MISMATCH (-3)
#define ASK_TLS_IDENTITY_BAD_CONTAINER (-4)

/// Per-connection verification state, shared by the engine and the OpenSSL callbacks. The engine
/// owns it (ask_tls_policy_new / ask_tls_policy_free) and frees it only after the SSL object.
typedef struct ask_tls_policy {
    /// ASK_TLS_* flags.
    unsigned int flags;
    /// The first chain error no opt-out forgave (an X509_V_ERR_* value), 0 when none.
    int first_error;
    /// The chain depth of `first_error`.
    int first_error_depth;
    /// ASK_TLS_TRUST_* (manual trust only).
    int trust_state;
    /// Set when the handshake failed because no ALPN protocol was agreed.
    int alpn_missing;
    /// Set while verification only records errors (the first pass of manual trust).
    int recording;
    /// Our ALPN protocols in wire format (length-prefixed), owned by the policy.
    unsigned char *alpn;
    size_t alpn_length;
} ask_tls_policy;

/// A zeroed policy with `flags` and a copy of the ALPN list; NULL when out of memory.
ask_tls_policy *ask_tls_policy_new(unsigned int flags, const unsigned char *alpn, size_t alpn_length);

/// Frees a policy and its ALPN list (NULL is ignored).
void ask_tls_policy_free(ask_tls_policy *policy);

/// Applies the defaults every context gets (no renegotiation, no compression, partial writes, a
/// moving write buffer) and the protocol version range (0 for `max_version` = the highest).
/// Returns 1 on success.
int ask_tls_ctx_configure(SSL_CTX *ctx, int min_version, int max_version);

/// Installs the certificate-verification, ALPN-selection and client-hello callbacks; they read the
/// policy attached to each SSL object and do nothing special without one.
void ask_tls_ctx_install_callbacks(SSL_CTX *ctx);

/// Attaches `policy` to `ssl` and sets the peer verification mode (SSL_VERIFY_*) with the
/// callback that applies the policy's opt-outs. Returns 1 on success.
int ask_tls_attach_policy(SSL *ssl, ask_tls_policy *policy, int verify_mode);

/// SSL_set_tlsext_host_name: the server name sent in the ClientHello. Returns 1 on success.
int ask_tls_set_server_name(SSL *ssl, const char *name);

/// Makes an empty memory BIO report end-of-file instead of "retry" (the peer closed).
void ask_tls_mem_bio_set_eof(BIO *bio);

/// ERR_GET_LIB and ERR_GET_REASON.
int ask_tls_error_library(unsigned long error);
int ask_tls_error_reason(unsigned long error);

/// Loads a PEM certificate chain (leaf first, then intermediates) and a PEM private key, decrypted
/// with `password` when it is encrypted (NULL: an encrypted key fails; never prompts).
/// Returns ASK_TLS_IDENTITY_*.
int ask_tls_ctx_use_pem(SSL_CTX *ctx, const void *certificate, int certificate_length, const void *key,
                        int key_length, const char *password);

/// Loads a PKCS#12 identity (certificate, key and any CA certificates). Returns ASK_TLS_IDENTITY_*.
int ask_tls_ctx_use_pkcs12(SSL_CTX *ctx, const void *data, int length, const char *password);

/// The number of certificates the peer presented, its own included.
int ask_tls_peer_chain_count(const SSL *ssl);

/// The peer's certificate at `index` (0: the peer's own), not retained; NULL when out of range.
X509 *ask_tls_peer_chain_at(const SSL *ssl, int index);

/// Writes the certificate's subject as a one-line RFC 2253 string into `buffer` (always
/// terminated). Returns its length.
int ask_tls_subject_line(X509 *certificate, char *buffer, int length);

#endif
