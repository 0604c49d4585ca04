import Foundation

/// The first place where a program's run differs from the reference run, with a readable excerpt.
public struct Divergence: Sendable, CustomStringConvertible {
    /// Where the runs part.
    public enum Kind: Sendable, Equatable {
        /// A run did not finish normally (see ``SubjectOutcome/problems``).
        case unfinished
        /// The peer's script went differently (one completed, the other failed, or they failed
        /// differently).
        case peerScript
        /// The peer received different bytes; `offset` is the first that differs.
        case peerBytes(offset: Int)
        /// A datagram peer received different datagrams; `index` is the first that differs (0-based).
        case peerDatagrams(index: Int)
        /// A compared sequence has a different event at `index` (0-based, after the rules); `sequence`
        /// is a socket's label, or its label and "reads" or "writes".
        case trace(sequence: String, index: Int)
    }

    /// The reference subject's name.
    public let reference: String
    /// The other subject's name.
    public let other: String
    /// Where they part.
    public let kind: Kind
    /// The two sides around the difference, as text (two columns for traces).
    public let excerpt: String

    /// A headline and the excerpt.
    public var description: String {
        let headline: String
        switch kind {
        case .unfinished: headline = "a run did not finish normally"
        case .peerScript: headline = "the peer's script went differently"
        case .peerBytes(let offset): headline = "the peer received different bytes, from byte \(offset)"
        case .peerDatagrams(let index): headline = "the peer received different datagrams, from datagram #\(index)"
        case .trace(let sequence, let index): headline = "\(sequence): first different event at #\(index)"
        }
        return "\(other) differs from \(reference): \(headline)\n\(excerpt)"
    }
}

/// Finds the first divergence between two runs.
enum DivergenceFinder {
    static func compare(_ reference: SubjectOutcome, _ other: SubjectOutcome, rules: EquivalenceRules)
        -> Divergence?
    {
        func divergence(_ kind: Divergence.Kind, _ excerpt: String) -> Divergence {
            Divergence(reference: reference.name, other: other.name, kind: kind, excerpt: excerpt)
        }
        if !reference.problems.isEmpty || !other.problems.isEmpty {
            let lines = [reference, other].flatMap { run in run.problems.map { "  \(run.name): \($0)" } }
            return divergence(.unfinished, lines.joined(separator: "\n"))
        }
        if reference.peer?.failure != other.peer?.failure {
            return divergence(
                .peerScript,
                "  \(reference.name): \(reference.peer?.failure ?? "every step completed")\n"
                    + "  \(other.name): \(other.peer?.failure ?? "every step completed")")
        }
        let leftDatagrams = reference.peer?.datagrams ?? []
        let rightDatagrams = other.peer?.datagrams ?? []
        if leftDatagrams != rightDatagrams {
            let index = firstDifference(leftDatagrams, rightDatagrams)
            let describe = { (datagrams: [Data]) in
                index < datagrams.count ? ByteText.describe(datagrams[index]) : "(none)"
            }
            return divergence(
                .peerDatagrams(index: index),
                "  \(reference.name): \(describe(leftDatagrams))\n  \(other.name): \(describe(rightDatagrams))")
        }
        let left = reference.peer?.received ?? Data()
        let right = other.peer?.received ?? Data()
        if left != right {
            let offset = firstDifference(Array(left), Array(right))
            let start = max(0, offset - 24)
            return divergence(
                .peerBytes(offset: offset),
                "  \(reference.name): …\(ByteText.describe(left.dropFirst(start)))\n"
                    + "  \(other.name): …\(ByteText.describe(right.dropFirst(start)))")
        }
        var traceRules = rules
        if !reference.recordsTags || !other.recordsTags {
            traceRules.comparesTags = false
        }
        return traceDivergence(reference, other, rules: traceRules).map { divergence($0.kind, $0.excerpt) }
    }

    /// The difference that comes first in the reference run (by its place in the whole trace)
    /// among the compared sequences that differ.
    private static func traceDivergence(_ reference: SubjectOutcome, _ other: SubjectOutcome, rules: EquivalenceRules)
        -> (kind: Divergence.Kind, excerpt: String)?
    {
        let left = rules.sequences(reference.trace)
        let right = rules.sequences(other.trace)
        let names = left.map(\.name) + right.map(\.name).filter { name in !left.contains { $0.name == name } }
        var first: (position: Int, kind: Divergence.Kind, excerpt: String)?
        for name in names {
            let leftEvents = left.first { $0.name == name }?.events ?? []
            let rightEvents = right.first { $0.name == name }?.events ?? []
            let index = firstDifference(leftEvents.map(\.event), rightEvents.map(\.event))
            guard index < max(leftEvents.count, rightEvents.count) else { continue }
            let position = index < leftEvents.count ? leftEvents[index].position : Int.max - 1
            guard position < first?.position ?? Int.max else { continue }
            let excerpt = TwoColumns.render(
                titles: (reference.name, other.name), left: leftEvents.map(\.event.description),
                right: rightEvents.map(\.event.description), around: index)
            first = (position, .trace(sequence: name, index: index), excerpt)
        }
        return first.map { ($0.kind, $0.excerpt) }
    }

    /// The first index where `left` and `right` differ (the shorter one's count if one is a prefix).
    private static func firstDifference<Element: Equatable>(_ left: [Element], _ right: [Element]) -> Int {
        zip(left.indices, zip(left, right)).first { $0.1.0 != $0.1.1 }?.0 ?? min(left.count, right.count)
    }
}
