extension APICatalog {
    /// The CFNetwork keys and security levels of `startTLS:` dictionaries. AsyncSocketKit defines the
    /// supported ones as string constants under their original names, and `QueueSocket.startTLS(_:)`
    /// takes the same dictionary; each has a typed `TLSSettings` property too.
    static let tlsSettings: [APIMapping] = [
        APIMapping(
            "kCFStreamSSLPeerName", kind: .tlsSetting, swift: "kCFStreamSSLPeerName",
            runLoopSocket: "kCFStreamSSLPeerName",
            queueSocket: .api("TLSSettings.peerName"),
            note: "Host names are verified by default: this name when given, else the host given to connect. "
                + "`NSNull()` (or `TLSSettings.peerName = .none`) turns the check off, as leaving the key out did.",
            scope: .filesUsingV4),
        APIMapping(
            "kCFStreamSSLIsServer", kind: .tlsSetting, swift: "kCFStreamSSLIsServer",
            runLoopSocket: "kCFStreamSSLIsServer",
            queueSocket: .api("TLSSettings(role: .server)"), scope: .filesUsingV4),
        APIMapping(
            "kCFStreamSSLCertificates", kind: .tlsSetting, swift: "kCFStreamSSLCertificates",
            runLoopSocket: "kCFStreamSSLCertificates", queueSocket: .api("TLSSettings.identity"),
            note: "Takes a `TLSSettings.Identity`, or a dictionary with \"certificate\"/\"key\"/\"password\" (PEM) "
                + "or \"pkcs12\"/\"password\", instead of an array of a `SecIdentityRef` and certificates.",
            support: .standIn, scope: .filesUsingV4),
        APIMapping(
            "kCFStreamSSLLevel", kind: .tlsSetting, swift: "kCFStreamSSLLevel", runLoopSocket: "kCFStreamSSLLevel",
            queueSocket: .api("TLSSettings.minimumVersion"),
            note: "Only `kCFStreamSocketSecurityLevelNegotiatedSSL` and `…TLSv1` are accepted, both meaning TLS 1.2 "
                + "or newer.",
            scope: .filesUsingV4),
        APIMapping(
            "kCFStreamSSLAllowsAnyRoot", kind: .tlsSetting, swift: "kCFStreamSSLAllowsAnyRoot",
            runLoopSocket: "kCFStreamSSLAllowsAnyRoot", queueSocket: .api("TLSSettings.allowsAnyRoot"),
            note: MigrationNotes.legacyTLSOption, scope: .filesUsingV4),
        APIMapping(
            "kCFStreamSSLAllowsExpiredRoots", kind: .tlsSetting, swift: "kCFStreamSSLAllowsExpiredRoots",
            runLoopSocket: "kCFStreamSSLAllowsExpiredRoots", queueSocket: .api("TLSSettings.allowsExpiredRoots"),
            note: MigrationNotes.legacyTLSOption, scope: .filesUsingV4),
        APIMapping(
            "kCFStreamSSLAllowsExpiredCertificates", kind: .tlsSetting, swift: "kCFStreamSSLAllowsExpiredCertificates",
            runLoopSocket: "kCFStreamSSLAllowsExpiredCertificates",
            queueSocket: .api("TLSSettings.allowsExpiredCertificates"), note: MigrationNotes.legacyTLSOption,
            scope: .filesUsingV4),
        APIMapping(
            "kCFStreamSSLValidatesCertificateChain", kind: .tlsSetting, swift: "kCFStreamSSLValidatesCertificateChain",
            runLoopSocket: "kCFStreamSSLValidatesCertificateChain",
            queueSocket: .api("TLSSettings.validatesCertificateChain"),
            note: "`false` is honoured, and logged as a warning through the socket's `Logger`.",
            scope: .filesUsingV4),
        APIMapping(
            "kCFStreamSocketSecurityLevelNegotiatedSSL", kind: .tlsSetting,
            swift: "kCFStreamSocketSecurityLevelNegotiatedSSL",
            runLoopSocket: "kCFStreamSocketSecurityLevelNegotiatedSSL",
            queueSocket: .api("TLSSettings.minimumVersion = .tls1_2"), note: "TLS 1.2 or newer.",
            scope: .filesUsingV4, aliases: ["NSStreamSocketSecurityLevelNegotiatedSSL"]),
        APIMapping(
            "kCFStreamSocketSecurityLevelTLSv1", kind: .tlsSetting, swift: "kCFStreamSocketSecurityLevelTLSv1",
            runLoopSocket: "kCFStreamSocketSecurityLevelTLSv1",
            queueSocket: .api("TLSSettings.minimumVersion = .tls1_2"),
            note: "Means TLS 1.2 or newer here: TLS 1.0 and 1.1 are not offered.", scope: .filesUsingV4,
            aliases: ["NSStreamSocketSecurityLevelTLSv1"]),
        APIMapping(
            "kCFStreamSocketSecurityLevelSSLv3", kind: .tlsSetting, swift: "kCFStreamSocketSecurityLevelSSLv3",
            runLoopSocket: "none", queueSocket: .none(instead: "leave the level out (TLS 1.2 or newer)"),
            note: MigrationNotes.oldSecurityLevel, support: .unsupported, scope: .filesUsingV4,
            aliases: ["NSStreamSocketSecurityLevelSSLv3"]),
        APIMapping(
            "kCFStreamSocketSecurityLevelSSLv2", kind: .tlsSetting, swift: "kCFStreamSocketSecurityLevelSSLv2",
            runLoopSocket: "none", queueSocket: .none(instead: "leave the level out (TLS 1.2 or newer)"),
            note: MigrationNotes.oldSecurityLevel, support: .unsupported, scope: .filesUsingV4,
            aliases: ["NSStreamSocketSecurityLevelSSLv2"]),
        APIMapping(
            "kCFStreamSocketSecurityLevelNone", kind: .tlsSetting, swift: "kCFStreamSocketSecurityLevelNone",
            runLoopSocket: "none", queueSocket: .none(instead: "do not call `startTLS`"),
            note: "TLS cannot start without security: the socket closes with error −1 naming `kCFStreamSSLLevel`. "
                + "Leave out the `startTLS` call instead.",
            support: .unsupported, scope: .filesUsingV4, aliases: ["NSStreamSocketSecurityLevelNone"]),
    ]
}
