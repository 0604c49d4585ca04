import AsyncSocketKit
import Foundation

/// The client side: reads the greeting, sends NOOP, then STARTTLS — queueing the read of the
/// server's reply and then `startTLS` behind that write, so the reply is read in plaintext and the
/// handshake starts right after it — then a line and QUIT, both encrypted.
final class PairClient: RunLoopSocketDelegate {
    let socket = RunLoopSocket()
    let settings: TLSSettings
    private var script = ["NOOP", "STARTTLS", "HELLO over TLS", "QUIT"]
    private var tlsQueued = false
    private var secured = false
    private var saidBye = false
    private var failure: String?
    /// The exit status once the conversation is over, `nil` before.
    private(set) var status: Int32?

    init(settings: TLSSettings) {
        self.settings = settings
        socket.delegate = self
    }

    func onSocket(_ sock: RunLoopSocket, didConnectToHost host: String, port: UInt16) {
        say("client", "connected to \(host):\(port)")
        readLine(from: sock)
    }

    func onSocket(_ sock: RunLoopSocket, didRead data: Data, withTag tag: Int) {
        let line = text(of: data)
        say("client", "\(channel(sock)) ← \(line)")
        if line.hasPrefix("221") {
            saidBye = true
        } else if !script.isEmpty {
            sendNext(sock)
        }
    }

    private func sendNext(_ sock: RunLoopSocket) {
        let command = script.removeFirst()
        send(command, on: sock, as: "client", afterTLSMarker: tlsQueued)
        readLine(from: sock)
        if command == "STARTTLS" {
            sock.startTLS(settings)
            tlsQueued = true
            say("client", "startTLS queued behind the STARTTLS write and the read of its reply")
        }
    }

    func onSocketDidSecure(_ sock: RunLoopSocket) {
        secured = true
        say("client", "TLS is up; the server's certificate was verified")
    }

    func onSocket(_ sock: RunLoopSocket, willDisconnectWithError error: (any Error)?) {
        failure = error.map { "\($0)" }
    }

    func onSocketDidDisconnect(_ sock: RunLoopSocket) {
        if let failure {
            say("client", "failed: \(failure)")
        }
        let success = failure == nil && secured && saidBye
        say("client", success ? "done: the conversation went from plaintext to TLS" : "done, but incomplete")
        status = success ? 0 : 1
        EventRunLoop.current.stop()
    }
}
