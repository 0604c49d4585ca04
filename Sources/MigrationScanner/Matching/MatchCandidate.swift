/// A spelling a matcher found, before the scanner drops the ones that count only in files using the
/// v4 API (``CatalogIndex/Entry/needsV4File``).
struct MatchCandidate {
    /// The catalog entry.
    let entry: CatalogIndex.Entry
    /// The spelling as found (a selector, a Swift call, an identifier or a header name).
    let found: String
    /// Its 1-based line.
    let line: Int
    /// Its 1-based column, in bytes.
    let column: Int
}
