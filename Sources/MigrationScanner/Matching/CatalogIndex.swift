/// The catalog's spellings by the way they are found: Objective-C selectors, identifiers and
/// headers; Swift calls (spellings with an argument list) and identifiers. Entries that are
/// ``MatchScope/mappingOnly`` in a language are left out of that language's tables.
struct CatalogIndex: Sendable {
    /// An entry found under a spelling, and whether that spelling counts only in files using v4.
    struct Entry: Sendable {
        let mapping: APIMapping
        let needsV4File: Bool
    }

    private(set) var selectors: [String: Entry] = [:]
    private(set) var identifiers: [String: Entry] = [:]
    private(set) var headers: [String: Entry] = [:]
    private(set) var swiftCalls: [String: Entry] = [:]
    private(set) var swiftIdentifiers: [String: Entry] = [:]

    /// The index of `catalog`; where two entries share a spelling, the first wins.
    init(_ catalog: [APIMapping]) {
        for mapping in catalog {
            if mapping.scope != .mappingOnly {
                let entry = Entry(mapping: mapping, needsV4File: mapping.scope == .filesUsingV4)
                for spelling in [mapping.v4] + mapping.aliases {
                    if mapping.kind == .header {
                        headers[spelling] = headers[spelling] ?? entry
                    } else if mapping.kind.isSelector {
                        selectors[spelling] = selectors[spelling] ?? entry
                    } else {
                        identifiers[spelling] = identifiers[spelling] ?? entry
                    }
                }
            }
            if let swift = mapping.swift, mapping.swiftScope != .mappingOnly {
                let entry = Entry(mapping: mapping, needsV4File: mapping.swiftScope == .filesUsingV4)
                if swift.hasSuffix(")") {
                    swiftCalls[swift] = swiftCalls[swift] ?? entry
                } else {
                    swiftIdentifiers[swift] = swiftIdentifiers[swift] ?? entry
                }
            }
        }
    }
}
