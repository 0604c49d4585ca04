// A delegate method that nearly matches a requirement is a silent bug in Swift: the protocol's
// extension supplies a default for every requirement, so a method with a wrong label
// (`didReadData:` for `didRead:`), a wrong type or a missing return type satisfies nothing, compiles,
// and is never called. In Objective-C a misspelt delegate selector is never called either. The
// checks compare names and labels by edit distance over the requirement lists in the catalog.

/// Finds delegate methods that nearly match a delegate requirement, and says what to write instead.
enum DelegateNearMiss {
    /// A Swift method declaration, as the matcher read it.
    struct Declaration {
        let name: String
        let labels: [String]
        let types: [String]
        let returnType: String?
        let line: Int
        let column: Int

        var spelling: String { name + "(" + labels.map { $0 + ":" }.joined() + ")" }
    }

    /// The requirement `declaration` nearly matches among those of `protocols`, as a finding; `nil` for
    /// an exact match or for a method that is not near any requirement.
    static func swift(_ declaration: Declaration, protocols: Set<String>) -> APIMapping? {
        let requirements = APICatalog.delegateRequirements.filter { protocols.contains($0.protocolName) }
        if requirements.contains(where: { differences(declaration, $0) == [] }) { return nil }
        var best: (requirement: DelegateRequirement, score: Int, differences: [String])?
        for requirement in requirements {
            guard let (score, found) = compare(declaration, requirement), !found.isEmpty else { continue }
            if best == nil || score < best!.score { best = (requirement, score, found) }
        }
        guard let best else { return nil }
        let requirement = best.requirement
        return APIMapping(
            declaration.spelling, kind: .delegateNearMiss, swift: declaration.spelling,
            runLoopSocket: requirement.signature, queueSocket: .none(instead: "declare it as " + requirement.signature),
            note: "nearly matches \(requirement.protocolName)'s `\(requirement.spelling)` ("
                + best.differences.joined(separator: "; ") + "): Swift will silently call the protocol extension's "
                + "default instead. Declare it exactly as `\(requirement.signature)`.",
            scope: .anywhere, api: requirement.protocolName == "QueueSocketDelegate" ? .gcdAsyncSocket : .asyncSocket)
    }

    /// A score (lower is nearer) and the differences, or `nil` when `declaration` is not near `requirement`.
    private static func compare(_ declaration: Declaration, _ requirement: DelegateRequirement) -> (Int, [String])? {
        guard declaration.labels.count == requirement.labels.count else { return nil }
        let nameDistance = editDistance(declaration.name.lowercased(), requirement.name.lowercased())
        guard nameDistance <= 2 else { return nil }
        var score = nameDistance
        for (label, wanted) in zip(declaration.labels, requirement.labels) where label != wanted {
            guard let distance = labelDistance(label, wanted) else { return nil }
            score += distance
        }
        let found = differences(declaration, requirement)
        return (score + found.count, found)
    }

    /// What differs between `declaration` and `requirement`, in words; empty for an exact match.
    private static func differences(_ declaration: Declaration, _ requirement: DelegateRequirement) -> [String] {
        guard declaration.labels.count == requirement.labels.count else { return ["a different number of parameters"] }
        var found: [String] = []
        if declaration.name != requirement.name {
            found.append("the name `\(declaration.name)` should be `\(requirement.name)`")
        }
        for (position, (label, wanted)) in zip(declaration.labels, requirement.labels).enumerated()
        where label != wanted {
            found.append(
                position == 0 && wanted == "_"
                    ? "the first parameter needs no label: `_ \(label)`"
                    : "the label `\(label)` should be `\(wanted)`")
        }
        for (type, wanted) in zip(declaration.types, requirement.types) where normalized(type) != normalized(wanted) {
            found.append("the type `\(type)` should be `\(wanted)`")
        }
        if normalized(declaration.returnType ?? "Void") != normalized(requirement.returnType ?? "Void") {
            if let wanted = requirement.returnType {
                found.append(
                    declaration.returnType.map { "the return type `\($0)` should be `\(wanted)`" }
                        ?? "it must return `\(wanted)`")
            } else {
                found.append("it must not return a value")
            }
        }
        return found
    }

