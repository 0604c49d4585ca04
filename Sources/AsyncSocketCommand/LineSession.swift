import AsyncSocketKit
import Foundation
import Logging

/// The connection of `asyncsocket connect`, on the main thread's loop: lines from standard input
/// (a ``StandardInputReader``) are written to the socket, lines from the socket are copied to
/// standard output as they arrive.
final class LineSession: RunLoopSocketDelegate {
    let socket: RunLoopSocket
    let tlsSettings: TLSSettings?
    let lineEnding: String
    /// Seconds to wait once standard input has ended; `nil`: until the server closes.
    let quitAfter: TimeInterval?
    let logger: Logger
    private var input: StandardInputReader?
    private var failed = false
    /// Whether the session ended without an error (a clean close by either side).
    private(set) var succeeded = false

    init(socket: RunLoopSocket, tlsSettings: TLSSettings?, lineEnding: String, quitAfter: TimeInterval?, logger: Logger)
    {
        self.socket = socket
        self.tlsSettings = tlsSettings
        self.lineEnding = lineEnding
        self.quitAfter = quitAfter
        self.logger = logger
        socket.delegate = self
    }

    func onSocket(_ sock: RunLoopSocket, didConnectToHost host: String, port: UInt16) {
        logger.info("connected", metadata: ["peer": "\(host):\(port)"])
        if let tlsSettings {
            sock.startTLS(tlsSettings)
        }
        sock.readData(to: RunLoopSocket.lfData, withTimeout: -1, tag: 0)
        input = StandardInputReader(
            loop: .current,
            line: { [weak self] line in self?.send(line) },
            end: { [weak self] in self?.inputEnded() })
    }

    private func send(_ line: String) {
        socket.write(Data((line + lineEnding).utf8), withTimeout: -1, tag: 0)
    }

    private func inputEnded() {
        logger.debug("standard input ended")
        guard let quitAfter else { return }
        EventRunLoop.current.addTimer(after: quitAfter) { [weak self] _ in
            self?.socket.disconnectAfterWriting()
        }
    }

    func onSocketDidSecure(_ sock: RunLoopSocket) {
        logger.info("TLS is up", metadata: ["alpn": "\(sock.negotiatedALPN ?? "none")"])
    }

    func onSocket(_ sock: RunLoopSocket, didRead data: Data, withTag tag: Int) {
        FileHandle.standardOutput.write(data)
        sock.readData(to: RunLoopSocket.lfData, withTimeout: -1, tag: 0)
    }

    func onSocket(_ sock: RunLoopSocket, willDisconnectWithError error: (any Error)?) {
        if let rest = sock.unreadData(), !rest.isEmpty {
            FileHandle.standardOutput.write(rest)
        }
        if let error {
            logger.error("connection failed", metadata: ["error": "\(error)"])
            failed = true
        }
    }

    func onSocketDidDisconnect(_ sock: RunLoopSocket) {
        logger.info("disconnected")
        succeeded = !failed
        input?.stop()
        input = nil
        EventRunLoop.current.stop()
    }
}
