import Foundation

// Reading the dictionaries ported code hands to `startTLS`: CFNetwork's kCFStreamSSL… keys and
// GCDAsyncSocket's own, as strings, plus AsyncSocketKit's AsyncSocketTLSTrustRoots. A value may have
// the Objective-C type the original expected (NSNumber, NSString, NSArray, NSDictionary, NSNull) or
// the Swift type of the matching property.
// Anything else — an unknown key, a wrong type, a refused value — throws a TLSSettingsError that
// names the key; nothing is ignored.
extension TLSSettings {
    /// The keys ``init(legacyDictionary:)`` understands.
    public enum LegacyKey: String, CaseIterable, Sendable {
        /// `kCFStreamSSLPeerName`: a String (the name to check), or `NSNull()` or `""` (no name
        /// check), or a ``TLSSettings/PeerName``.
        case peerName = "kCFStreamSSLPeerName"
        /// `kCFStreamSSLIsServer`: Bool.
        case isServer = "kCFStreamSSLIsServer"
        /// `kCFStreamSSLCertificates`: an array whose one element is a ``TLSSettings/Identity`` or a
        /// dictionary with "certificate" and "key" (paths, or PEM `Data`) and an optional "password",
        /// or with "pkcs12" (`Data`) and "password". An `Identity` alone is accepted too.
        case certificates = "kCFStreamSSLCertificates"
        /// `kCFStreamSSLLevel`: "kCFStreamSocketSecurityLevelNegotiatedSSL" or
        /// "kCFStreamSocketSecurityLevelTLSv1" (both mean TLS 1.2 or newer here).
        case level = "kCFStreamSSLLevel"
        /// `kCFStreamSSLAllowsAnyRoot`: Bool.
        case allowsAnyRoot = "kCFStreamSSLAllowsAnyRoot"
        /// `kCFStreamSSLAllowsExpiredRoots`: Bool.
        case allowsExpiredRoots = "kCFStreamSSLAllowsExpiredRoots"
        /// `kCFStreamSSLAllowsExpiredCertificates`: Bool.
        case allowsExpiredCertificates = "kCFStreamSSLAllowsExpiredCertificates"
        /// `kCFStreamSSLValidatesCertificateChain`: Bool.
        case validatesCertificateChain = "kCFStreamSSLValidatesCertificateChain"
        /// `GCDAsyncSocketManuallyEvaluateTrust`: Bool.
        case manuallyEvaluateTrust = "GCDAsyncSocketManuallyEvaluateTrust"
        /// `GCDAsyncSocketSSLProtocolVersionMin`: SecureTransport's `SSLProtocol` number (8 = TLS 1.2,
        /// 10 = TLS 1.3), "TLSv1.2"/"TLSv1.3", or a ``TLSSettings/Version``.
        case protocolVersionMin = "GCDAsyncSocketSSLProtocolVersionMin"
        /// `GCDAsyncSocketSSLProtocolVersionMax`: as the minimum; 999 (`kTLSProtocolMaxSupported`)
        /// means no limit.
        case protocolVersionMax = "GCDAsyncSocketSSLProtocolVersionMax"
        /// `GCDAsyncSocketSSLALPN`: an array of protocol names.
        case alpn = "GCDAsyncSocketSSLALPN"
        /// `GCDAsyncSocketSSLCipherSuites`: OpenSSL cipher names, as an array or one ':'-separated
        /// String. Names starting with "TLS_" are TLS 1.3 suites, the others TLS 1.2 ciphers.
        case cipherSuites = "GCDAsyncSocketSSLCipherSuites"
        /// `AsyncSocketTLSTrustRoots`, AsyncSocketKit's own key (the originals had none; their
        /// code anchored a private CA with `SecTrustSetAnchorCertificates` in a trust callback): the
        /// CA certificates a peer's chain may lead to besides the system trust store. A path to a
        /// PEM file (or a hashed certificate directory), or an array of such paths, sets
        /// ``TLSSettings/trustRoots`` to ``TLSSettings/TrustRoots/systemAnd(_:)``; each path must
        /// exist. A ``TLSSettings/TrustRoots`` is taken as it is (`.only([…])` trusts nothing else).
        case trustRoots = "AsyncSocketTLSTrustRoots"
    }

