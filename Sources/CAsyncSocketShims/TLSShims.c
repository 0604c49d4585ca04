#include "TLSShims.h"

#include <openssl/pem.h>
#include <openssl/pkcs12.h>
#include <openssl/tls1.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

// MARK: Policy storage

static int policy_index = -1;
static pthread_once_t policy_index_once = PTHREAD_ONCE_INIT;

static void make_policy_index(void) { policy_index = SSL_get_ex_new_index(0, "ask_tls_policy", NULL, NULL, NULL); }

static ask_tls_policy *policy_of_ssl(const SSL *ssl) {
    pthread_once(&policy_index_once, make_policy_index);
    if (ssl == NULL || policy_index < 0) return NULL;
    return SSL_get_ex_data(ssl, policy_index);
}

static SSL *ssl_of_store(X509_STORE_CTX *store) {
    int index = SSL_get_ex_data_X509_STORE_CTX_idx();
    return index < 0 ? NULL : X509_STORE_CTX_get_ex_data(store, index);
}

ask_tls_policy *ask_tls_policy_new(unsigned int flags, const unsigned char *alpn, size_t alpn_length) {
    ask_tls_policy *policy = calloc(1, sizeof *policy);
    if (policy == NULL) return NULL;
    policy->flags = flags;
    if (alpn_length > 0) {
        policy->alpn = malloc(alpn_length);
        if (policy->alpn == NULL) {
            free(policy);
            return NULL;
        }
        memcpy(policy->alpn, alpn, alpn_length);
        policy->alpn_length = alpn_length;
    }
    return policy;
}

void ask_tls_policy_free(ask_tls_policy *policy) {
    if (policy == NULL) return;
    free(policy->alpn);
    free(policy);
}

// MARK: Verification
//
// OpenSSL calls the per-certificate callback for every problem it finds while building and
// checking the chain. It forgives exactly the errors an opt-out names and records the first one
// it does not forgive. Name mismatches are never forgiven here: only leaving the name out (no
// X509_VERIFY_PARAM host) turns that check off.

static int is_root_depth(X509_STORE_CTX *store, int depth) {
    STACK_OF(X509) *chain = X509_STORE_CTX_get0_chain(store);
    int top = chain == NULL ? 0 : sk_X509_num(chain) - 1;
    return depth >= top;
}

static int forgives(const ask_tls_policy *policy, int error, int depth, X509_STORE_CTX *store) {
    unsigned int flags = policy->flags;
    switch (error) {
    case X509_V_ERR_HOSTNAME_MISMATCH:
    case X509_V_ERR_IP_ADDRESS_MISMATCH:
    case X509_V_ERR_EMAIL_MISMATCH:
        return 0;
    default:
        break;
    }
    if (flags & ASK_TLS_SKIP_CHAIN_VALIDATION) return 1;
    switch (error) {
    case X509_V_ERR_UNABLE_TO_GET_ISSUER_CERT:
    case X509_V_ERR_UNABLE_TO_GET_ISSUER_CERT_LOCALLY:
    case X509_V_ERR_UNABLE_TO_VERIFY_LEAF_SIGNATURE:
    case X509_V_ERR_DEPTH_ZERO_SELF_SIGNED_CERT:
    case X509_V_ERR_SELF_SIGNED_CERT_IN_CHAIN:
    case X509_V_ERR_CERT_UNTRUSTED:
        return (flags & ASK_TLS_ALLOW_ANY_ROOT) != 0;
    case X509_V_ERR_CERT_HAS_EXPIRED:
        if (is_root_depth(store, depth)) {
            // A lone self-signed certificate is both root and leaf: either opt-out covers it.
            return (flags & ASK_TLS_ALLOW_EXPIRED_ROOTS) != 0
                   || (depth == 0 && (flags & ASK_TLS_ALLOW_EXPIRED_CERTIFICATES) != 0);
        }
        return (flags & ASK_TLS_ALLOW_EXPIRED_CERTIFICATES) != 0;
    default:
        return 0;
    }
}

