import AsyncSocketKit
import Foundation
import Testing

/// A listener with a backlog of 0 that never accepts, and connections filling it: on Linux, SYNs
/// to a full accept queue are dropped, so one more connect hangs in SYN_SENT until it times out.
final class FullBacklog: @unchecked Sendable {
    let listener: RawListener
    private var fillers: [Int32] = []

    init() throws {
        listener = try RawListener(backlog: 0)
        for _ in 0..<8 {
            let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
            fillers.append(fd)
            let address = loopbackAddress(port: listener.port)
            _ = address.withUnsafeBytes {
                connect(fd, $0.baseAddress!.assumingMemoryBound(to: sockaddr.self), socklen_t($0.count))
            }
            var pfd = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
            if poll(&pfd, 1, 200) == 0 {
                return
            }
        }
        throw POSIXError(.EAGAIN, userInfo: [NSLocalizedDescriptionKey: "the backlog never filled"])
    }

    deinit {
        for fd in fillers {
            close(fd)
        }
    }
}

@Suite("Faults: connecting to a full backlog")
struct ConnectBacklogFaultTests {
    @Test(
        "RunLoopSocket: the connect times out (code 2), reported as willDisconnect, didDisconnect",
        arguments: RunLoopSocket.Engine.allCases)
    func connectTimeout(engine: RunLoopSocket.Engine) async throws {
        let backlog = try FullBacklog()
        try await onNewThread {
            let recorder = Recorder()
            let client = RunLoopSocket(delegate: recorder, engine: engine)
            recorder.name(client, "client")
            let started = now()
            try client.connectToAddress(loopbackAddress(port: backlog.listener.port), withTimeout: 0.3)
            #expect(runUntil { recorder.closed("client") })
            #expect(now() - started >= 0.29)
            #expect(
                recorder.events("client") == [
                    .willConnect,
                    .willDisconnect(
                        domain: AsyncSocketError.errorDomain, code: AsyncSocketError.Code.connectTimeout.rawValue),
                    .didDisconnect,
                ])
            #expect(!client.isConnected)
            expectFreshRunLoopConnection(engine: engine)
        }
    }

    @Test("QueueSocket: the connect times out, reported as connectTimeout (3)")
    func queueConnectTimeout() throws {
        let backlog = try FullBacklog()
        let recorder = QueueRecorder()
        let client = QueueSocket(delegate: recorder, delegateQueue: recorder.queue)
        recorder.name(client, "client")
        let started = now()
        try client.connect(toHost: "127.0.0.1", onPort: backlog.listener.port, withTimeout: 0.3)
        #expect(recorder.wait { recorder.closed("client") })
        #expect(now() - started >= 0.29)
        #expect(recorder.events("client") == [.disconnected(domain: "GCDAsyncSocketErrorDomain", code: 3)])
        expectFreshQueueConnection()
    }
}
