import AsyncSocketCore
import Testing

@Suite("Rules: what the peer's end leads to, on both semantics")
struct EndOfStreamRuleTests {
    struct Row: CustomTestStringConvertible, Sendable {
        let semantics: Semantics
        let facts: EndOfStreamFacts
        let expected: EndOfStreamStep
        let why: String
        var testDescription: String { "\(semantics): \(why) → \(expected)" }
    }

    static let rows: [Row] = [
        Row(
            semantics: .legacy, facts: .init(readWaiting: true, inputRemains: true, prebuffered: true),
            expected: .finishWaitingRead, why: "a waiting read takes the bytes read ahead first"),
        Row(
            semantics: .legacy, facts: .init(readWaiting: true, inputRemains: true, prebuffered: false),
            expected: .finishWaitingRead, why: "the end was noticed before the transport was read up to it"),
        Row(
            semantics: .legacy, facts: .init(readWaiting: true, inputRemains: false, prebuffered: false),
            expected: .close, why: "a waiting read can take nothing more"),
        Row(
            semantics: .legacy, facts: .init(readWaiting: false, inputRemains: true, prebuffered: true),
            expected: .close, why: "no read waits: read-ahead bytes become unreadData"),
        Row(
            semantics: .legacy,
            facts: .init(readWaiting: false, inputRemains: true, prebuffered: true, callbacksInFlight: true),
            expected: .confirmAfterCallbacks, why: "a callback still travelling may queue a read"),
        Row(
            semantics: .legacy,
            facts: .init(readWaiting: true, inputRemains: false, prebuffered: false, callbacksInFlight: true),
            expected: .close, why: "a waiting read that can take nothing more closes even with callbacks in flight"),
        Row(
            semantics: .gcd, facts: .init(readWaiting: true, inputRemains: true, prebuffered: true),
            expected: .finishWaitingRead, why: "a waiting read takes the bytes read ahead"),
        Row(
            semantics: .gcd, facts: .init(readWaiting: false, inputRemains: true, prebuffered: true),
            expected: .holdForReads, why: "read-ahead bytes wait for reads"),
        Row(
            semantics: .gcd, facts: .init(readWaiting: true, inputRemains: false, prebuffered: false),
            expected: .close, why: "nothing left, auto-disconnect on"),
        Row(
            semantics: .gcd,
            facts: .init(readWaiting: false, inputRemains: false, prebuffered: false, autoDisconnect: false),
            expected: .reportReadStreamClosed, why: "auto-disconnect off: the closed read stream is reported"),
        Row(
            semantics: .gcd,
            facts: .init(
                readWaiting: true, inputRemains: false, prebuffered: false, autoDisconnect: false,
                readStreamReported: true),
            expected: .nothing, why: "the closed read stream is reported once"),
        Row(
            semantics: .gcd,
            facts: .init(readWaiting: false, inputRemains: true, prebuffered: true, autoDisconnect: false),
            expected: .holdForReads, why: "auto-disconnect off still keeps read-ahead bytes for reads first"),
    ]

    @Test("the originals' cases", arguments: rows)
    func row(_ row: Row) {
        #expect(EndOfStreamRule.step(row.semantics, row.facts) == row.expected)
    }

    /// Every combination of the facts (64 per semantics).
    static var everyFacts: [EndOfStreamFacts] {
        (0..<64).map { bits in
            func bit(_ n: Int) -> Bool { bits & (1 << n) != 0 }
            return EndOfStreamFacts(
                readWaiting: bit(0), inputRemains: bit(1) || bit(2), prebuffered: bit(2), callbacksInFlight: bit(3),
                autoDisconnect: bit(4), readStreamReported: bit(5))
        }
    }

    @Test("legacy never keeps the socket open after the end without a read to finish")
    func legacyAlwaysEnds() {
        for facts in Self.everyFacts {
            let step = EndOfStreamRule.step(.legacy, facts)
            #expect([.finishWaitingRead, .close, .confirmAfterCallbacks].contains(step), "\(facts)")
            #expect(step != .finishWaitingRead || facts.readWaiting, "\(facts)")
            #expect(step != .confirmAfterCallbacks || (!facts.readWaiting && facts.callbacksInFlight), "\(facts)")
            var gcdOptions = facts
            gcdOptions.autoDisconnect.toggle()
            gcdOptions.readStreamReported.toggle()
            #expect(EndOfStreamRule.step(.legacy, gcdOptions) == step, "GCD options change nothing: \(facts)")
        }
    }

    @Test("GCD never closes while read-ahead bytes remain, and never waits for callbacks")
    func gcdKeepsBytes() {
        for facts in Self.everyFacts {
            let step = EndOfStreamRule.step(.gcd, facts)
            #expect(step != .confirmAfterCallbacks, "\(facts)")
            if facts.prebuffered {
                #expect(step == (facts.readWaiting ? .finishWaitingRead : .holdForReads), "\(facts)")
            } else {
                #expect(step != .finishWaitingRead && step != .holdForReads, "\(facts)")
                #expect((step == .close) == facts.autoDisconnect, "\(facts)")
            }
            var other = facts
            other.callbacksInFlight.toggle()
            #expect(EndOfStreamRule.step(.gcd, other) == step, "callbacks in flight change nothing: \(facts)")
        }
    }
}
