/// The migration table: every selector, delegate method, constant, error code and TLS setting of the
/// run-loop `AsyncSocket` ("v4"), and the platform API v4 code used with it, one ``APIMapping`` each.
///
/// This is the one source of truth: ``APIScanner`` matches these spellings, the `migrate-scan`
/// command prints these mappings, and ``MappingMarkdown`` renders the tables of `Migration/README.md`
/// from them. The entries live in one file per kind (`APICatalog+Methods.swift`, …).
public enum APICatalog {
    /// Every entry of the run-loop `AsyncSocket` ("v4") table and the platform API around it, in the
    /// order of the mapping tables.
    public static let entries: [APIMapping] =
        types + methods + delegateMethods + constants + tlsSettings + platform + runLoopCalls
        + coreFoundationNetworking

    /// Every entry the scanner knows: the v4 table, then ``gcdEntries`` and ``udpEntries``.
    public static let allEntries: [APIMapping] = entries + gcdEntries + udpEntries
}
