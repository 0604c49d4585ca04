/// The catalog's spellings by the way they are found: Objective-C selectors, identifiers and
/// headers; Swift calls (spellings with an argument list) and identifiers. One spelling may belong to
/// several classes (`localPort` of `AsyncSocket`, `GCDAsyncSocket` and both UDP classes): each
/// spelling keeps every entry, in catalog order, and the scanner picks one by the receiver or the
/// file (see ``MatchCandidate``). Entries that are ``MatchScope/mappingOnly`` in a language are left
/// out of that language's tables.
struct CatalogIndex: Sendable {
    /// An entry found under a spelling, and where that spelling counts in its language.
    struct Entry: Sendable {
        let mapping: APIMapping
        let scope: MatchScope

        /// Whether the spelling counts only in a file that uses a legacy socket class unmistakably.
        var needsLegacyFile: Bool { scope == .filesUsingV4 }
    }

    private(set) var selectors: [String: [Entry]] = [:]
    private(set) var identifiers: [String: [Entry]] = [:]
    private(set) var headers: [String: [Entry]] = [:]
    private(set) var swiftCalls: [String: [Entry]] = [:]
    private(set) var swiftIdentifiers: [String: [Entry]] = [:]
    /// Swift calls by their spelling without the last label, for a call whose last argument is a
    /// trailing closure (`Timer.scheduledTimer(withTimeInterval: 5, repeats: true) { … }`).
    private(set) var swiftTrailingClosureCalls: [String: [Entry]] = [:]
    /// Every delegate-method selector, for the near-miss check of Objective-C declarations.
    private(set) var delegateSelectors: [Entry] = []

    /// The index of `catalog`.
    init(_ catalog: [APIMapping]) {
        for mapping in catalog {
            if mapping.scope != .mappingOnly {
                let entry = Entry(mapping: mapping, scope: mapping.scope)
                for spelling in [mapping.v4] + mapping.aliases {
                    if mapping.kind == .header {
                        headers[spelling, default: []].append(entry)
                    } else if mapping.kind.isSelector {
                        selectors[spelling, default: []].append(entry)
                    } else {
                        identifiers[spelling, default: []].append(entry)
                    }
                }
            }
            if mapping.kind == .delegateMethod {
                delegateSelectors.append(Entry(mapping: mapping, scope: mapping.scope))
            }
            if let swift = mapping.swift, mapping.swiftScope != .mappingOnly {
                let entry = Entry(mapping: mapping, scope: mapping.swiftScope)
                if swift.hasSuffix(")") {
                    swiftCalls[swift, default: []].append(entry)
                    if let open = swift.firstIndex(of: "("), swift.hasSuffix(":)") {
                        var labels = swift[swift.index(after: open)..<swift.index(before: swift.endIndex)]
                            .split(separator: ":").map(String.init)
                        labels.removeLast()
                        let shorter = swift[..<open] + "(" + labels.map { $0 + ":" }.joined() + ")"
                        swiftTrailingClosureCalls[String(shorter), default: []].append(entry)
                    }
                } else {
                    swiftIdentifiers[swift, default: []].append(entry)
                }
            }
        }
    }
}
