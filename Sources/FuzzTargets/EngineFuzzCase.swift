import AsyncSocketCore
import EngineTestSupport
import Foundation

// The engine fuzz target: the input picks a socket configuration and a sequence of operations,
// which run on an EngineHarness (a SocketEngine driven the way the sockets drive it, over a scripted
// transport and a virtual clock) and on an EngineFuzzModel side by side. After every operation both
// rest, and what the harness reported in between must be what the model allows.
package struct EngineFuzzCase {
    let semantics: Semantics
    let prebuffering: Bool
    let readChunk: Int
    let operations: [EngineFuzzOperation]

    /// At most this many operations are decoded from one input.
    static let maximumOperations = 256

    /// Decodes a case from fuzz input.
    package init(_ data: UnsafeRawBufferPointer) {
        var input = FuzzInput(data)
        semantics = input.bool() ? .gcd : .legacy
        prebuffering = input.int(in: 0...3) != 0
        readChunk = input.pick([1, 2, 3, 7, 64, 4096])
        var operations: [EngineFuzzOperation] = []
        while !input.isAtEnd && operations.count < Self.maximumOperations {
            operations.append(EngineFuzzOperation.decode(from: &input))
        }
        self.operations = operations
    }

    /// Runs the case; returns a description of the first disagreement with the model, or `nil`.
    package func run() -> String? {
        var run = EngineFuzzRun(
            harness: EngineHarness(semantics: semantics, prebuffering: prebuffering, readChunk: readChunk))
        for (index, operation) in operations.enumerated() {
            if let problem = run.perform(operation) ?? run.closeProblem() {
                return report(problem, step: index, harness: run.harness)
            }
            if run.isOver {
                break
            }
        }
        return run.finalProblem().map { report($0, step: operations.count, harness: run.harness) }
    }

    private func report(_ problem: String, step: Int, harness: EngineHarness) -> String {
        let script = operations.prefix(step + 1).enumerated().map { "  \($0): \($1)" }.joined(separator: "\n")
        return "engine fuzz case: \(problem)\n  after operation \(step); \(semantics) prebuffering=\(prebuffering) "
            + "readChunk=\(readChunk)\n\(script)\n  events: \(harness.events)"
    }
}
