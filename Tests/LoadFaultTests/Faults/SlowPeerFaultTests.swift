import AsyncSocketKit
import Foundation
import SocketTestSupport
import Testing

// Serialized: two of these tests measure the process's resident memory, which the others would add to.
@Suite("Faults: a peer that never reads, and one that sends a byte every 10 ms", .serialized)
struct SlowPeerFaultTests {
    /// 256 MiB queued as 256 writes of one shared 1 MiB buffer: the socket must keep references,
    /// not copies, so the process grows by far less than what is queued.
    private static let queuedWrites = 256
    private static let chunk = Data(count: 1 << 20)
    private static let growthLimit = 96 << 20

    @Test(
        "RunLoopSocket, the peer never reads: the write timeout fires; 256 MiB queued, memory stays bounded",
        arguments: RunLoopSocket.Engine.allCases)
    func neverReads(engine: RunLoopSocket.Engine) async throws {
        try await onNewThread {
            let connection = try ClientConnection(engine: engine)
            let before = residentBytes()
            for tag in 0..<Self.queuedWrites {
                connection.client.write(Self.chunk, withTimeout: 0.5, tag: tag)
            }
            #expect(runUntil(timeout: 20) { connection.recorder.closed("client") })
            if residentSizeIsMeaningful {
                #expect(residentBytes() - before < Self.growthLimit)
            }
            let events = connection.events.filter {
                switch $0 {
                case .wrote, .partialWrite: return false
                default: return true
                }
            }
            guard case .writeTimeout(let tag, 0.5, _)? = events.first else {
                Issue.record("no write timeout: \(events)")
                return
            }
            #expect(tag < Self.queuedWrites)
            #expect(
                events.dropFirst() == [
                    .willDisconnect(
                        domain: AsyncSocketError.errorDomain, code: AsyncSocketError.Code.writeTimeout.rawValue),
                    .didDisconnect,
                ])
            expectFreshRunLoopConnection(engine: engine)
        }
    }

    @Test("QueueSocket, the peer never reads: the write timeout (5) fires; 256 MiB queued, memory stays bounded")
    func queueNeverReads() throws {
        let connection = try QueueClientConnection()
        let recorder = connection.recorder
        let before = residentBytes()
        for tag in 0..<Self.queuedWrites {
            connection.client.write(Self.chunk, withTimeout: 0.5, tag: tag)
        }
        #expect(recorder.wait(timeout: 20) { recorder.closed("client") })
        if residentSizeIsMeaningful {
            #expect(residentBytes() - before < Self.growthLimit)
        }
        let events = recorder.events("client").filter {
            switch $0 {
            case .wrote, .partialWrite, .connected: return false
            default: return true
            }
        }
        guard case .writeTimeout(_, 0.5, _)? = events.first else {
            Issue.record("no write timeout: \(events)")
            return
        }
        #expect(events.dropFirst() == [.disconnected(domain: "GCDAsyncSocketErrorDomain", code: 5)])
        expectFreshQueueConnection()
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
