import AsyncSocketKit
import Foundation

/// The server side: greets in plaintext, answers NOOP and other commands, and on STARTTLS answers
/// "220 Go ahead" and queues `startTLS` right behind that write, so the reply still travels in
/// plaintext and everything after it is encrypted. QUIT ends the connection.
final class PairServer: RunLoopSocketDelegate {
    let listener = RunLoopSocket()
    let settings: TLSSettings
    private var connections: [RunLoopSocket] = []

    init(settings: TLSSettings) {
        self.settings = settings
        listener.delegate = self
    }

    func onSocket(_ sock: RunLoopSocket, didAcceptNewSocket newSocket: RunLoopSocket) {
        connections.append(newSocket)
    }

    func onSocket(_ sock: RunLoopSocket, didConnectToHost host: String, port: UInt16) {
        say("server", "client \(host):\(port) connected")
        send("220 StartTLSPair ready", on: sock, as: "server")
        readLine(from: sock)
    }

    func onSocket(_ sock: RunLoopSocket, didRead data: Data, withTag tag: Int) {
        let line = text(of: data)
        say("server", "\(channel(sock)) ← \(line)")
        switch line.uppercased() {
        case "STARTTLS" where sock.isSecure:
            send("503 TLS is up already", on: sock, as: "server")
        case "STARTTLS":
            send("220 Go ahead", on: sock, as: "server")
            sock.startTLS(settings)
            say("server", "startTLS queued behind the \"220 Go ahead\" write")
        case "QUIT":
            send("221 Bye", on: sock, as: "server")
            sock.disconnectAfterWriting()
            return
        case "NOOP":
            send("250 OK", on: sock, as: "server")
        default:
            send("250 You said \"\(line)\"", on: sock, as: "server")
        }
        readLine(from: sock)
    }

    func onSocketDidSecure(_ sock: RunLoopSocket) {
        say("server", "TLS is up")
    }

    func onSocket(_ sock: RunLoopSocket, willDisconnectWithError error: (any Error)?) {
        if let error {
            say("server", "connection failed: \(error)")
        }
    }

    func onSocketDidDisconnect(_ sock: RunLoopSocket) {
        if sock !== listener {
            say("server", "connection closed")
        }
        connections.removeAll { $0 === sock }
    }

    /// Closes every connection and the listener.
    func stop() {
        for connection in connections {
            connection.disconnect()
        }
        listener.disconnect()
    }
}
