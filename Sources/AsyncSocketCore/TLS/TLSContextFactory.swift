import CAsyncSocketShims
import COpenSSL
import Foundation

/// Builds the SSL context of one engine from its settings: protocol versions, ciphers, trust roots,
/// identity, the client's ALPN offer and the callbacks that apply the per-connection policy.
enum TLSContextFactory {
    static func makeContext(settings: TLSSettings) throws(TLSError) -> OpaquePointer {
        let method = settings.role == .client ? TLS_client_method() : TLS_server_method()
        guard let context = SSL_CTX_new(method) else {
            throw failure("cannot create an SSL context")
        }
        do {
            try configureVersions(context, settings)
            try configureCiphers(context, settings)
            try configureTrust(context, settings)
            try configureIdentity(context, settings)
            try configureALPN(context, settings)
        } catch {
            SSL_CTX_free(context)
            throw error
        }
        ask_tls_ctx_install_callbacks(context)
        return context
    }

    /// The ALPN protocols in wire format: each name preceded by its length.
    static func alpnWireFormat(_ protocols: [String]) throws(TLSError) -> [UInt8] {
        var wire: [UInt8] = []
        for name in protocols {
            let bytes = Array(name.utf8)
            guard (1...255).contains(bytes.count) else {
                throw TLSError(
                    code: .badConfiguration,
                    message: "TLS settings: the ALPN protocol \"\(name)\" must be 1 to 255 bytes long")
            }
            wire.append(UInt8(bytes.count))
            wire.append(contentsOf: bytes)
        }
        return wire
    }

    private static func configureVersions(_ context: OpaquePointer, _ settings: TLSSettings) throws(TLSError) {
        let minimum = settings.minimumVersion ?? .tls1_2
        if let maximum = settings.maximumVersion, maximum < minimum {
            throw TLSError(
                code: .badConfiguration, message: "TLS settings: maximumVersion is below minimumVersion")
        }
        let maximum = Int32(settings.maximumVersion?.rawValue ?? 0)
        guard ask_tls_ctx_configure(context, Int32(minimum.rawValue), maximum) == 1 else {
            throw failure("cannot set the protocol versions")
        }
    }

    private static func configureCiphers(_ context: OpaquePointer, _ settings: TLSSettings) throws(TLSError) {
        if let list = settings.cipherList, SSL_CTX_set_cipher_list(context, list) != 1 {
            throw failure("OpenSSL accepts none of the TLS 1.2 ciphers \"\(list)\"")
        }
        if let suites = settings.cipherSuites, SSL_CTX_set_ciphersuites(context, suites) != 1 {
            throw failure("OpenSSL does not accept the TLS 1.3 cipher suites \"\(suites)\"")
        }
    }

    /// A server that does not ask for client certificates never reads the system trust store.
    private static func configureTrust(_ context: OpaquePointer, _ settings: TLSSettings) throws(TLSError) {
        let verifiesPeer = settings.role == .client || settings.clientAuthentication != .none
        let paths: [String]
        switch settings.trustRoots {
        case .system:
            paths = []
            if verifiesPeer { try useSystemRoots(context) }
        case .systemAnd(let extra):
            paths = extra
            if verifiesPeer { try useSystemRoots(context) }
        case .only(let only):
            guard !only.isEmpty || !verifiesPeer else {
                throw TLSError(code: .badConfiguration, message: "TLS settings: trustRoots .only([]) trusts nothing")
            }
            paths = only
        }
        for path in paths {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
                throw TLSError(code: .badConfiguration, message: "TLS settings: the trust root \(path) does not exist")
            }
            let loaded =
                isDirectory.boolValue
                ? SSL_CTX_load_verify_locations(context, nil, path) : SSL_CTX_load_verify_locations(context, path, nil)
            guard loaded == 1 else {
                throw failure("cannot load trust roots from \(path)")
            }
        }
    }

    private static func useSystemRoots(_ context: OpaquePointer) throws(TLSError) {
        guard SSL_CTX_set_default_verify_paths(context) == 1 else {
            throw failure("cannot load the system trust store")
        }
    }

    private static func configureIdentity(_ context: OpaquePointer, _ settings: TLSSettings) throws(TLSError) {
        guard let identity = settings.identity else {
            if settings.role == .server {
                throw TLSError(
                    code: .badConfiguration,
                    message: "TLS settings: a server needs an identity (TLSSettings.identity, kCFStreamSSLCertificates)"
                )
            }
            return
        }
        try TLSIdentityLoader.load(identity, into: context)
    }

    /// The client offers its protocols here; the server's list goes to the policy its callback reads.
    private static func configureALPN(_ context: OpaquePointer, _ settings: TLSSettings) throws(TLSError) {
        if settings.requiresALPN && settings.alpnProtocols.isEmpty {
            throw TLSError(code: .badConfiguration, message: "TLS settings: requiresALPN without alpnProtocols")
        }
        guard settings.role == .client, !settings.alpnProtocols.isEmpty else { return }
        let wire = try alpnWireFormat(settings.alpnProtocols)
        // SSL_CTX_set_alpn_protos returns 0 on success.
        guard SSL_CTX_set_alpn_protos(context, wire, UInt32(wire.count)) == 0 else {
            throw failure("cannot set the ALPN protocols")
        }
    }

    private static func failure(_ what: String) -> TLSError {
        let reason = OpenSSLErrorQueue.drain().text
        return TLSError(
            code: .badConfiguration,
            message: "TLS settings: \(what)" + (reason.isEmpty ? "" : " (OpenSSL: \(reason))"),
            opensslReason: reason)
    }
}
