import AsyncSocketKit
import Foundation
import SocketTestSupport
import Testing

// The load suites. Fast by default; the long versions (run before a release, figures in
// Reliability.md) with
//   LOAD_CONNECTIONS=10000 LOAD_CYCLES=100000 swift test --filter LoadTests
// Serialized, and each measurement that is process-wide (descriptors, resident size) is taken in a
// child process (an exit test) that does nothing else.
@Suite("Load: many connections on one loop, many cycles", .serialized)
struct LoadTests {
    static let connections = environmentInt("LOAD_CONNECTIONS") ?? 500
    static let bytesPerConnection = environmentInt("LOAD_BYTES") ?? 4096
    static let cycles = environmentInt("LOAD_CYCLES") ?? 2000

    @Test(
        "concurrent connections to one RunLoopSocket listener, clients in a child process, every byte echoed back",
        arguments: RunLoopSocket.Engine.allCases)
    func concurrentConnections(engine: RunLoopSocket.Engine) async throws {
        let (connections, bytes) = (Self.connections, Self.bytesPerConnection)
        LoadClient.raiseDescriptorLimit()
        let worker = EventRunLoopThread(name: "load-server")
        defer { worker.terminate() }
        let server = LoadEchoServer()
        let port = try await onLoop(worker.loop) { try server.start(engine: engine) }
        let started = now()
        let result = await #expect(processExitsWith: .success, observing: [\.standardErrorContent]) {
            [port = port as UInt16, connections = connections as Int, bytes = bytes as Int] in
            let report = LoadClient.run(port: port, connections: connections, bytes: bytes, timeout: 300)
            writeReport(report)
            exit(EXIT_SUCCESS)
        }
        let report = try #require(readReport(LoadClient.Report.self, from: result))
        let seconds = now() - started
        #expect(report.problems.isEmpty, "\(report.problems.prefix(10))")
        #expect(report.connected == connections)
        #expect(report.mostOpen == connections)
        #expect(report.bytesVerified == connections * bytes)
        let deadline = Date(timeIntervalSinceNow: 60)
        while server.stats.finalDisconnects < connections && Date() < deadline {
            usleep(10_000)
        }
        let stats = server.stats
        #expect(stats.accepted == connections)
        #expect(stats.mostOpen == connections)
        #expect(stats.bytesEchoed == connections * bytes)
        #expect(stats.finalDisconnects == connections)
        #expect(stats.open == 0)
        #expect(stats.errorCloses.isEmpty, "\(stats.errorCloses.prefix(10))")
        #expect(stats.violations.isEmpty, "\(stats.violations.prefix(10))")
        try await onLoop(worker.loop) { server.stop() }
        print(
            "LOAD connections (\(engine)): \(stats.mostOpen) held at once on one loop, \(report.bytesVerified) bytes echoed and "
                + "verified, \(stats.finalDisconnects) final disconnects, \(String(format: "%.1f", seconds)) s")
    }

    @Test(
        "connect/transfer/disconnect cycles: descriptors back to baseline, resident size +<10% after warm-up",
        arguments: RunLoopSocket.Engine.allCases)
    func cycles(engine: RunLoopSocket.Engine) async throws {
        let cycles = Self.cycles
        let started = now()
        let result = await #expect(processExitsWith: .success, observing: [\.standardErrorContent]) {
            [cycles = cycles as Int, engine = engine as RunLoopSocket.Engine] in
            let report = try await onNewThread { () -> CycleRunner.Report in
                let server = LoadEchoServer(closesAfter: 1024)
                let port = try server.start(engine: engine)
                // A few cycles first: the baseline is taken once the process has opened what it opens
                // only once (the queue core keeps one /dev/null descriptor for SafeClose, for example).
                let firstCycles = 16
                let firstRound = CycleRunner(port: port, cycles: firstCycles, engine: engine)
                firstRound.start()
                runUntil(timeout: 30) { firstRound.isDone && server.stats.open == 0 }
                let before = allDescriptorCount()
                let runner = CycleRunner(port: port, cycles: cycles, engine: engine)
                let began = now()
                runner.start()
                runUntil(timeout: 900) { runner.isDone }
                var report = runner.report
                report.seconds = now() - began
                // The last server children close just after their clients saw the close.
                runUntil(timeout: 10) {
                    server.stats.open == 0 && server.stats.finalDisconnects == firstCycles + cycles
                }
                // A socket's descriptor may close on the loop pass after its final callback.
                runUntil(timeout: 5) { allDescriptorCount() <= before }
                report.descriptorsBefore = before
                report.descriptorsAfter = allDescriptorCount()
                report.residentAtEnd = residentBytes()
                let stats = server.stats
                report.problems += firstRound.report.problems + stats.violations + stats.errorCloses
                if stats.finalDisconnects != firstCycles + cycles {
                    report.problems.append("the server reported \(stats.finalDisconnects) final disconnects")
                }
                server.stop()
                return report
            }
            writeReport(report)
            exit(EXIT_SUCCESS)
        }
        let report = try #require(readReport(CycleRunner.Report.self, from: result))
        #expect(report.problems.isEmpty, "\(report.problems.prefix(10))")
        #expect(report.cycles == cycles)
        #expect(report.bytesVerified == cycles * 1024)
        // Fewer than at the baseline is no leak: a descriptor of the first round (a SafeClose copy the queue
        // core closes from a dispatch cancel handler) may still have been open when the baseline was read.
        #expect(report.descriptorsAfter <= report.descriptorsBefore)
        let growth = Double(report.residentAtEnd - report.residentAfterWarmUp) / Double(report.residentAfterWarmUp)
        if residentSizeIsMeaningful {
            #expect(growth < 0.10)
        }
        print(
            "LOAD cycles (\(engine)): \(report.cycles) in \(String(format: "%.1f", report.seconds)) s, descriptors "
                + "\(report.descriptorsBefore) → \(report.descriptorsAfter), resident "
                + "\(report.residentAfterWarmUp / 1024) KiB after warm-up → \(report.residentAtEnd / 1024) KiB "
                + "(\(String(format: "%+.1f", growth * 100)) %), total \(String(format: "%.1f", now() - started)) s")
    }
}

/// An integer from the environment, if set.
func environmentInt(_ name: String) -> Int? {
    ProcessInfo.processInfo.environment[name].flatMap { Int($0) }
}

/// Runs `body` on `loop`'s thread and returns its result.
func onLoop<T: Sendable>(_ loop: EventRunLoop, _ body: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        loop.perform {
            continuation.resume(with: Result { try body() })
        }
    }
}

/// Writes a child's report to standard error as one "LOAD-REPORT <json>" line.
func writeReport(_ report: some Encodable) {
    let json = (try? JSONEncoder().encode(report)) ?? Data()
    FileHandle.standardError.write(Data("LOAD-REPORT ".utf8) + json + Data("\n".utf8))
}

/// The report a child wrote (nil, with the child's output recorded as an issue, when there is none).
func readReport<Report: Decodable>(_ type: Report.Type, from result: ExitTest.Result?) -> Report? {
    let errors = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
    guard let line = errors.split(separator: "\n").last(where: { $0.hasPrefix("LOAD-REPORT ") }) else {
        Issue.record("the child wrote no report: \(errors.suffix(2000))")
        return nil
    }
    return try? JSONDecoder().decode(type, from: Data(line.dropFirst("LOAD-REPORT ".count).utf8))
}
