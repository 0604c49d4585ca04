import ArgumentParser
import AsyncSocketKit
import Foundation
import Logging

/// `asyncsocket udp-echo`: every datagram comes back to its sender.
struct UdpEchoCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "udp-echo",
        abstract: "Serve UDP echo on RunLoopUdpSocket or QueueUdpSocket: every datagram is sent back to its sender.",
        discussion: """
            Runs until interrupted (or --count datagrams). Try it with `asyncsocket udp-send 127.0.0.1 9000 hello`.
            """
    )

    @Option(help: "The socket class: legacy (RunLoopUdpSocket) or queue (QueueUdpSocket).")
    var api: SocketAPI = .legacy

    @Option(help: "Who watches RunLoopUdpSocket's descriptors (--api legacy): the loop, or libdispatch (queue-core).")
    var engine: EngineChoice = .native

    @Option(help: "The address to bind (every address of both families when not given).")
    var host: String?

    @Option(help: "The port to bind (0: a free one, printed).")
    var port: UInt16 = 9000

    @Option(help: "Close and exit after echoing this many datagrams.")
    var count: Int?

    @Option(help: "The largest datagram taken (maxReceiveBufferSize; maxReceiveIPv4/IPv6BufferSize).")
    var maxDatagram: UInt16 = 65_507

    @OptionGroup var logging: LoggingOptions

    func validate() throws {
        if let count, count < 1 { throw ValidationError("--count must be at least 1") }
        if api == .queue && engine != .native { throw ValidationError("--engine goes with --api legacy") }
    }

    func run() throws {
        let logger = logging.makeLogger(label: "asyncsocket.udp-echo")
        if api == .queue {
            let echo = QueueUdpEcho(remaining: count, logger: logger)
            echo.socket.maxReceiveIPv4BufferSize = maxDatagram
            echo.socket.maxReceiveIPv6BufferSize = UInt32(maxDatagram)
            try echo.socket.bind(toPort: port, interface: host)
            print("udp-echo: listening on port \(echo.socket.localPort)")
            fflush(nil)
            try echo.socket.beginReceiving()
            dispatchMain()
        }
        let echo = UdpEcho(remaining: count, engine: engine.engine, logger: logger)
        echo.socket.maxReceiveBufferSize = UInt32(maxDatagram)
        try echo.socket.bind(toAddress: host, port: port)
        print("udp-echo: listening on port \(echo.socket.localPort)")
        fflush(nil)
        echo.socket.receive(withTimeout: -1, tag: 0)
        EventRunLoop.current.run()
    }
}

/// The echo: one receive queued at a time; each datagram sent back, then the next receive.
final class UdpEcho: RunLoopUdpSocketDelegate {
    let socket: RunLoopUdpSocket
    private var remaining: Int?
    private let logger: Logger

    init(remaining: Int?, engine: RunLoopSocket.Engine, logger: Logger) {
        self.remaining = remaining
        self.logger = logger
        socket = RunLoopUdpSocket(engine: engine, logger: logger)
        socket.delegate = self
    }

    func onUdpSocket(
        _ sock: RunLoopUdpSocket, didReceive data: Data, withTag tag: Int, fromHost host: String, port: UInt16
    ) -> Bool {
        logger.debug("echoing", metadata: ["bytes": "\(data.count)", "peer": "\(host):\(port)"])
        sock.send(data, toHost: host, port: port, withTimeout: 5, tag: 0)
        if let left = remaining {
            remaining = left - 1
            if left == 1 {
                sock.closeAfterSending()
                return true
            }
        }
        sock.receive(withTimeout: -1, tag: 0)
        return true
    }

    func onUdpSocket(_ sock: RunLoopUdpSocket, didNotSendDataWithTag tag: Int, dueToError error: any Error) {
        logger.warning("could not echo", metadata: ["error": "\(error.localizedDescription)"])
    }

    func onUdpSocket(_ sock: RunLoopUdpSocket, didNotReceiveDataWithTag tag: Int, dueToError error: any Error) {
        logger.warning("receive failed", metadata: ["error": "\(error.localizedDescription)"])
        sock.receive(withTimeout: -1, tag: 0)
    }

    func onUdpSocketDidClose(_ sock: RunLoopUdpSocket) {
        print("udp-echo: closed")
        fflush(nil)
        Foundation.exit(0)
    }
}
