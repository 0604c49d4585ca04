import ArgumentParser
import AsyncSocketKit
import Foundation
import Logging

/// `asyncsocket udp-send`: datagrams to a host, each reply printed.
struct UdpSendCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "udp-send",
        abstract: "Send datagrams with RunLoopUdpSocket and print the reply to each.",
        discussion: """
            Each MESSAGE (or, without any, each line of standard input) goes out as one datagram; the reply \
            to it is printed before the next one is sent. Exits 0 when every datagram got a reply, 1 when a \
            reply did not come within --timeout or a send failed.
            """
    )

    @Argument(help: "The host to send to (a name or a numeric address).")
    var host: String

    @Argument(help: "The port to send to.")
    var port: UInt16

    @Argument(help: "The datagrams to send (standard input's lines when none).")
    var messages: [String] = []

    @Option(help: "Seconds to wait for each reply.")
    var timeout: Double = 2

    @Flag(help: "Send without waiting for replies.")
    var noReply = false

    @OptionGroup var logging: LoggingOptions

    func run() throws {
        let logger = logging.makeLogger(label: "asyncsocket.udp-send")
        var lines = messages
        if lines.isEmpty {
            while let line = readLine() {
                lines.append(line)
            }
        }
        let sender = UdpSender(messages: lines, timeout: timeout, waitsForReplies: !noReply, logger: logger)
        try sender.socket.connect(toHost: host, port: port)
        sender.sendNext()
        EventRunLoop.current.run()
        throw ExitCode(sender.succeeded ? 0 : 1)
    }
}

/// Sends one message, waits for its reply (or only for the send), then the next; closes at the end.
final class UdpSender: RunLoopUdpSocketDelegate {
    let socket: RunLoopUdpSocket
    private var messages: [String]
    private let timeout: TimeInterval
    private let waitsForReplies: Bool
    private let logger: Logger
    private(set) var succeeded = true

    init(messages: [String], timeout: TimeInterval, waitsForReplies: Bool, logger: Logger) {
        self.messages = messages
        self.timeout = timeout
        self.waitsForReplies = waitsForReplies
        self.logger = logger
        socket = RunLoopUdpSocket(logger: logger)
        socket.delegate = self
    }

    func sendNext() {
        guard !messages.isEmpty else {
            socket.close()
            return
        }
        let message = messages.removeFirst()
        guard socket.send(Data(message.utf8), withTimeout: timeout, tag: 0) else {
            // An empty line: a datagram cannot be empty (as in the original).
            logger.warning("not sent: a datagram cannot be empty")
            sendNext()
            return
        }
        if waitsForReplies {
            socket.receive(withTimeout: timeout, tag: 0)
        }
    }

    func onUdpSocket(_ sock: RunLoopUdpSocket, didSendDataWithTag tag: Int) {
        if !waitsForReplies {
            sendNext()
        }
    }

    func onUdpSocket(_ sock: RunLoopUdpSocket, didNotSendDataWithTag tag: Int, dueToError error: any Error) {
        print("udp-send: not sent: \(error.localizedDescription)")
        succeeded = false
        sock.close()
    }

    func onUdpSocket(
        _ sock: RunLoopUdpSocket, didReceive data: Data, withTag tag: Int, fromHost host: String, port: UInt16
    ) -> Bool {
        print(String(decoding: data, as: UTF8.self))
        fflush(nil)
        sendNext()
        return true
    }

    func onUdpSocket(_ sock: RunLoopUdpSocket, didNotReceiveDataWithTag tag: Int, dueToError error: any Error) {
        print("udp-send: no reply: \(error.localizedDescription)")
        succeeded = false
        sock.close()
    }

    func onUdpSocketDidClose(_ sock: RunLoopUdpSocket) {
        EventRunLoop.current.stop()
    }
}