    /// Settings from a legacy `startTLS` dictionary (see ``LegacyKey``); an empty dictionary gives
    /// strict client settings.
    public init(legacyDictionary: [String: Any]) throws(TLSSettingsError) {
        self.init(role: .client)
        for key in legacyDictionary.keys.sorted() {
            guard let value = legacyDictionary[key] else { continue }
            guard let known = LegacyKey(rawValue: key) else {
                let keys = LegacyKey.allCases.map(\.rawValue).joined(separator: ", ")
                throw TLSSettingsError(key: key, expected: "one of the known keys (\(keys))", found: "an unknown key")
            }
            try apply(known, value)
        }
    }

    private mutating func apply(_ key: LegacyKey, _ value: Any) throws(TLSSettingsError) {
        switch key {
        case .peerName: peerName = try Self.peerName(value)
        case .isServer: role = try Self.bool(value, key.rawValue) ? .server : .client
        case .certificates: identity = try Self.identity(value)
        case .level: try Self.checkLevel(value)
        case .allowsAnyRoot: allowsAnyRoot = try Self.bool(value, key.rawValue)
        case .allowsExpiredRoots: allowsExpiredRoots = try Self.bool(value, key.rawValue)
        case .allowsExpiredCertificates: allowsExpiredCertificates = try Self.bool(value, key.rawValue)
        case .validatesCertificateChain: validatesCertificateChain = try Self.bool(value, key.rawValue)
        case .manuallyEvaluateTrust: manualTrustEvaluation = try Self.bool(value, key.rawValue)
        case .protocolVersionMin: minimumVersion = try Self.version(value, key, isMaximum: false)
        case .protocolVersionMax: maximumVersion = try Self.version(value, key, isMaximum: true)
        case .alpn: alpnProtocols = try Self.alpn(value)
        case .cipherSuites: try applyCiphers(value)
        case .trustRoots: trustRoots = try Self.trustRoots(value)
        }
    }

    // MARK: Scalars

    private static func bool(_ value: Any, _ key: String) throws(TLSSettingsError) -> Bool {
        guard let flag = value as? Bool else {
            throw TLSSettingsError(key: key, expected: "a Bool (or an NSNumber 0 or 1)", found: describe(value))
        }
        return flag
    }

    private static func peerName(_ value: Any) throws(TLSSettingsError) -> PeerName {
        if value is NSNull {
            return .none
        }
        if let name = value as? String {
            return name.isEmpty ? .none : .name(name)
        }
        if let name = value as? PeerName {
            return name
        }
        throw TLSSettingsError(
            key: LegacyKey.peerName.rawValue,
            expected: "a String, NSNull() or \"\" (no name check), or a TLSSettings.PeerName",
            found: describe(value))
    }

    private static func checkLevel(_ value: Any) throws(TLSSettingsError) {
        let accepted = "\"kCFStreamSocketSecurityLevelNegotiatedSSL\" or \"kCFStreamSocketSecurityLevelTLSv1\""
        guard let level = value as? String else {
            throw TLSSettingsError(key: LegacyKey.level.rawValue, expected: accepted, found: describe(value))
        }
        switch level {
        case "kCFStreamSocketSecurityLevelNegotiatedSSL", "kCFStreamSocketSecurityLevelTLSv1":
            return
        case "kCFStreamSocketSecurityLevelNone":
            throw TLSSettingsError(
                key: LegacyKey.level.rawValue, expected: accepted,
                found: "\"\(level)\" (TLS cannot be started without security; do not call startTLS instead)")
        default:
            throw TLSSettingsError(
                key: LegacyKey.level.rawValue, expected: accepted,
                found: describe(value) + " (SSL 2/3 and unknown levels are not supported)")
        }
    }

