import Foundation

/// What a side-by-side run found: every program's outcome and, for each one that differs from the
/// first (the reference), its first divergence.
public struct SideBySideReport: Sendable, CustomStringConvertible {
    /// The scenario's name.
    public let scenario: String
    /// Each program's outcome, the reference first.
    public let outcomes: [SubjectOutcome]
    /// The first divergence of each program that differs from the reference.
    public let divergences: [Divergence]

    /// Compares every outcome after the first with the first, under `rules`.
    init(scenario: String, comparing outcomes: [SubjectOutcome], rules: EquivalenceRules) {
        self.scenario = scenario
        self.outcomes = outcomes
        divergences = outcomes.dropFirst().compactMap { DivergenceFinder.compare(outcomes[0], $0, rules: rules) }
    }

    /// Whether every program behaved like the reference.
    public var isEquivalent: Bool { divergences.isEmpty }

    /// A readable report: one line per program, then each divergence.
    public var description: String {
        var lines = ["side by side: \(scenario.isEmpty ? "scenario" : scenario)"]
        for (position, outcome) in outcomes.enumerated() {
            let differs = divergences.contains { $0.other == outcome.name }
            let bytes = outcome.peer.map { "\($0.received.count) bytes to the peer" } ?? "no peer"
            lines.append(
                "  \(differs ? "✗" : "✓") \(outcome.name): \(outcome.trace.count) events, \(bytes)"
                    + (position == 0 ? " (reference)" : ""))
        }
        for divergence in divergences {
            lines.append(divergence.description)
        }
        return lines.joined(separator: "\n")
    }
}
