import AsyncSocketCore

// The TLS types of the public API are defined next to the TLS engine that consumes them (in the
// package's internal module); these names make them part of AsyncSocketKit, so `import
// AsyncSocketKit` is all a user writes, and nothing else of that module is visible.

/// The typed TLS settings for `startTLS` on either socket: role, peer name, trust, identity,
/// versions, ALPN (see `TLSSettings(legacyDictionary:)` for the original's dictionary).
public typealias TLSSettings = AsyncSocketCore.TLSSettings

/// A TLS failure (domain `kCFStreamErrorDomainSSL`, SecureTransport-style codes, OpenSSL's reason).
public typealias TLSError = AsyncSocketCore.TLSError

/// A legacy TLS settings dictionary that cannot be applied: which key, what was expected, what was found.
public typealias TLSSettingsError = AsyncSocketCore.TLSSettingsError

/// The peer's certificate chain as seen during manual trust evaluation.
public typealias CertificateChain = AsyncSocketCore.CertificateChain