    /// SecureTransport's `SSLProtocol` numbers (kTLSProtocol12 = 8, kTLSProtocol13 = 10,
    /// kTLSProtocolMaxSupported = 999), OpenSSL-style names, or a `Version`.
    private static func version(_ value: Any, _ key: LegacyKey, isMaximum: Bool) throws(TLSSettingsError) -> Version? {
        let expected = "TLS 1.2 or newer: 8 (kTLSProtocol12), 10 (kTLSProtocol13), \"TLSv1.2\" or \"TLSv1.3\""
        if let version = value as? Version {
            return version
        }
        if let name = value as? String {
            switch name {
            case "TLSv1.2": return .tls1_2
            case "TLSv1.3": return .tls1_3
            case "SSLv2", "SSLv3", "TLSv1", "TLSv1.0", "TLSv1.1":
                throw TLSSettingsError(
                    key: key.rawValue, expected: expected,
                    found: "\"\(name)\" (versions below TLS 1.2 are not supported)")
            default:
                throw TLSSettingsError(key: key.rawValue, expected: expected, found: describe(value))
            }
        }
        guard let number = integer(value) else {
            throw TLSSettingsError(key: key.rawValue, expected: expected, found: describe(value))
        }
        switch number {
        case 8: return .tls1_2
        case 10: return .tls1_3
        case 999: return isMaximum ? nil : .tls1_3
        case 0...7:
            throw TLSSettingsError(
                key: key.rawValue, expected: expected,
                found: "\(number) (versions below TLS 1.2 are not supported)")
        case 9, 11:
            throw TLSSettingsError(key: key.rawValue, expected: expected, found: "\(number) (DTLS is not supported)")
        default:
            throw TLSSettingsError(
                key: key.rawValue, expected: expected, found: "\(number) (not an SSLProtocol value)")
        }
    }

    // MARK: Lists

    private static func alpn(_ value: Any) throws(TLSSettingsError) -> [String] {
        let key = LegacyKey.alpn.rawValue
        let expected = "an array of protocol names (1 to 255 bytes each)"
        guard let names = value as? [String] else {
            throw TLSSettingsError(key: key, expected: expected, found: describe(value))
        }
        for name in names where name.utf8.isEmpty || name.utf8.count > 255 {
            throw TLSSettingsError(key: key, expected: expected, found: "a name of \(name.utf8.count) bytes")
        }
        return names
    }

    private mutating func applyCiphers(_ value: Any) throws(TLSSettingsError) {
        let key = LegacyKey.cipherSuites.rawValue
        let expected = "OpenSSL cipher names, as an array of Strings or one ':'-separated String"
        let names: [String]
        if let list = value as? String {
            names = list.split(separator: ":", omittingEmptySubsequences: false).map(String.init)
        } else if let list = value as? [String] {
            names = list
        } else {
            let hint = value is [Any] ? " (SecureTransport cipher numbers have no OpenSSL meaning)" : ""
            throw TLSSettingsError(key: key, expected: expected, found: Self.describe(value) + hint)
        }
        guard !names.isEmpty, !names.contains(where: \.isEmpty) else {
            throw TLSSettingsError(key: key, expected: expected, found: "an empty name")
        }
        let tls13 = names.filter { $0.hasPrefix("TLS_") }
        let tls12 = names.filter { !$0.hasPrefix("TLS_") }
        cipherSuites = tls13.isEmpty ? nil : tls13.joined(separator: ":")
        cipherList = tls12.isEmpty ? nil : tls12.joined(separator: ":")
    }

    // MARK: Trust roots

    private static func trustRoots(_ value: Any) throws(TLSSettingsError) -> TrustRoots {
        let key = LegacyKey.trustRoots.rawValue
        let expected =
            "a path to a PEM CA file (or a hashed certificate directory), an array of such paths, "
            + "or a TLSSettings.TrustRoots"
        if let roots = value as? TrustRoots {
            switch roots {
            case .system: return roots
            case .systemAnd(let paths), .only(let paths):
                try checkPaths(paths, key: key, expected: expected, indexed: true)
                return roots
            }
        }
        if let path = value as? String {
            try checkPaths([path], key: key, expected: expected, indexed: false)
            return .systemAnd([path])
        }
        guard let elements = value as? [Any] else {
            throw TLSSettingsError(key: key, expected: expected, found: describe(value))
        }
        guard !elements.isEmpty else {
            throw TLSSettingsError(key: key, expected: expected, found: "an empty array")
        }
        var paths: [String] = []
        for (index, element) in elements.enumerated() {
            guard let path = element as? String else {
                throw TLSSettingsError(key: key + "[\(index)]", expected: "a path (String)", found: describe(element))
            }
            paths.append(path)
        }
        try checkPaths(paths, key: key, expected: expected, indexed: true)
        return .systemAnd(paths)
    }

