import Foundation
import FuzzTargets
import Testing

// The committed fuzz corpus (Tests/Fuzz/Corpus), replayed without libFuzzer, plus seeded random inputs:
// every input must run clean. Tests/Fuzz/replay.sh replays the same corpus under libFuzzer and
// AddressSanitizer. FUZZ_RANDOM_CASES runs more random inputs.
@Suite("Fuzz targets: corpus replay and random inputs")
struct FuzzCorpusTests {
    static let corpus = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../Fuzz/Corpus").standardizedFileURL
    static let randomCases = ProcessInfo.processInfo.environment["FUZZ_RANDOM_CASES"].flatMap(Int.init) ?? 2_000

    /// Each target, and how many random inputs it gets (the TLS ones build OpenSSL contexts: slower).
    static let targets = FuzzTarget.allCases.map { ($0, $0 == .engine ? randomCases : randomCases / 8) }

    @Test("the committed corpus runs clean", arguments: FuzzTarget.allCases)
    func corpusReplays(target: FuzzTarget) throws {
        let folder = Self.corpus.appendingPathComponent(target.rawValue)
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
        #expect(!names.isEmpty)
        for name in names {
            let bytes = Array(try Data(contentsOf: folder.appendingPathComponent(name)))
            let problem = bytes.withUnsafeBytes { target.run($0) }
            #expect(problem == nil, "\(name): \(problem ?? "")")
        }
    }

    @Test("seeded random inputs run clean", arguments: targets)
    func randomInputs(target: FuzzTarget, count: Int) {
        var random = SeededGenerator(state: 8_008)
        var failures = 0
        for _ in 0..<count {
            let length = Int.random(in: 0...400, using: &random)
            let bytes = (0..<length).map { _ in UInt8.random(in: 0...255, using: &random) }
            if let problem = bytes.withUnsafeBytes({ target.run($0) }) {
                Issue.record("\(problem)\n  input: \(bytes)")
                failures += 1
                if failures >= 3 { return }
            }
        }
    }
}
