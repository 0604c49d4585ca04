import Foundation
import SocketTestSupport
import Testing

@Suite("asyncsocket bench")
struct BenchCommandTests {
    @Test("a tiny run prints a table with a positive rate for each socket class, and progress on stderr")
    func tinyRun() async throws {
        try await onNewThread {
            let bench = try ChildProcess(
                built: "asyncsocket", ["bench", "--duration", "0.05", "--chunk-size", "16384"])
            #expect(bench.waitForExit(timeout: 30) == 0)
            let rows = bench.output.split(separator: "\n").map { $0.split(separator: " ").map(String.init) }
            #expect(rows.count == 4)
            #expect(rows.dropFirst().first == ["socket", "round", "trips/s", "MiB/s"])
            for (row, name) in zip(rows.suffix(2), [["RunLoopSocket", "(native)"], ["QueueSocket"]]) {
                #expect(Array(row.prefix(name.count)) == name)
                let numbers = row.dropFirst(name.count).compactMap(Double.init)
                #expect(numbers.count == 2)
                #expect(numbers.allSatisfy { $0 > 0 })
            }
            for measurement in [
                "RunLoopSocket ping-pong", "RunLoopSocket bulk", "QueueSocket ping-pong", "QueueSocket bulk",
            ] {
                #expect(bench.errorOutput.contains(measurement))
            }
        }
    }

    @Test("--duration out of range is refused")
    func refusedDuration() async throws {
        try await onNewThread {
            let bench = try ChildProcess(built: "asyncsocket", ["bench", "--duration", "60"])
            #expect(bench.waitForExit() == 2)
        }
    }
}
