// The engine's public types that the sockets' API uses (TLSSettings, TLSError, CertificateChain…)
// come with `import AsyncSocketKit`.
@_exported import AsyncSocketCore