static int verify_callback(int ok, X509_STORE_CTX *store) {
    if (ok) return 1;
    ask_tls_policy *policy = policy_of_ssl(ssl_of_store(store));
    if (policy == NULL) return 0;
    int error = X509_STORE_CTX_get_error(store);
    int depth = X509_STORE_CTX_get_error_depth(store);
    if (forgives(policy, error, depth, store)) return 1;
    if (policy->first_error == X509_V_OK) {
        policy->first_error = error;
        policy->first_error_depth = depth;
    }
    return policy->recording;
}

static int alpn_selected(const SSL *ssl) {
    const unsigned char *data = NULL;
    unsigned int length = 0;
    SSL_get0_alpn_selected(ssl, &data, &length);
    return length > 0;
}

// Replaces OpenSSL's chain verification on the client. By the time the server's certificate is
// checked, ServerHello (TLS 1.2) or EncryptedExtensions (TLS 1.3) has fixed the ALPN choice, so a
// required protocol is enforced here, with an alert. With manual trust, the first call records
// what OpenSSL's verification says without enforcing it and suspends the handshake
// (SSL_set_retry_verify: SSL_ERROR_WANT_RETRY_VERIFY); the call after the decision accepts the
// chain or fails with "certificate rejected" (a bad_certificate alert).
static int cert_verify_callback(X509_STORE_CTX *store, void *argument) {
    (void)argument;
    SSL *ssl = ssl_of_store(store);
    ask_tls_policy *policy = policy_of_ssl(ssl);
    if (policy == NULL || SSL_is_server(ssl)) return X509_verify_cert(store);
    if ((policy->flags & ASK_TLS_REQUIRE_ALPN) && !alpn_selected(ssl)) {
        policy->alpn_missing = 1;
        X509_STORE_CTX_set_error(store, X509_V_ERR_APPLICATION_VERIFICATION);
        return 0;
    }
    if (!(policy->flags & ASK_TLS_MANUAL_TRUST)) return X509_verify_cert(store);
    switch (policy->trust_state) {
    case ASK_TLS_TRUST_UNDECIDED: {
        policy->recording = 1;
        int verified = X509_verify_cert(store);
        policy->recording = 0;
        if (verified <= 0 && policy->first_error == X509_V_OK) {
            int error = X509_STORE_CTX_get_error(store);
            policy->first_error = error == X509_V_OK ? X509_V_ERR_UNSPECIFIED : error;
        }
        policy->trust_state = ASK_TLS_TRUST_PENDING;
        return SSL_set_retry_verify(ssl);
    }
    case ASK_TLS_TRUST_PENDING:
        return SSL_set_retry_verify(ssl);
    case ASK_TLS_TRUST_ACCEPTED:
        return 1;
    default:
        X509_STORE_CTX_set_error(store, X509_V_ERR_CERT_REJECTED);
        return 0;
    }
}

// MARK: ALPN

static int alpn_list_contains(const unsigned char *list, size_t length, const unsigned char *protocol,
                              unsigned int protocol_length) {
    size_t i = 0;
    while (i < length) {
        unsigned int entry = list[i];
        if (i + 1 + entry > length) return 0;
        if (entry == protocol_length && memcmp(list + i + 1, protocol, entry) == 0) return 1;
        i += 1 + entry;
    }
    return 0;
}

// Server: the first of the client's offers that is also ours.
static int alpn_select_callback(SSL *ssl, const unsigned char **out, unsigned char *out_length,
                                const unsigned char *in, unsigned int in_length, void *argument) {
    (void)argument;
    ask_tls_policy *policy = policy_of_ssl(ssl);
    if (policy == NULL || policy->alpn_length == 0) return SSL_TLSEXT_ERR_NOACK;
    unsigned int i = 0;
    while (i < in_length) {
        unsigned int length = in[i];
        if (length == 0 || i + 1 + length > in_length) break;
        if (alpn_list_contains(policy->alpn, policy->alpn_length, in + i + 1, length)) {
            *out = in + i + 1;
            *out_length = (unsigned char)length;
            return SSL_TLSEXT_ERR_OK;
        }
        i += 1 + length;
    }
    if (policy->flags & ASK_TLS_REQUIRE_ALPN) {
        policy->alpn_missing = 1;
        return SSL_TLSEXT_ERR_ALERT_FATAL;
    }
    return SSL_TLSEXT_ERR_NOACK;
}

