import Foundation

/// An `openssl s_server` or `s_client` process for the other end of a TLS test, with its output
/// collected as it arrives (a ``ChildProcess``). Every wait has a deadline; the process is stopped
/// when the peer goes away.
package final class OpenSSLPeer: Sendable {
    private let child: ChildProcess

    /// Starts `openssl` with `arguments`.
    package init(_ arguments: [String]) throws {
        child = try ChildProcess(path: "/usr/bin/openssl", arguments)
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

    /// Everything the process printed so far: its standard output, then its standard error.
    package var text: String {
        child.output + child.errorOutput
    }

    /// Waits until the output contains `needle` or `timeout` passes.
    @discardableResult
    package func wait(for needle: String, timeout: TimeInterval = 10) -> Bool {
        child.wait(for: needle, timeout: timeout)
    }

    /// Sends `text` to the process's standard input.
    package func send(_ text: String) {
        child.send(text)
    }

    /// Closes its standard input.
    package func closeInput() {
        child.closeInput()
    }

    /// Ends the process now (for servers, which never end by themselves).
    package func stop() {
        child.stop()
    }

    /// Waits for the process to end, stopping it after `timeout`.
    package func finish(timeout: TimeInterval = 5) {
        closeInput()
        if child.waitForExit(timeout: timeout) == nil {
            child.stop()
        }
    }
}

/// The s_server arguments for the test certificates.
package func serverArguments(_ fixture: TLSFixture, certificate: String? = nil) -> [String] {
    ["-cert", certificate ?? fixture.serverCertificatePath, "-key", fixture.serverKeyPath]
}
