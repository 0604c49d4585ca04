import Foundation

/// An `openssl s_server` or `s_client` process for the other end of a TLS test, with its output
/// collected as it arrives. Every wait has a deadline; the process is killed when the peer goes away.
///
/// The output is read by a thread of its own with blocking reads until the process ends, not with a
/// `readabilityHandler`: many peers starting and stopping in parallel tests is the churn of dispatch
/// read sources on duplicated descriptors that corrupts libdispatch's epoll bookkeeping on Linux
/// (swift-corelibs-libdispatch issue 949), and the test process then crashes in libdispatch.
package final class OpenSSLPeer: @unchecked Sendable {
    // @unchecked Sendable: `process` and the pipes are set up in init and only used through
    // Foundation's thread-safe calls after; what was read is behind `sink`'s condition.
    private let process = Process()
    private let input = Pipe()
    private let output = Pipe()
    private let sink = OutputSink()

    /// Starts `openssl` with `arguments` (stdout and stderr together).
    package init(_ arguments: [String]) throws {
        process.executableURL = URL(fileURLWithPath: "/usr/bin/openssl")
        process.arguments = arguments
        process.standardInput = input
        process.standardOutput = output
        process.standardError = output
        try process.run()
        // The child has its copy: without ours, the reader sees the end when the child does.
        try? output.fileHandleForWriting.close()
        let (reader, sink) = (output.fileHandleForReading, sink)
        Thread.detachNewThread { sink.drain(reader) }
    }

    /// `openssl s_server` on a port of its choosing (its "ACCEPT [::]:PORT" line tells).
    package static func server(_ arguments: [String]) throws -> (OpenSSLPeer, UInt16) {
        let peer = try OpenSSLPeer(["s_server", "-accept", "0"] + arguments)
        guard peer.wait(for: "ACCEPT"),
            let line = peer.text.split(separator: "\n").first(where: { $0.hasPrefix("ACCEPT") }),
            let port = line.split(separator: ":").last.flatMap({ UInt16($0.trimmingCharacters(in: .whitespaces)) })
        else {
            throw CocoaError(
                .fileReadUnknown, userInfo: [NSLocalizedDescriptionKey: "s_server did not start: \(peer.text)"])
        }
        return (peer, port)
    }

    deinit {
        kill()
    }

    /// SIGKILL, then reap: a child started from a test thread inherits that thread's signal mask, in
    /// which SIGTERM may be blocked.
    private func kill() {
        guard process.isRunning else { return }
        Glibc.kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }

    /// Everything the process printed so far.
    package var text: String {
        sink.text
    }

    /// Waits until the output contains `needle` or `timeout` passes.
    @discardableResult
    package func wait(for needle: String, timeout: TimeInterval = 10) -> Bool {
        sink.wait(for: needle, timeout: timeout)
    }

    /// Sends `text` to the process's standard input.
    package func send(_ text: String) {
        input.fileHandleForWriting.write(Data(text.utf8))
    }

    /// Closes its standard input.
    package func closeInput() {
        try? input.fileHandleForWriting.close()
    }

    /// Ends the process now (for servers, which never end by themselves).
    package func stop() {
        kill()
    }

    /// Waits for the process to end, killing it after `timeout`.
    package func finish(timeout: TimeInterval = 5) {
        closeInput()
        let deadline = Date(timeIntervalSinceNow: timeout)
        while process.isRunning && Date() < deadline {
            sink.waitForMore(until: Date(timeIntervalSinceNow: 0.05))
        }
        kill()
    }
}

/// What an OpenSSLPeer's process printed, filled by its reader thread.
private final class OutputSink: @unchecked Sendable {
    // @unchecked Sendable: `collected` is behind `condition`.
    private let condition = NSCondition()
    private var collected = Data()

    /// Reads until the end of the output (the process ended), then returns.
    func drain(_ handle: FileHandle) {
        while true {
            let data = handle.availableData
            guard !data.isEmpty else { break }
            condition.withLock {
                collected.append(data)
                condition.broadcast()
            }
        }
        condition.withLock { condition.broadcast() }
    }

    var text: String {
        condition.withLock { String(decoding: collected, as: UTF8.self) }
    }

    func wait(for needle: String, timeout: TimeInterval) -> Bool {
        let deadline = Date(timeIntervalSinceNow: timeout)
        condition.lock()
        defer { condition.unlock() }
        while !String(decoding: collected, as: UTF8.self).contains(needle) {
            if !condition.wait(until: deadline) { return String(decoding: collected, as: UTF8.self).contains(needle) }
        }
        return true
    }

    /// Waits for more output, or until `date`.
    func waitForMore(until date: Date) {
        condition.withLock { _ = condition.wait(until: date) }
    }
}

/// The s_server arguments for the test certificates.
package func serverArguments(_ fixture: TLSFixture, certificate: String? = nil) -> [String] {
    ["-cert", certificate ?? fixture.serverCertificatePath, "-key", fixture.serverKeyPath]
}
