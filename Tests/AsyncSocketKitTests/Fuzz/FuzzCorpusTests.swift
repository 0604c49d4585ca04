import Foundation
import FuzzTargets
import Testing

// The committed fuzz corpus (Fuzz/Corpus), replayed without libFuzzer, plus seeded random inputs:
// every input must run clean. Fuzz/replay.sh replays the same corpus under libFuzzer and
// AddressSanitizer. FUZZ_RANDOM_CASES runs more random inputs.
@Suite("Fuzz targets: corpus replay and random inputs")
struct FuzzCorpusTests {
    static let corpus = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../../Fuzz/Corpus").standardizedFileURL
    static let randomCases = ProcessInfo.processInfo.environment["FUZZ_RANDOM_CASES"].flatMap(Int.init) ?? 2_000

    /// The corpus folder of each target, and how many random inputs it gets.
    static let targets = [("engine", randomCases), ("tls-settings", randomCases / 4)]

    /// What target `name` finds wrong with `bytes`, or `nil`.
    static func problem(_ name: String, _ bytes: [UInt8]) -> String? {
        bytes.withUnsafeBytes { input in
            name == "engine" ? EngineFuzzCase(input).run() : TLSSettingsFuzzCase(input).run()
        }
    }

    @Test("the committed corpus runs clean", arguments: targets.map(\.0))
    func corpusReplays(target: String) throws {
        let folder = Self.corpus.appendingPathComponent(target)
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
        #expect(!names.isEmpty)
        for name in names {
            let bytes = Array(try Data(contentsOf: folder.appendingPathComponent(name)))
            let problem = Self.problem(target, bytes)
            #expect(problem == nil, "\(name): \(problem ?? "")")
        }
    }

    @Test("seeded random inputs run clean", arguments: targets)
    func randomInputs(target: String, count: Int) {
        var random = SeededGenerator(state: 8_008)
        var failures = 0
        for _ in 0..<count {
            let length = Int.random(in: 0...400, using: &random)
            let bytes = (0..<length).map { _ in UInt8.random(in: 0...255, using: &random) }
            if let problem = Self.problem(target, bytes) {
                Issue.record("\(problem)\n  input: \(bytes)")
                failures += 1
                if failures >= 3 { return }
            }
        }
    }
}
