import AsyncSocketKit
import Foundation
import SocketTestSupport
import Testing

// The never-reading peer's tests run in a child process (an exit test): they measure the process's
// resident memory, which tests running in parallel in the same process would add to.
@Suite("Faults: a peer that never reads, and one that sends a byte every 10 ms")
struct SlowPeerFaultTests {
    @Test(
        "RunLoopSocket, the peer never reads: the write timeout fires; 256 MiB queued, memory stays bounded",
        arguments: RunLoopSocket.Engine.allCases)
    func neverReads(engine: RunLoopSocket.Engine) async {
        let result = await #expect(processExitsWith: .success, observing: [\.standardErrorContent]) {
            [engine = engine as RunLoopSocket.Engine] in
            let report = try await onNewThread { NeverReadsScenario.runLoopSocket(engine: engine) }
            writeReport(report)
            exit(EXIT_SUCCESS)
        }
        Self.check(readReport(NeverReadsReport.self, from: result))
    }

    @Test("QueueSocket, the peer never reads: the write timeout (5) fires; 256 MiB queued, memory stays bounded")
    func queueNeverReads() async {
        let result = await #expect(processExitsWith: .success, observing: [\.standardErrorContent]) {
            writeReport(NeverReadsScenario.queueSocket())
            exit(EXIT_SUCCESS)
        }
        Self.check(readReport(NeverReadsReport.self, from: result))
    }

    private static func check(_ report: NeverReadsReport?, sourceLocation: SourceLocation = #_sourceLocation) {
        guard let report else { return }
        #expect(report.problems.isEmpty, "\(report.problems)", sourceLocation: sourceLocation)
        if residentSizeIsMeaningful {
            #expect(report.growth < NeverReadsScenario.growthLimit, sourceLocation: sourceLocation)
        }
    }

    @Test(
        "RunLoopSocket, a peer dribbling one byte every 10 ms: the read to CRLF completes with every byte",
        arguments: RunLoopSocket.Engine.allCases)
    func dribbleRead(engine: RunLoopSocket.Engine) async throws {
        try await onNewThread {
            let connection = try ClientConnection(engine: engine)
            let line = Array("slow but steady wins\r\n".utf8)
            connection.client.readData(to: RunLoopSocket.crlfData, withTimeout: 10, tag: 1)
            dribble(line, to: connection.peer, interval: 0.01)
            #expect(runUntil { connection.events.contains(.read(Data(line), tag: 1)) })
            #expect(connection.recorder.partialReadBytes("client") > 0)
            connection.client.disconnect()
            connection.recorder.auditor.checkBytes("client", sent: line)
            connection.recorder.auditor.checkClosed("client")
        }
    }

    @Test("QueueSocket, a peer dribbling one byte every 10 ms: the read to CRLF completes with every byte")
    func queueDribbleRead() throws {
        let connection = try QueueClientConnection()
        let recorder = connection.recorder
        let line = Array("slow but steady wins\r\n".utf8)
        connection.client.readData(to: QueueSocket.crlfData, withTimeout: 10, tag: 1)
        dribble(line, to: connection.peer, interval: 0.01)
        #expect(recorder.wait { recorder.events("client").contains(.read(Data(line), tag: 1)) })
        #expect(recorder.partialReadBytes("client") > 0)
        connection.client.disconnect()
        #expect(recorder.wait { recorder.closed("client") })
        recorder.auditor.checkBytes("client", sent: line)
    }
}

/// What the child of a never-reading peer's test saw: the resident memory it grew by while 256 MiB
/// waited to be written, and what went wrong otherwise.
struct NeverReadsReport: Codable {
    var growth = 0
    var problems: [String] = []
}

/// The never-reading peer, run inside the child.
enum NeverReadsScenario {
    /// 256 MiB queued as 256 writes of one shared 1 MiB buffer: the socket must keep references,
    /// not copies, so the process grows by far less than what is queued.
    static let queuedWrites = 256
    static let chunk = Data(count: 1 << 20)
    static let growthLimit = 32 << 20

    static func runLoopSocket(engine: RunLoopSocket.Engine) -> NeverReadsReport {
        var report = NeverReadsReport()
        let connection: ClientConnection
        do {
            connection = try ClientConnection(engine: engine)
        } catch {
            report.problems.append("no connection: \(error)")
            return report
        }
        let before = residentBytes()
        for tag in 0..<queuedWrites {
            connection.client.write(chunk, withTimeout: 0.5, tag: tag)
        }
        if !runUntil(timeout: 20, { connection.recorder.closed("client") }) {
            report.problems.append("the socket did not close within 20 s")
        }
        report.growth = residentBytes() - before
        let events = connection.events.filter {
            switch $0 {
            case .wrote, .partialWrite: return false
            default: return true
            }
        }
        guard case .writeTimeout(let tag, 0.5, _)? = events.first else {
            report.problems.append("no write timeout: \(events)")
            return report
        }
        if tag >= queuedWrites {
            report.problems.append("the timeout's tag \(tag) was never written")
        }
        let expected: [Recorder.Event] = [
            .willDisconnect(domain: AsyncSocketError.errorDomain, code: AsyncSocketError.Code.writeTimeout.rawValue),
            .didDisconnect,
        ]
        if Array(events.dropFirst()) != expected {
            report.problems.append("after the timeout: \(Array(events.dropFirst()))")
        }
        if !freshRunLoopConnectionWorks(engine: engine) {
            report.problems.append("a fresh connection failed after the fault")
        }
        return report
    }

    static func queueSocket() -> NeverReadsReport {
        var report = NeverReadsReport()
        let connection: QueueClientConnection
        do {
            connection = try QueueClientConnection()
        } catch {
            report.problems.append("no connection: \(error)")
            return report
        }
        let recorder = connection.recorder
        let before = residentBytes()
        for tag in 0..<queuedWrites {
            connection.client.write(chunk, withTimeout: 0.5, tag: tag)
        }
        if !recorder.wait(timeout: 20, until: { recorder.closed("client") }) {
            report.problems.append("the socket did not close within 20 s")
        }
        report.growth = residentBytes() - before
        let events = recorder.events("client").filter {
            switch $0 {
            case .wrote, .partialWrite, .connected: return false
            default: return true
            }
        }
        guard case .writeTimeout(_, 0.5, _)? = events.first else {
            report.problems.append("no write timeout: \(events)")
            return report
        }
        if Array(events.dropFirst()) != [.disconnected(domain: "GCDAsyncSocketErrorDomain", code: 5)] {
            report.problems.append("after the timeout: \(Array(events.dropFirst()))")
        }
        if !freshQueueConnectionWorks() {
            report.problems.append("a fresh connection failed after the fault")
        }
        return report
    }
}