    /// How far apart two labels are: 1 for `_` against a name or one label inside the other
    /// (`didReadData` for `didRead`), else their edit distance; `nil` when they are unrelated.
    private static func labelDistance(_ label: String, _ wanted: String) -> Int? {
        if label == "_" || wanted == "_" { return 1 }
        let a = label.lowercased()
        let b = wanted.lowercased()
        if a.hasPrefix(b) || b.hasPrefix(a) || a.hasSuffix(b) || b.hasSuffix(a) { return 1 }
        let distance = editDistance(a, b)
        return distance <= 3 ? distance : nil
    }

    /// A type as Swift compares it, roughly: no spaces, no `any`, no module prefixes, no
    /// `@escaping`/`@Sendable`, `TimeInterval` as `Double`, `T!` as `T?`, `(T)?` as `T?`.
    static func normalized(_ type: String) -> String {
        var text = type
        for attribute in ["@escaping", "@Sendable"] { text = text.replacingOccurrences(of: attribute, with: "") }
        text = text.split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == "\t" }).filter { $0 != "any" }
            .joined(separator: " ")
        text = text.replacingOccurrences(of: "any ", with: "").replacingOccurrences(of: " ", with: "")
        for module in ["Swift.", "Foundation.", "Dispatch.", "AsyncSocketKit."] {
            text = text.replacingOccurrences(of: module, with: "")
        }
        text = text.replacingOccurrences(of: "TimeInterval", with: "Double").replacingOccurrences(of: "!", with: "?")
        if text.hasPrefix("("), text.hasSuffix(")?"),
            !text.dropFirst().dropLast(2).contains(where: { "(),".contains($0) })
        {
            text = String(text.dropFirst().dropLast(2)) + "?"
        }
        return text
    }

    /// An Objective-C method declared like a delegate method (`onSocket:…`, `socket:…`,
    /// `onSocketDid…:`, `socketDid…:`) whose selector no AsyncSocket or GCDAsyncSocket delegate method
    /// has, as a finding naming the nearest one; `nil` for any other method.
    static func objectiveC(_ selector: String, delegateSelectors: [CatalogIndex.Entry]) -> APIMapping? {
        let parts = selector.split(separator: ":")
        guard selector.hasSuffix(":"), let first = parts.first else { return nil }
        let looksLikeDelegate =
            first == "onSocket" || first == "socket"
            || (parts.count == 1
                && ["onSocketDid", "onSocketWill", "socketDid"].contains { first.hasPrefix($0) })
        guard looksLikeDelegate else { return nil }
        // `onSocket…` names are AsyncSocket's, `socket…` names GCDAsyncSocket's.
        let family: LegacyAPI = first.hasPrefix("onSocket") ? .asyncSocket : .gcdAsyncSocket
        let socketDelegates = delegateSelectors.map(\.mapping).filter { $0.api == family }
        // The first part weighs most: `socketDidDisconnect:` means `socketDidDisconnect:withError:`.
        func distance(_ mapping: APIMapping) -> Int {
            let wantedFirst = mapping.v4.split(separator: ":").first.map(String.init) ?? mapping.v4
            return 4 * editDistance(String(first), wantedFirst) + editDistance(selector, mapping.v4)
        }
        guard let nearest = socketDelegates.min(by: { distance($0) < distance($1) }) else { return nil }
        let swift = nearest.api == .gcdAsyncSocket ? nearest.queueSocket.spelling : nearest.runLoopSocket
        let owner = nearest.api == .gcdAsyncSocket ? "GCDAsyncSocketDelegate" : "AsyncSocketDelegate"
        return APIMapping(
            selector, kind: .delegateNearMiss, swift: nil, runLoopSocket: nearest.v4,
            queueSocket: nearest.queueSocket,
            note: "matches no AsyncSocket or GCDAsyncSocket delegate method, so it is never called; the nearest is "
                + "\(owner)'s `\(nearest.v4)`" + (swift.map { " (`\($0)` in Swift)" } ?? "") + ".",
            scope: .anywhere, api: nearest.api)
    }

    /// The Levenshtein distance between `a` and `b`, by bytes.
    static func editDistance(_ a: String, _ b: String) -> Int {
        let a = Array(a.utf8)
        let b = Array(b.utf8)
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var row = Array(0...b.count)
        for i in 1...a.count {
            var diagonal = row[0]
            row[0] = i
            for j in 1...b.count {
                let above = row[j]
                row[j] = min(row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0 : 1))
                diagonal = above
            }
        }
        return row[b.count]
    }
}
