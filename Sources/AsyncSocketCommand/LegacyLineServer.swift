import AsyncSocketCore
import AsyncSocketKit
import Foundation
import Logging
import Synchronization

// A RunLoopSocket line server. The listener lives on the main thread's loop; with workers, each
// accepted socket is handed to the next worker loop in onSocket(_:wantsRunLoopForNewSocket:), and
// every later callback of that connection arrives on the worker's thread. The server is the
// delegate of all of them, so what it keeps is behind a mutex; a line for a connection on another
// loop travels there with EventRunLoop.perform.

/// A connection of a ``LegacyLineServer``: its socket and the loop the socket lives on.
final class LegacyConnection: LineConnection {
    let socket: RunLoopSocket
    let loop: EventRunLoop
    let name: String

    init(socket: RunLoopSocket, loop: EventRunLoop, name: String) {
        self.socket = socket
        self.loop = loop
        self.name = name
    }

    func send(_ data: Data) {
        if loop.isCurrent {
            socket.write(data, withTimeout: LegacyLineServer.writeTimeout, tag: 0)
        } else {
            loop.perform { [socket] in socket.write(data, withTimeout: LegacyLineServer.writeTimeout, tag: 0) }
        }
    }
}

/// Serves a ``LineService`` with `RunLoopSocket`s, on the main loop or spread over worker loops.
final class LegacyLineServer: RunLoopSocketDelegate, Sendable {
    static let writeTimeout: TimeInterval = 30
    static let maximumLineLength = 64 * 1024

    let listener: RunLoopSocket
    let service: any LineService
    let tlsSettings: TLSSettings?
    let workers: [EventRunLoopThread]
    let logger: Logger
    private let nextWorker = Atomic<Int>(0)
    /// Accepted sockets until they disconnect, and their connection once connected.
    private let sockets = Lock<[ObjectIdentifier: (socket: RunLoopSocket, connection: LegacyConnection?)]>([:])

    init(
        service: any LineService, factory: RunLoopSocketFactory, tlsSettings: TLSSettings?, workerCount: Int,
        logger: Logger
    ) throws {
        listener = factory.makeSocket()
        self.service = service
        self.tlsSettings = tlsSettings
        workers = (0..<workerCount).map { EventRunLoopThread(name: "worker-\($0 + 1)") }
        self.logger = logger
        listener.delegate = self
    }

    /// Starts listening; returns the port.
    func start(interface: String, port: UInt16) throws -> UInt16 {
        try listener.acceptOnInterface(interface, port: port)
        return listener.localPort
    }

    func onSocket(_ sock: RunLoopSocket, didAcceptNewSocket newSocket: RunLoopSocket) {
        sockets.withLock { $0[ObjectIdentifier(newSocket)] = (newSocket, nil) }
    }

    func onSocket(_ sock: RunLoopSocket, wantsRunLoopForNewSocket newSocket: RunLoopSocket) -> EventRunLoop? {
        guard !workers.isEmpty else { return nil }
        let index = nextWorker.wrappingAdd(1, ordering: .relaxed).oldValue % workers.count
        return workers[index].loop
    }

    func onSocket(_ sock: RunLoopSocket, didConnectToHost host: String, port: UInt16) {
        let connection = LegacyConnection(socket: sock, loop: .current, name: "\(host):\(port)")
        sockets.withLock { $0[ObjectIdentifier(sock)]?.connection = connection }
        logger.info("client connected", metadata: ["client": "\(connection.name)", "loop": "\(connection.loop)"])
        if let tlsSettings {
            sock.startTLS(tlsSettings)
        }
        service.connected(connection)
        readLine(sock)
    }

    func onSocket(_ sock: RunLoopSocket, didRead data: Data, withTag tag: Int) {
        guard let connection = sockets.withLock({ $0[ObjectIdentifier(sock)]?.connection }) else { return }
        service.received(data, from: connection)
        readLine(sock)
    }

    private func readLine(_ sock: RunLoopSocket) {
        sock.readData(to: RunLoopSocket.lfData, withTimeout: -1, maxLength: Self.maximumLineLength, tag: 0)
    }

    func onSocketDidSecure(_ sock: RunLoopSocket) {
        logger.debug("TLS is up", metadata: ["client": "\(sock.connectedHost ?? "?"):\(sock.connectedPort)"])
    }

    func onSocket(_ sock: RunLoopSocket, willDisconnectWithError error: (any Error)?) {
        if let error, sock !== listener {
            logger.info("connection failed", metadata: ["error": "\(error)"])
        }
    }

    func onSocketDidDisconnect(_ sock: RunLoopSocket) {
        guard let entry = sockets.withLock({ $0.removeValue(forKey: ObjectIdentifier(sock)) }) else { return }
        if let connection = entry.connection {
            logger.info("client disconnected", metadata: ["client": "\(connection.name)"])
            service.disconnected(connection)
        }
    }
}
