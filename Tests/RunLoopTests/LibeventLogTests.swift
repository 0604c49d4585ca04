import AsyncSocketKit
import Foundation
import SocketTestSupport
import Testing

@Suite("libevent's own log lines go to the user's Logger, never to stderr")
struct LibeventLogTests {
    @Test("a silent nameserver: evdns's 'has failed' (EVENT_LOG_MSG) arrives at .info, source=libevent")
    func nameserverFailureIsLogged() async throws {
        let dns = ScriptedDNSServer(silent: true)
        defer { dns.stop() }
        let capture = LogCapture()
        let resolver = HostResolver(nameservers: [dns.address], timeout: 0.05, logger: capture.logger)
        try await onNewThread {
            let recorder = Recorder()
            let client = RunLoopSocket(delegate: recorder, resolver: resolver)
            recorder.name(client, "client")
            try client.connectToHost("silent.test", onPort: 80, withTimeout: 10)
            #expect(runUntil { recorder.events("client").contains(.didDisconnect) })
        }
        let failed = capture.lines.filter { $0.message.contains("has failed") }
        #expect(!failed.isEmpty, "\(capture.lines)")
        #expect(failed.allSatisfy { $0.level == .info && $0.metadata["source"] == "libevent" }, "\(failed)")
    }

    @Test("without a logger the same failure is dropped: nothing reaches file descriptor 2")
    func nothingOnStderrWithoutLogger() async throws {
        let dns = ScriptedDNSServer(silent: true)
        defer { dns.stop() }
        let resolver = HostResolver(nameservers: [dns.address], timeout: 0.05)
        let stderrCopy = dup(STDERR_FILENO)
        var pipeEnds: [Int32] = [0, 0]
        #expect(pipe(&pipeEnds) == 0)
        let (readEnd, writeEnd) = (pipeEnds[0], pipeEnds[1])
        // Only this test's own lookup runs while fd 2 points at the pipe; what libevent writes
        // there (it writes straight to fd 2 when no callback is installed) is read back below.
        try await onNewThread {
            let recorder = Recorder()
            let client = RunLoopSocket(delegate: recorder, resolver: resolver)
            recorder.name(client, "client")
            fflush(nil)
            dup2(writeEnd, STDERR_FILENO)
            defer {
                fflush(nil)
                dup2(stderrCopy, STDERR_FILENO)
            }
            try client.connectToHost("silent.test", onPort: 80, withTimeout: 10)
            #expect(runUntil { recorder.events("client").contains(.didDisconnect) })
        }
        close(writeEnd)
        close(stderrCopy)
        let flags = fcntl(readEnd, F_GETFL)
        _ = fcntl(readEnd, F_SETFL, flags | O_NONBLOCK)
        var buffer = [UInt8](repeating: 0, count: 4096)
        let count = read(readEnd, &buffer, buffer.count)
        close(readEnd)
        let written = count > 0 ? String(decoding: buffer[..<count], as: UTF8.self) : ""
        #expect(!written.contains("Nameserver"), "libevent wrote to stderr: \(written)")
    }
}
