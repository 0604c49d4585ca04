import AsyncSocketCore
import EngineTestSupport
import Foundation
import SocketTestSupport
import Testing

// Random sequences of queued reads (every kind, with and without prebuffering, random maxLength and
// caller buffers) against random chunkings of random input, checked against a simple reference
// model that consumes the input in order. Every case is reproducible from its seed, printed on
// failure. ENGINE_PROPERTY_CASES and ENGINE_PROPERTY_SEED run more cases or another seed.
@Suite("Engine: property test against a reference model")
struct EnginePropertyTests {
    static let caseCount = ProcessInfo.processInfo.environment["ENGINE_PROPERTY_CASES"].flatMap(Int.init) ?? 100_000
    static let baseSeed = ProcessInfo.processInfo.environment["ENGINE_PROPERTY_SEED"].flatMap(UInt64.init) ?? 20_261_121

    @Test("random reads x random chunkings give the model's results; every byte delivered exactly once")
    func randomCases() {
        var failures = 0
        for index in 0..<Self.caseCount {
            let seed = Self.baseSeed &+ UInt64(index) &* 0x9E37_79B9_7F4A_7C15
            if let problem = PropertyCase(seed: seed).run() {
                Issue.record("case seed \(seed): \(problem)")
                failures += 1
                if failures >= 3 { return }
            }
        }
    }
}

/// SplitMix64: small, fast, and the same on every machine.
struct SeededGenerator: RandomNumberGenerator {
    var state: UInt64

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

struct PropertyCase {
    enum Step {
        case queue(Int)
        case feed([UInt8])
    }

    let prebuffering: Bool
    let semantics: Semantics
    let readChunk: Int
    let reads: [PlannedRead]
    let steps: [Step]
    let input: [UInt8]

    init(seed: UInt64) {
        var random = SeededGenerator(state: seed)
        prebuffering = Bool.random(using: &random)
        semantics = Bool.random(using: &random) ? .legacy : .gcd
        readChunk = [1, 2, 3, 7, 64, 4096, 65_536].randomElement(using: &random)!
        let large = Int.random(in: 0..<200, using: &random) == 0
        let inputLength = large ? Int.random(in: 0...100_000, using: &random) : Int.random(in: 0...160, using: &random)
        let alphabet = bytes("ab#\r\n")
        input = (0..<inputLength).map { _ in alphabet.randomElement(using: &random)! }
        let separators = [bytes("\n"), bytes("\r\n"), bytes("#a"), bytes("ab#")]
        var reads: [PlannedRead] = []
        for _ in 0..<Int.random(in: 1...6, using: &random) {
            let kind: ReadKind
            switch Int.random(in: 0..<3, using: &random) {
            case 0:
                kind = .available(maxLength: Bool.random(using: &random) ? 0 : Int.random(in: 1...50, using: &random))
            case 1:
                kind = .length(Int.random(in: 1...(large ? 40_000 : 60), using: &random))
            default:
                let separator = separators.randomElement(using: &random)!
                let maxLength =
                    Bool.random(using: &random) ? 0 : Int.random(in: separator.count...80, using: &random)
                kind = .separator(separator, maxLength: maxLength)
            }
            var original: [UInt8]?
            var offset = 0
            if Int.random(in: 0..<10, using: &random) < 3 {
                let bytes = (0..<Int.random(in: 0...20, using: &random)).map { _ in
                    UInt8.random(in: 65...90, using: &random)
                }
                original = bytes
                offset = Int.random(in: 0...bytes.count, using: &random)
            }
            reads.append(PlannedRead(kind: kind, bufferOriginal: original, offset: offset))
        }
        self.reads = reads
        var steps: [Step] = []
        var position = 0
        var queued = 0
        let maxChunk = large ? 65_536 : 40
        while position < input.count || queued < reads.count {
            let queueNow = queued < reads.count && (position == input.count || Bool.random(using: &random))
            if queueNow {
                steps.append(.queue(queued))
                queued += 1
            } else {
                let size = min(input.count - position, Int.random(in: 1...maxChunk, using: &random))
                steps.append(.feed(Array(input[position..<position + size])))
                position += size
            }
        }
        self.steps = steps
    }