// Server: a client that offers no ALPN at all never reaches the selection callback.
static int client_hello_callback(SSL *ssl, int *alert, void *argument) {
    (void)argument;
    ask_tls_policy *policy = policy_of_ssl(ssl);
    if (policy == NULL || !(policy->flags & ASK_TLS_REQUIRE_ALPN)) return SSL_CLIENT_HELLO_SUCCESS;
    const unsigned char *data = NULL;
    size_t length = 0;
    if (SSL_client_hello_get0_ext(ssl, TLSEXT_TYPE_application_layer_protocol_negotiation, &data, &length)) {
        return SSL_CLIENT_HELLO_SUCCESS;
    }
    policy->alpn_missing = 1;
    *alert = SSL_AD_NO_APPLICATION_PROTOCOL;
    return SSL_CLIENT_HELLO_ERROR;
}

// MARK: Context and connection set-up

int ask_tls_ctx_configure(SSL_CTX *ctx, int min_version, int max_version) {
    SSL_CTX_set_options(ctx, SSL_OP_NO_RENEGOTIATION | SSL_OP_NO_COMPRESSION);
    SSL_CTX_set_mode(ctx, SSL_MODE_ACCEPT_MOVING_WRITE_BUFFER | SSL_MODE_ENABLE_PARTIAL_WRITE);
    if (!SSL_CTX_set_min_proto_version(ctx, min_version)) return 0;
    if (!SSL_CTX_set_max_proto_version(ctx, max_version)) return 0;
    return 1;
}

void ask_tls_ctx_install_callbacks(SSL_CTX *ctx) {
    SSL_CTX_set_cert_verify_callback(ctx, cert_verify_callback, NULL);
    SSL_CTX_set_alpn_select_cb(ctx, alpn_select_callback, NULL);
    SSL_CTX_set_client_hello_cb(ctx, client_hello_callback, NULL);
}

int ask_tls_attach_policy(SSL *ssl, ask_tls_policy *policy, int verify_mode) {
    pthread_once(&policy_index_once, make_policy_index);
    if (policy_index < 0 || !SSL_set_ex_data(ssl, policy_index, policy)) return 0;
    SSL_set_verify(ssl, verify_mode, verify_callback);
    return 1;
}

int ask_tls_set_server_name(SSL *ssl, const char *name) { return (int)SSL_set_tlsext_host_name(ssl, name); }

void ask_tls_mem_bio_set_eof(BIO *bio) { BIO_set_mem_eof_return(bio, 0); }

int ask_tls_error_library(unsigned long error) { return ERR_GET_LIB(error); }

int ask_tls_error_reason(unsigned long error) { return ERR_GET_REASON(error); }

// MARK: Identities

// Supplies the caller's password, or fails; OpenSSL's default would prompt on the terminal.
static int password_callback(char *buffer, int size, int writing, void *userdata) {
    (void)writing;
    const char *password = userdata;
    if (password == NULL || size <= 0) return -1;
    size_t length = strlen(password);
    if (length > (size_t)size) return -1;
    memcpy(buffer, password, length);
    return (int)length;
}

static int use_key_and_chain(SSL_CTX *ctx, X509 *leaf, EVP_PKEY *key, STACK_OF(X509) *chain) {
    if (X509_check_private_key(leaf, key) != 1) return ASK_TLS_IDENTITY_KEY_MISMATCH;
    if (SSL_CTX_use_certificate(ctx, leaf) != 1) return ASK_TLS_IDENTITY_BAD_CERTIFICATE;
    if (SSL_CTX_use_PrivateKey(ctx, key) != 1) return ASK_TLS_IDENTITY_BAD_KEY;
    while (chain != NULL && sk_X509_num(chain) > 0) {
        X509 *certificate = sk_X509_shift(chain);
        if (!SSL_CTX_add0_chain_cert(ctx, certificate)) {
            X509_free(certificate);
            return ASK_TLS_IDENTITY_BAD_CERTIFICATE;
        }
    }
    return ASK_TLS_IDENTITY_OK;
}