    /// Every path must name something that exists, so a typo is reported with the key (and the
    /// index, for a list), not later by the handshake.
    private static func checkPaths(
        _ paths: [String], key: String, expected: String, indexed: Bool
    ) throws(TLSSettingsError) {
        for (index, path) in paths.enumerated() {
            let name = indexed ? key + "[\(index)]" : key
            guard !path.isEmpty else {
                throw TLSSettingsError(key: name, expected: expected, found: "an empty path")
            }
            guard FileManager.default.fileExists(atPath: path) else {
                throw TLSSettingsError(key: name, expected: expected, found: "\"\(path)\", which does not exist")
            }
        }
    }

    // MARK: Identity

    private static func identity(_ value: Any) throws(TLSSettingsError) -> Identity {
        let key = LegacyKey.certificates.rawValue
        if let identity = value as? Identity {
            return identity
        }
        guard let elements = value as? [Any] else {
            throw TLSSettingsError(
                key: key, expected: "an array holding one TLSSettings.Identity or identity dictionary",
                found: describe(value))
        }
        guard elements.count == 1 else {
            throw TLSSettingsError(
                key: key,
                expected: "exactly one element, the identity (put intermediate certificates into its PEM file "
                    + "or PKCS#12 archive)",
                found: "\(elements.count) elements")
        }
        if let identity = elements[0] as? Identity {
            return identity
        }
        guard let entries = elements[0] as? [String: Any] else {
            throw TLSSettingsError(
                key: key + "[0]", expected: "a TLSSettings.Identity or a dictionary", found: describe(elements[0]))
        }
        return try identity(fromEntries: entries)
    }

    private static func identity(fromEntries entries: [String: Any]) throws(TLSSettingsError) -> Identity {
        let prefix = LegacyKey.certificates.rawValue + "[0]."
        let allowed: Set<String> = ["certificate", "key", "password", "pkcs12"]
        if let unknown = entries.keys.sorted().first(where: { !allowed.contains($0) }) {
            throw TLSSettingsError(
                key: prefix + unknown, expected: "one of \"certificate\", \"key\", \"password\", \"pkcs12\"",
                found: "an unknown key")
        }
        var password: String?
        if let value = entries["password"], !(value is NSNull) {
            guard let text = value as? String else {
                throw TLSSettingsError(key: prefix + "password", expected: "a String", found: typeName(value))
            }
            password = text
        }
        if let archive = entries["pkcs12"] {
            guard entries["certificate"] == nil, entries["key"] == nil else {
                throw TLSSettingsError(
                    key: prefix + "pkcs12", expected: "either \"pkcs12\" or \"certificate\" and \"key\"",
                    found: "both")
            }
            guard let data = archive as? Data else {
                throw TLSSettingsError(key: prefix + "pkcs12", expected: "Data", found: typeName(archive))
            }
            return .pkcs12(data, password: password ?? "")
        }
        guard let certificate = entries["certificate"], let key = entries["key"] else {
            throw TLSSettingsError(
                key: prefix + (entries["certificate"] == nil ? "certificate" : "key"),
                expected: "\"certificate\" and \"key\" (paths or PEM Data), or \"pkcs12\"", found: "nothing")
        }
        if let certificatePath = certificate as? String, let keyPath = key as? String {
            return .pem(certificatePath: certificatePath, keyPath: keyPath, password: password)
        }
        if let certificateData = certificate as? Data, let keyData = key as? Data {
            return .pemData(certificate: certificateData, key: keyData, password: password)
        }
        throw TLSSettingsError(
            key: prefix + "certificate", expected: "two paths (String) or two PEM Data values",
            found: "\(typeName(certificate)) and \(typeName(key))")
    }

    // MARK: Helpers

    /// An exact integer from an Int or an NSNumber (an NSNumber from Objective-C may hold a double).
    private static func integer(_ value: Any) -> Int? {
        if let number = value as? Int {
            return number
        }
        if let number = value as? NSNumber {
            return Int(exactly: number.doubleValue)
        }
        return nil
    }

    private static func typeName(_ value: Any) -> String {
        "a value of type \(type(of: value))"
    }

    /// The value for an error message: short strings and numbers verbatim, anything else by type.
    private static func describe(_ value: Any) -> String {
        if let flag = value as? Bool, type(of: value) == Bool.self {
            return "\(flag)"
        }
        if let text = value as? String {
            return text.count <= 60 ? "\"\(text)\"" : "a String of \(text.count) characters"
        }
        if let number = value as? NSNumber {
            return "the number \(number)"
        }
        return typeName(value)
    }
}
