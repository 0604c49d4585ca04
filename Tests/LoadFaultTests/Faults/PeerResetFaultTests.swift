import AsyncSocketKit
import Foundation
import SocketTestSupport
import Testing

@Suite("Faults: the peer resets mid-read and mid-write")
struct PeerResetFaultTests {
    /// GCD reports a reset as `closed` (7) when its read source sees the end first (a zero
    /// estimate), or as the POSIX error when a read or write meets it.
    private let resetReports: [QueueRecorder.Event?] = [
        .disconnected(domain: "GCDAsyncSocketErrorDomain", code: 7),
        .disconnected(domain: NSPOSIXErrorDomain, code: Int(ECONNRESET)),
        .disconnected(domain: NSPOSIXErrorDomain, code: Int(EPIPE)),
    ]

    @Test(
        "RunLoopSocket, reset mid-read: ECONNRESET, every byte in the read's partial bytes (unreadData)",
        arguments: RunLoopSocket.Engine.allCases)
    func resetMidRead(engine: RunLoopSocket.Engine) async throws {
        try await onNewThread {
            let connection = try ClientConnection(engine: engine)
            let sent = patternBytes(30_000)
            connection.client.readData(toLength: 100_000, withTimeout: -1, tag: 1)
            connection.peer.send(sent)
            #expect(runUntil { connection.recorder.partialReadBytes("client") == sent.count })
            connection.peer.reset()
            #expect(runUntil { connection.recorder.closed("client") })
            #expect(
                connection.events.suffix(2) == [
                    .willDisconnect(domain: NSPOSIXErrorDomain, code: Int(ECONNRESET)), .didDisconnect,
                ])
            connection.recorder.auditor.checkBytes("client", sent: sent)
            expectFreshRunLoopConnection(engine: engine)
        }
    }

    // Regression: with bytes waiting unread and no read queued, the native engine watched only
    // for EPOLLRDHUP through libevent's EV_CLOSED, which a reset never triggers: no callback ever
    // came, and the loop spun at full CPU on the unhandled EPOLLERR.
    @Test(
        "RunLoopSocket, reset while bytes wait unread and no read is queued: ECONNRESET, the bytes in unreadData",
        arguments: RunLoopSocket.Engine.allCases)
    func resetWithUnreadBytes(engine: RunLoopSocket.Engine) async throws {
        try await onNewThread {
            let connection = try ClientConnection(engine: engine)
            connection.client.readData(toLength: 4, withTimeout: -1, tag: 1)
            connection.peer.send("ping and then some")
            #expect(runUntil { connection.events.contains(.read(Data("ping".utf8), tag: 1)) })
            connection.peer.reset()
            let cpuBefore = threadCPUTime()
            #expect(runUntil(timeout: 5) { connection.recorder.closed("client") })
            #expect(threadCPUTime() - cpuBefore < 1)
            #expect(
                connection.events.suffix(2) == [
                    .willDisconnect(domain: NSPOSIXErrorDomain, code: Int(ECONNRESET)), .didDisconnect,
                ])
            #expect(connection.recorder.unread["client"] == Data(" and then some".utf8))
            connection.recorder.auditor.checkBytes("client", sent: Array("ping and then some".utf8))
            expectFreshRunLoopConnection(engine: engine)
        }
    }

    @Test(
        "RunLoopSocket, reset mid-write: ECONNRESET on both engines, no write completion",
        arguments: RunLoopSocket.Engine.allCases)
    func resetMidWrite(engine: RunLoopSocket.Engine) async throws {
        try await onNewThread {
            let connection = try ClientConnection(engine: engine)
            connection.client.write(Data(count: 32 << 20), withTimeout: -1, tag: 1)
            let peer = connection.peer
            #expect(waitUntil { !kernelPending(peer.fd).isEmpty })
            _ = peer.receive(count: 65_536, timeout: 5)
            peer.reset()
            #expect(runUntil { connection.recorder.closed("client") })
            let events = connection.events
            #expect(!events.contains(.wrote(tag: 1)))
            #expect(
                events.suffix(2) == [
                    .willDisconnect(domain: NSPOSIXErrorDomain, code: Int(ECONNRESET)), .didDisconnect,
                ])
            expectFreshRunLoopConnection(engine: engine)
        }
    }

    @Test("QueueSocket, reset mid-read: an error close (GCD: closed or ECONNRESET) after the partial bytes")
    func queueResetMidRead() throws {
        let connection = try QueueClientConnection()
        let recorder = connection.recorder
        let sent = patternBytes(30_000)
        connection.client.readData(toLength: 100_000, withTimeout: -1, tag: 1)
        connection.peer.send(sent)
        #expect(recorder.wait { recorder.partialReadBytes("client") == sent.count })
        connection.peer.reset()
        #expect(recorder.wait { recorder.closed("client") })
        #expect(resetReports.contains(recorder.events("client").last))
        expectFreshQueueConnection()
    }

    @Test("QueueSocket, reset mid-write: an error close (GCD: closed, ECONNRESET or EPIPE), no write completion")
    func queueResetMidWrite() throws {
        let connection = try QueueClientConnection()
        let recorder = connection.recorder
        connection.client.write(Data(count: 32 << 20), withTimeout: -1, tag: 1)
        let peer = connection.peer
        #expect(recorder.wait { !kernelPending(peer.fd).isEmpty })
        _ = peer.receive(count: 65_536, timeout: 5)
        peer.reset()
        #expect(recorder.wait { recorder.closed("client") })
        #expect(!recorder.events("client").contains(.wrote(tag: 1)))
        #expect(resetReports.contains(recorder.events("client").last))
        expectFreshQueueConnection()
    }
}

/// CPU time the calling thread has used, in seconds.
func threadCPUTime() -> TimeInterval {
    var time = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
    return TimeInterval(time.tv_sec) + TimeInterval(time.tv_nsec) / 1e9
}
