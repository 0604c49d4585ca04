// The original's TLS setting keys under their original names, so ported `startTLS` dictionaries
// read as before (`[kCFStreamSSLPeerName: "host"]`). CoreFoundation does not exist here; these are
// plain strings, understood by `TLSSettings(legacyDictionary:)`.

/// `kCFStreamSSLPeerName`: the name to verify the peer against; `NSNull()` or "" turns the check off.
public let kCFStreamSSLPeerName = TLSSettings.LegacyKey.peerName.rawValue
/// `kCFStreamSSLIsServer`: `true` for the server side of the handshake.
public let kCFStreamSSLIsServer = TLSSettings.LegacyKey.isServer.rawValue
/// `kCFStreamSSLCertificates`: `[TLSSettings.Identity]` or `[["certificate": …, "key": …]]`.
public let kCFStreamSSLCertificates = TLSSettings.LegacyKey.certificates.rawValue
/// `kCFStreamSSLLevel`: a `kCFStreamSocketSecurityLevel…` value.
public let kCFStreamSSLLevel = TLSSettings.LegacyKey.level.rawValue
/// `kCFStreamSSLAllowsAnyRoot`: trust any root (logged as a warning).
public let kCFStreamSSLAllowsAnyRoot = TLSSettings.LegacyKey.allowsAnyRoot.rawValue
/// `kCFStreamSSLAllowsExpiredRoots`: accept expired roots (logged as a warning).
public let kCFStreamSSLAllowsExpiredRoots = TLSSettings.LegacyKey.allowsExpiredRoots.rawValue
/// `kCFStreamSSLAllowsExpiredCertificates`: accept expired certificates (logged as a warning).
public let kCFStreamSSLAllowsExpiredCertificates = TLSSettings.LegacyKey.allowsExpiredCertificates.rawValue
/// `kCFStreamSSLValidatesCertificateChain`: `false` skips chain validation (logged as a warning).
public let kCFStreamSSLValidatesCertificateChain = TLSSettings.LegacyKey.validatesCertificateChain.rawValue
/// `kCFStreamSocketSecurityLevelNegotiatedSSL`: the default security level.
public let kCFStreamSocketSecurityLevelNegotiatedSSL = "kCFStreamSocketSecurityLevelNegotiatedSSL"
/// `kCFStreamSocketSecurityLevelTLSv1`.
public let kCFStreamSocketSecurityLevelTLSv1 = "kCFStreamSocketSecurityLevelTLSv1"
/// `GCDAsyncSocketManuallyEvaluateTrust`: ask the delegate about the peer's certificates.
// swift-format-ignore: AlwaysUseLowerCamelCase
public let GCDAsyncSocketManuallyEvaluateTrust = TLSSettings.LegacyKey.manuallyEvaluateTrust.rawValue
/// `GCDAsyncSocketSSLProtocolVersionMin`: 8 (TLS 1.2) or 10 (TLS 1.3).
// swift-format-ignore: AlwaysUseLowerCamelCase
public let GCDAsyncSocketSSLProtocolVersionMin = TLSSettings.LegacyKey.protocolVersionMin.rawValue
/// `GCDAsyncSocketSSLProtocolVersionMax`: 8 (TLS 1.2) or 10 (TLS 1.3).
// swift-format-ignore: AlwaysUseLowerCamelCase
public let GCDAsyncSocketSSLProtocolVersionMax = TLSSettings.LegacyKey.protocolVersionMax.rawValue
/// `GCDAsyncSocketSSLALPN`: the protocols to offer or accept.
// swift-format-ignore: AlwaysUseLowerCamelCase
public let GCDAsyncSocketSSLALPN = TLSSettings.LegacyKey.alpn.rawValue
/// `GCDAsyncSocketSSLCipherSuites`: OpenSSL cipher names.
// swift-format-ignore: AlwaysUseLowerCamelCase
public let GCDAsyncSocketSSLCipherSuites = TLSSettings.LegacyKey.cipherSuites.rawValue
/// `AsyncSocketTLSTrustRoots` (an AsyncSocketKit key, not one of the original's): the private CA to
/// trust besides the system store, as a PEM file path or an array of paths, for code that passes
/// only dictionaries to `startTLS` (the typed form is `TLSSettings.trustRoots`).
// swift-format-ignore: AlwaysUseLowerCamelCase
public let AsyncSocketTLSTrustRoots = TLSSettings.LegacyKey.trustRoots.rawValue
