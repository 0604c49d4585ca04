import AsyncSocketCore
import COpenSSL
import Foundation

/// A self-signed EC (P-256) certificate and key for `localhost`, valid for two days, made once per
/// process with OpenSSL's own calls (no `openssl` command, no file); no key is ever committed. `nil`
/// when OpenSSL fails to make one.
///
/// LeakSanitizer cannot follow the tagged pointers of a `Data` held in a global (here, and in the
/// TLS context cache's entries), so Tests/Fuzz/lsan.supp names this type.
enum ThrowawayIdentity {
    static let pem = make()

    private static func make() -> TLSSettings.Identity? {
        guard let key = makeKey() else { return nil }
        defer { EVP_PKEY_free(key) }
        guard let certificate = X509_new() else { return nil }
        defer { X509_free(certificate) }
        let commonName = Array("localhost".utf8)
        guard let name = X509_get_subject_name(certificate),
            X509_set_version(certificate, 2) == 1,
            ASN1_INTEGER_set(X509_get_serialNumber(certificate), 1) == 1,
            X509_gmtime_adj(X509_getm_notBefore(certificate), 0) != nil,
            X509_gmtime_adj(X509_getm_notAfter(certificate), 2 * 86_400) != nil,
            X509_NAME_add_entry_by_NID(name, NID_commonName, MBSTRING_ASC, commonName, Int32(commonName.count), -1, 0)
                == 1,
            X509_set_issuer_name(certificate, name) == 1,
            X509_set_pubkey(certificate, key) == 1,
            X509_sign(certificate, key, EVP_sha256()) > 0,
            let certificatePEM = pem({ PEM_write_bio_X509($0, certificate) }),
            let keyPEM = pem({ PEM_write_bio_PrivateKey($0, key, nil, nil, 0, nil, nil) })
        else { return nil }
        return .pemData(certificate: certificatePEM, key: keyPEM, password: nil)
    }

    private static func makeKey() -> OpaquePointer? {
        guard let context = EVP_PKEY_CTX_new_id(EVP_PKEY_EC, nil) else { return nil }
        defer { EVP_PKEY_CTX_free(context) }
        var key: OpaquePointer?
        guard EVP_PKEY_keygen_init(context) == 1,
            EVP_PKEY_CTX_set_ec_paramgen_curve_nid(context, NID_X9_62_prime256v1) == 1,
            EVP_PKEY_keygen(context, &key) == 1
        else { return nil }
        return key
    }

    /// What `write` puts into a memory BIO, as bytes.
    private static func pem(_ write: (OpaquePointer) -> Int32) -> Data? {
        guard let bio = BIO_new(BIO_s_mem()) else { return nil }
        defer { BIO_free(bio) }
        guard write(bio) == 1 else { return nil }
        var bytes: UnsafeMutablePointer<CChar>?
        let count = BIO_ctrl(bio, BIO_CTRL_INFO, 0, &bytes)
        guard count > 0, let bytes else { return nil }
        return Data(bytes: bytes, count: count)
    }
}