    /// Runs the case; returns a description of the first disagreement, or `nil`.
    func run() -> String? {
        let harness = EngineHarness(semantics: semantics, prebuffering: prebuffering, readChunk: readChunk)
        var model = ReferenceModel()
        for step in steps {
            switch step {
            case .queue(let index):
                let read = reads[index]
                if let rejection = harness.read(read.kind, buffer: read.buffer, offset: read.offset, tag: index) {
                    return "read \(index) was rejected: \(rejection)"
                }
                model.queue(read.kind)
            case .feed(let chunk):
                harness.feed(chunk)
                model.feed(chunk)
            }
            harness.runPasses()
            model.advance()
            if harness.isClosed || model.closeReason != nil {
                break
            }
        }
        if !harness.isClosed && model.closeReason == nil {
            harness.peerCloses()
            harness.runPasses()
            model.endInput(.endOfStream)
            model.advance()
            model.noticeEndWithoutRead(semantics)
        }
        return compare(harness, model).map { problem in
            let script = steps.map { step -> String in
                switch step {
                case .queue(let index): return "read\(index)=\(reads[index].kind)@\(reads[index].offset)"
                case .feed(let chunk): return String(decoding: chunk, as: UTF8.self).debugDescription
                }
            }
            return "\(problem)\n  \(semantics) prebuffering=\(prebuffering) readChunk=\(readChunk)\n  script: "
                + script.joined(separator: " ") + "\n  events: \(harness.events)"
        }
    }

    private func compare(_ harness: EngineHarness, _ model: ReferenceModel) -> String? {
        let completed = harness.events.compactMap { event -> ([UInt8], Int)? in
            if case .read(let data, let tag) = event { return (data, tag) }
            return nil
        }
        guard completed.map(\.1) == Array(0..<completed.count) else {
            return "completions out of order: \(completed.map(\.1))"
        }
        guard completed.map(\.0) == model.completed else {
            return "completed \(completed.map { $0.0.count }) bytes, model \(model.completed.map(\.count))"
        }
        let closes = harness.events.compactMap { event -> EngineHarness.CloseReason? in
            if case .closed(let reason) = event { return reason }
            return nil
        }
        guard closes == model.closeReason.map({ [.failure($0)] }) ?? [] else {
            return "closes \(closes), model \(String(describing: model.closeReason))"
        }
        // Every byte exactly once, in order: in reads, then unread data (or still buffered).
        var accounted = completed.flatMap(\.0)
        if let unread = harness.unreadAtClose {
            accounted += unread
        } else {
            accounted += Array(harness.engine.collectUnreadData(from: harness.transport))
        }
        guard accounted == model.fed else {
            return "bytes delivered + unread (\(accounted.count)) differ from the input (\(model.fed.count))"
        }
        for (tag, read) in reads.enumerated() {
            let partials = harness.events.reduce(0) { sum, event in
                if case .partialRead(let count, tag) = event { return sum + count }
                return sum
            }
            if case .available = read.kind, partials > 0 {
                return "read-any \(tag) reported partial progress"
            }
            if tag < completed.count {
                let total = completed[tag].0.count
                if total > 0 && partials >= total {
                    return "read \(tag): partial reports \(partials) ≥ its \(total) bytes"
                }
                if let problem = read.bufferProblem(completedWith: completed[tag].0, tag: tag) {
                    return problem
                }
            } else if tag == completed.count, model.closeReason != nil, partials != model.failedReadBytes {
                return "failed read \(tag): partial reports \(partials), bytes taken \(model.failedReadBytes)"
            }
        }
        return nil
    }
}
