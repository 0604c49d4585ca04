import Foundation
import SocketTestSupport
import Testing

@Suite("Examples/KeepAliveTimer, run as a program")
struct KeepAliveTimerExampleTests {
    @Test(
        "PINGs every 200 ms, three PONGs, the fourth deadline fires; Timer, main queue and main actor wait for RunLoop")
    func keepAlive() async throws {
        try await onNewThread {
            let started = now()
            let program = try ChildProcess(built: "KeepAliveTimer", [])
            #expect(program.waitForExit() == 0)
            #expect(now() - started < wallClockBound(5))
            // Each line: "<ms> ms  [who] text"; keep "[who] text" and the milliseconds.
            let lines = program.output.split(separator: "\n").map { line in
                line.firstIndex(of: "[").map { String(line[$0...]) } ?? String(line)
            }
            let stamps = program.output.split(separator: "\n").map {
                Double($0.split(separator: " ", omittingEmptySubsequences: true).first ?? "") ?? -1
            }
            let expected = [
                "[client] connected; a PING every 200 ms",
                "[client] PING 1", "[client] PONG 1: the deadline is cancelled",
                "[client] PING 2", "[client] PONG 2: the deadline is cancelled",
                "[client] PING 3", "[client] PONG 3: the deadline is cancelled",
                "[client] PING 4", "[server] got PING 4, and hangs",
                "[client] no PONG within 150 ms: the server is gone; disconnecting",
                "[client] disconnected; the keep-alive timer is invalidated",
                "[server] the client closed the connection; the server stops",
                "[main] EventRunLoop.run() returned (nothing left to wait for)",
                "[main] now Foundation's run loop runs until those four have run (at most 5 s)",
            ]
            #expect(Array(lines.prefix(expected.count)) == expected, "\(program.output)")
            let foundation = Set(lines.dropFirst(expected.count).dropLast())
            #expect(
                foundation == [
                    "[foundation] the Foundation Timer (due at 50 ms) fires",
                    "[foundation] the DispatchQueue.main.async block runs",
                    "[foundation] the Task on the main actor runs",
                    "[foundation] the RunLoop.current.perform block runs",
                ], "\(program.output)")
            #expect(lines.last == "[main] done")
            // The deadline fired 150 ms after the fourth PING, not earlier.
            let ping4 = try #require(lines.firstIndex(of: "[client] PING 4"))
            let missing = try #require(lines.firstIndex { $0.hasPrefix("[client] no PONG") })
            #expect(stamps[missing] - stamps[ping4] >= 149)
            // The Foundation timer was due at 50 ms and fired only after the event loop ended.
            let timerLine = try #require(lines.firstIndex { $0.hasPrefix("[foundation] the Foundation Timer") })
            #expect(stamps[timerLine] > 800)
        }
    }
}
