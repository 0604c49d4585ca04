import AsyncSocketKit
import Foundation
import Logging
import SocketTestSupport
import Testing

// What the sockets log through the user's Logger (Net/SocketLogMetadata.swift): every line names the
// socket, its face and engine, its descriptor and addresses; a connection's lifecycle at debug, misuse
// at warning, a failure the library cannot explain at error.
@Suite("Log lines: metadata on every line; lifecycle at debug, misuse at warning, the unexplained at error")
struct SocketLogTests {
    /// The metadata keys every line of a connected socket carries.
    static let connectedKeys: Set<String> = ["socket", "face", "engine", "fd", "local", "peer"]

    @Test(
        "RunLoopSocket: connected and closed at debug, a read it ignores at warning, each line with the socket's metadata",
        arguments: RunLoopSocket.Engine.allCases)
    func runLoopSocketLines(engine: RunLoopSocket.Engine) async throws {
        try await onNewThread {
            let capture = LogCapture()
            let listener = try RawListener()
            let recorder = Recorder()
            let client = RunLoopSocket(delegate: recorder, engine: engine, logger: capture.logger)
            recorder.name(client, "client")
            try client.connectToHost("127.0.0.1", onPort: listener.port, withTimeout: 10)
            #expect(runUntil { client.isConnected })
            let peer = try #require(listener.accept())
            let port = "127.0.0.1:\(listener.port)"
            client.readData(to: Data(), withTimeout: -1, tag: 3)
            #expect(runUntil { !capture.messages(at: .warning).isEmpty })
            client.disconnect()
            #expect(runUntil { recorder.events("client").contains(.didDisconnect) })
            _ = peer

            let engineName = engine == .native ? "native" : "queue-core"
            let connected = try #require(capture.lines.first { $0.level == .debug && $0.message == "connected" })
            #expect(Self.connectedKeys.isSubset(of: connected.metadata.keys), "\(connected)")
            #expect(connected.metadata["face"] == "RunLoopSocket")
            #expect(connected.metadata["engine"] == engineName)
            #expect(connected.metadata["peer"] == port)
            let ignored = try #require(capture.lines.first { $0.level == .warning })
            #expect(ignored.message == "read ignored: the separator is empty", "\(ignored)")
            #expect(Self.connectedKeys.isSubset(of: ignored.metadata.keys), "\(ignored)")
            #expect(ignored.metadata["tag"] == "3")
            #expect(ignored.metadata["socket"] == connected.metadata["socket"])
            #expect(capture.lines.contains { $0.level == .debug && $0.message.hasPrefix("closed") })
            #expect(
                capture.lines.allSatisfy { $0.metadata["socket"] == connected.metadata["socket"] }, "\(capture.lines)")
        }
    }

    @Test("QueueSocket: connected and closed at debug, with the socket's metadata; two sockets, two numbers")
    func queueSocketLines() throws {
        let capture = LogCapture()
        let listener = try RawListener()
        let first = QueueSocket(delegate: nil, delegateQueue: nil, logger: capture.logger)
        let second = QueueSocket(delegate: nil, delegateQueue: nil, logger: capture.logger)
        let delegate = QueueSocketDelegateBase()
        for socket in [first, second] {
            socket.synchronouslySetDelegate(delegate, delegateQueue: DispatchQueue(label: "SocketLogTests"))
            try socket.connect(toHost: "127.0.0.1", onPort: listener.port, withTimeout: 10)
            _ = try #require(listener.accept())
        }
        let deadline = Date(timeIntervalSinceNow: 10)
        while capture.messages(at: .debug).filter({ $0 == "connected" }).count < 2 && Date() < deadline {
            usleep(1_000)
        }
        first.disconnect()
        second.disconnect()
        let connected = capture.lines.filter { $0.message == "connected" }
        #expect(connected.count == 2, "\(capture.lines)")
        for line in connected {
            #expect(Self.connectedKeys.isSubset(of: line.metadata.keys), "\(line)")
            #expect(line.metadata["face"] == "QueueSocket")
            #expect(line.metadata["engine"] == "dispatch")
        }
        #expect(Set(connected.compactMap { $0.metadata["socket"] }).count == 2)
        #expect(capture.lines.filter { $0.message == "closed" }.count == 2, "\(capture.lines)")
    }

    @Test(
        "a listener whose socket breaks: one error line, then debug lines, at most ten accepts a second",
        arguments: RunLoopSocket.Engine.allCases)
    func brokenListener(engine: RunLoopSocket.Engine) async {
        // In a child process (an exit test), alone: a dispatch source on a listening socket shut down
        // underneath it (the queue core's) has crashed libdispatch's manager thread, in a freed epoll
        // note, when other dispatch sources were busy in the same process (within 1 to 17 runs of this
        // test beside another suite under ThreadSanitizer; never alone in 25). See Migration/README.md,
        // "Deliberate differences", QueueSocket (the libdispatch bug).
        let result = await #expect(processExitsWith: .success, observing: [\.standardErrorContent]) {
            [engine = engine as RunLoopSocket.Engine] in
            let problems = try await onNewThread { BrokenListenerScenario.run(engine: engine) }
            for problem in problems {
                FileHandle.standardError.write(Data("broken listener problem: \(problem)\n".utf8))
            }
            FileHandle.standardError.write(Data("broken listener done\n".utf8))
            exit(EXIT_SUCCESS)
        }
        let errors = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(errors.contains("broken listener done"), "the child did not finish: \(errors)")
        for line in errors.split(separator: "\n") where line.hasPrefix("broken listener problem: ") {
            Issue.record(Comment(rawValue: String(line)))
        }
    }
}

/// The broken-listener scenario, run in the child; it returns what did not hold.
enum BrokenListenerScenario {
    static func run(engine: RunLoopSocket.Engine) -> [String] {
        var problems: [String] = []
        func check(_ holds: Bool, _ problem: @autoclosure () -> String) {
            if !holds { problems.append(problem()) }
        }
        let capture = LogCapture()
        let recorder = Recorder()
        let server = RunLoopSocket(delegate: recorder, engine: engine, logger: capture.logger)
        do {
            try server.acceptOnInterface("127.0.0.1", port: 0)
        } catch {
            return ["cannot listen: \(error)"]
        }
        // Shut down for reading, a listening socket reports a hang-up for good, and every accept
        // fails with EINVAL.
        check(shutdown(server.socket4FD, Int32(SHUT_RD)) == 0, "shutdown failed: errno \(errno)")
        check(waitUntil { !capture.messages(at: .error).isEmpty }, "no error line within 10 s")
        guard let error = capture.lines.first(where: { $0.level == .error }) else {
            server.disconnect()
            return problems
        }
        check(error.message.hasPrefix("accept failed unexpectedly"), "error line: \(error)")
        check(error.metadata["face"] == "RunLoopSocket", "face: \(error)")
        check(error.metadata["fd"] != nil && error.metadata["local"] != nil, "fd and local: \(error)")
        // Half a second more: the listener pauses 0.1 s after each failure instead of spinning.
        EventRunLoop.current.run(until: Date(timeIntervalSinceNow: 0.5))
        let failures = capture.lines.filter { $0.message.hasPrefix("accept failed") }
        check(capture.messages(at: .error).count == 1, "error lines: \(capture.messages(at: .error))")
        check(failures.count <= 8, "\(failures.count) accept failures in 0.5 s")
        server.disconnect()
        return problems
    }
}
