/// A spelling a matcher found, before the scanner picks which of its entries it is and drops the ones
/// that count only in files using a legacy socket class (``CatalogIndex/Entry/needsLegacyFile``).
struct MatchCandidate {
    /// The catalog entries with this spelling, in catalog order.
    let options: [CatalogIndex.Entry]
    /// The spelling as found (a selector, a Swift call, an identifier or a header name).
    let found: String
    /// Its 1-based line.
    let line: Int
    /// Its 1-based column, in bytes.
    let column: Int
    /// The class of the receiver, when the matcher knows it (`[udp localPort]` on an
    /// `AsyncUdpSocket *udp`, `[[AsyncSocket alloc] init]`, `RunLoop.current.run()`).
    var receiver: LegacyAPI? = nil
}

/// A finding made up by a matcher rather than taken from the catalog (a delegate near-miss).
struct MadeUpFinding {
    let mapping: APIMapping
    let found: String
    let line: Int
    let column: Int
}

/// Picks each candidate's entry: the receiver's class when it is known; otherwise the one entry, or
/// among several the first whose class the file uses unmistakably (else the first). Then keeps what
/// counts: ``MatchScope/anywhere`` and known-receiver entries always, the others only in files using a
/// legacy socket class (the class of the entry itself, for a socket class's member).
enum CandidateResolver {
    static func resolve(_ candidates: [MatchCandidate]) -> [(MatchCandidate, APIMapping)] {
        // The classes the file uses unmistakably: first from spellings only one class has, then from
        // spellings several have where only one class counts it anywhere, when nothing else says
        // (`moveToRunLoop:` is proof of AsyncSocket unless the file already shows another class).
        var used = Set<LegacyAPI>()
        var undecided: [MatchCandidate] = []
        for candidate in candidates {
            if let entry = choose(candidate, used: nil) {
                // A member called on a receiver known to be the class is as unmistakable as its name.
                if isEvidence(entry) || (candidate.receiver == entry.mapping.api && entry.mapping.api.isSocketClass) {
                    used.insert(entry.mapping.api)
                }
            } else {
                undecided.append(candidate)
            }
        }
        var more = Set<LegacyAPI>()
        for candidate in undecided where used.isEmpty {
            let anywhere = candidate.options.filter { $0.scope == .anywhere && isEvidence($0) }
            if Set(anywhere.map(\.mapping.api)).count == 1, let entry = anywhere.first {
                more.insert(entry.mapping.api)
            }
        }
        used.formUnion(more)
        var result: [(MatchCandidate, APIMapping)] = []
        for candidate in candidates {
            guard let entry = choose(candidate, used: used) else { continue }
            if entry.scope == .filesUsingV4 || (entry.scope == .knownReceiver && !entry.mapping.api.isSocketClass) {
                let api = entry.mapping.api
                guard api.isSocketClass ? used.contains(api) : !used.isEmpty else { continue }
            }
            result.append((candidate, entry.mapping))
        }
        return result
    }

    /// Whether a use of `entry` shows that the file uses its socket class.
    private static func isEvidence(_ entry: CatalogIndex.Entry) -> Bool {
        entry.scope != .filesUsingV4 && entry.mapping.api.isSocketClass && entry.mapping.kind.isAsyncSocketAPI
    }

    /// The entry `candidate` is; `used` `nil` leaves a choice among several classes open.
    private static func choose(_ candidate: MatchCandidate, used: Set<LegacyAPI>?) -> CatalogIndex.Entry? {
        if let receiver = candidate.receiver {
            if let own = candidate.options.first(where: { $0.mapping.api == receiver }) { return own }
            // A member the receiver's class lacks may still be Foundation's (`performSelector:…`).
            return candidate.options.first { !$0.mapping.api.isSocketClass && $0.scope != .knownReceiver }
        }
        let open = candidate.options.filter { $0.scope != .knownReceiver }
        let classes = Set(open.map(\.mapping.api))
        if classes.count <= 1 { return open.first }
        guard let used else { return nil }
        return open.first { used.contains($0.mapping.api) } ?? open.first { $0.scope == .anywhere } ?? open.first
    }
}
