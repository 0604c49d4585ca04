import Foundation

/// An `openssl s_server` or `s_client` process for the other end of a TLS test, with its output
/// collected as it arrives. Every wait has a deadline; the process is killed when the peer goes away.
package final class OpenSSLPeer: @unchecked Sendable {
    private let process = Process()
    private let input = Pipe()
    private let output = Pipe()
    private let condition = NSCondition()
    private var collected = Data()

    /// Starts `openssl` with `arguments` (stdout and stderr together).
    package init(_ arguments: [String]) throws {
        process.executableURL = URL(fileURLWithPath: "/usr/bin/openssl")
        process.arguments = arguments
        process.standardInput = input
        process.standardOutput = output
        process.standardError = output
        output.fileHandleForReading.readabilityHandler = { [weak self] handle in
            let data = handle.availableData
            guard let self, !data.isEmpty else { return }
            condition.withLock {
                collected.append(data)
                condition.broadcast()
            }
        }
        try process.run()
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
        output.fileHandleForReading.readabilityHandler = nil
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
        condition.withLock { String(decoding: collected, as: UTF8.self) }
    }

    /// Waits until the output contains `needle` or `timeout` passes.
    @discardableResult
    package func wait(for needle: String, timeout: TimeInterval = 10) -> Bool {
        let deadline = Date(timeIntervalSinceNow: timeout)
        condition.lock()
        defer { condition.unlock() }
        while !String(decoding: collected, as: UTF8.self).contains(needle) {
            if !condition.wait(until: deadline) { return String(decoding: collected, as: UTF8.self).contains(needle) }
        }
        return true
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
            condition.withLock { _ = condition.wait(until: Date(timeIntervalSinceNow: 0.05)) }
        }
        kill()
    }
}

/// The s_server arguments for the test certificates.
package func serverArguments(_ fixture: TLSFixture, certificate: String? = nil) -> [String] {
    ["-cert", certificate ?? fixture.serverCertificatePath, "-key", fixture.serverKeyPath]
}