int ask_tls_ctx_use_pem(SSL_CTX *ctx, const void *certificate, int certificate_length, const void *key,
                        int key_length, const char *password) {
    int result = ASK_TLS_IDENTITY_BAD_CERTIFICATE;
    X509 *leaf = NULL;
    EVP_PKEY *private_key = NULL;
    STACK_OF(X509) *chain = sk_X509_new_null();
    BIO *certificate_bio = BIO_new_mem_buf(certificate, certificate_length);
    BIO *key_bio = BIO_new_mem_buf(key, key_length);
    if (chain == NULL || certificate_bio == NULL || key_bio == NULL) goto done;
    leaf = PEM_read_bio_X509_AUX(certificate_bio, NULL, password_callback, NULL);
    if (leaf == NULL) goto done;
    X509 *next;
    while ((next = PEM_read_bio_X509(certificate_bio, NULL, password_callback, NULL)) != NULL) {
        if (!sk_X509_push(chain, next)) {
            X509_free(next);
            goto done;
        }
    }
    ERR_clear_error();  // the loop above ends with "no start line"
    private_key = PEM_read_bio_PrivateKey(key_bio, NULL, password_callback, (void *)password);
    if (private_key == NULL) {
        result = ASK_TLS_IDENTITY_BAD_KEY;
        goto done;
    }
    result = use_key_and_chain(ctx, leaf, private_key, chain);
done:
    sk_X509_pop_free(chain, X509_free);
    X509_free(leaf);
    EVP_PKEY_free(private_key);
    BIO_free(certificate_bio);
    BIO_free(key_bio);
    return result;
}

int ask_tls_ctx_use_pkcs12(SSL_CTX *ctx, const void *data, int length, const char *password) {
    int result = ASK_TLS_IDENTITY_BAD_CONTAINER;
    X509 *leaf = NULL;
    EVP_PKEY *private_key = NULL;
    STACK_OF(X509) *chain = NULL;
    PKCS12 *container = NULL;
    BIO *bio = BIO_new_mem_buf(data, length);
    if (bio == NULL) goto done;
    container = d2i_PKCS12_bio(bio, NULL);
    if (container == NULL) goto done;
    if (!PKCS12_parse(container, password, &private_key, &leaf, &chain)) {
        result = ASK_TLS_IDENTITY_BAD_KEY;
        goto done;
    }
    if (leaf == NULL || private_key == NULL) goto done;
    result = use_key_and_chain(ctx, leaf, private_key, chain);
done:
    sk_X509_pop_free(chain, X509_free);
    X509_free(leaf);
    EVP_PKEY_free(private_key);
    PKCS12_free(container);
    BIO_free(bio);
    return result;
}

// MARK: Peer certificates

int ask_tls_peer_chain_count(const SSL *ssl) {
    STACK_OF(X509) *chain = SSL_get_peer_cert_chain(ssl);
    int count = chain == NULL ? 0 : sk_X509_num(chain);
    // On the server side the chain leaves out the client's own certificate.
    if (SSL_is_server(ssl) && SSL_get0_peer_certificate(ssl) != NULL) count += 1;
    return count;
}

X509 *ask_tls_peer_chain_at(const SSL *ssl, int index) {
    STACK_OF(X509) *chain = SSL_get_peer_cert_chain(ssl);
    if (SSL_is_server(ssl)) {
        X509 *own = SSL_get0_peer_certificate(ssl);
        if (own == NULL) return NULL;
        if (index == 0) return own;
        index -= 1;
    }
    if (chain == NULL || index < 0 || index >= sk_X509_num(chain)) return NULL;
    return sk_X509_value(chain, index);
}

int ask_tls_subject_line(X509 *certificate, char *buffer, int length) {
    if (length <= 0) return 0;
    buffer[0] = 0;
    BIO *bio = BIO_new(BIO_s_mem());
    if (bio == NULL) return 0;
    int written = 0;
    if (X509_NAME_print_ex(bio, X509_get_subject_name(certificate), 0, XN_FLAG_RFC2253 & ~ASN1_STRFLGS_ESC_MSB) >= 0) {
        written = BIO_read(bio, buffer, length - 1);
        if (written < 0) written = 0;
        buffer[written] = 0;
    }
    BIO_free(bio);
    return written;
}
