import CAsyncSocketShims
import COpenSSL
import Foundation

/// Loads a ``TLSSettings/Identity`` into an SSL context. Nothing here ever prompts for a password:
/// an encrypted key without the right password is an error.
enum TLSIdentityLoader {
    static func load(_ identity: TLSSettings.Identity, into context: OpaquePointer) throws(TLSError) {
        switch identity {
        case .pem(let certificatePath, let keyPath, let password):
            let certificate = try read(certificatePath, what: "certificate")
            let key = try read(keyPath, what: "private key")
            try usePEM(certificate: certificate, key: key, password: password, context: context)
        case .pemData(let certificate, let key, let password):
            try usePEM(certificate: certificate, key: key, password: password, context: context)
        case .pkcs12(let archive, let password):
            let status = archive.withUnsafeBytes { bytes in
                password.withCString { ask_tls_ctx_use_pkcs12(context, bytes.baseAddress, Int32(bytes.count), $0) }
            }
            try check(status, container: "PKCS#12 archive")
        }
    }

    private static func read(_ path: String, what: String) throws(TLSError) -> Data {
        do {
            return try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw TLSError(
                code: .badConfiguration,
                message: "TLS identity: cannot read the \(what) file \(path): \(error.localizedDescription)")
        }
    }

    private static func usePEM(certificate: Data, key: Data, password: String?, context: OpaquePointer)
        throws(TLSError)
    {
        let status = certificate.withUnsafeBytes { certificateBytes in
            key.withUnsafeBytes { keyBytes in
                withOptionalCString(password) { password in
                    ask_tls_ctx_use_pem(
                        context, certificateBytes.baseAddress, Int32(certificateBytes.count), keyBytes.baseAddress,
                        Int32(keyBytes.count), password)
                }
            }
        }
        try check(status, container: "PEM data")
    }

    private static func check(_ status: Int32, container: String) throws(TLSError) {
        let problem: String
        switch status {
        case ASK_TLS_IDENTITY_OK:
            return
        case ASK_TLS_IDENTITY_BAD_CERTIFICATE:
            problem = "the certificate in the \(container) cannot be read"
        case ASK_TLS_IDENTITY_BAD_KEY:
            problem =
                "the private key in the \(container) cannot be read (a wrong or missing password, "
                + "or an algorithm OpenSSL 3 no longer reads by default)"
        case ASK_TLS_IDENTITY_KEY_MISMATCH:
            problem = "the private key does not belong to the certificate"
        default:
            problem = "the \(container) cannot be read"
        }
        let queue = OpenSSLErrorQueue.drain()
        let reason = queue.text
        throw TLSError(
            code: .badConfiguration,
            message: "TLS identity: \(problem)" + (reason.isEmpty ? "" : " (OpenSSL: \(reason))"),
            opensslReason: reason)
    }

    private static func withOptionalCString<Result>(
        _ text: String?, _ body: (UnsafePointer<CChar>?) -> Result
    ) -> Result {
        guard let text else { return body(nil) }
        return text.withCString(body)
    }
}
