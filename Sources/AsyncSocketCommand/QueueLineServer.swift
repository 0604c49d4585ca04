import AsyncSocketKit
import Dispatch
import Foundation
import Logging

/// A connection of a ``QueueLineServer``: a `QueueSocket`, which takes writes from any thread.
final class QueueConnection: LineConnection {
    let socket: QueueSocket
    let name: String

    init(socket: QueueSocket, name: String) {
        self.socket = socket
        self.name = name
    }

    func send(_ data: Data) {
        socket.write(data, withTimeout: QueueLineServer.writeTimeout, tag: 0)
    }
}

/// Serves a ``LineService`` with `QueueSocket`s. Each accepted socket has its own socket queue; every
/// delegate call arrives on the server's one serial delegate queue, the only place its state is
/// touched.
final class QueueLineServer: QueueSocketDelegate, @unchecked Sendable {
    static let writeTimeout: TimeInterval = 30
    static let maximumLineLength = 64 * 1024

    let delegateQueue = DispatchQueue(label: "asyncsocket.server.delegate")
    let service: any LineService
    let tlsSettings: TLSSettings?
    let logger: Logger
    private var listener: QueueSocket?
    private var connections: [ObjectIdentifier: QueueConnection] = [:]

    init(service: any LineService, tlsSettings: TLSSettings?, logger: Logger) {
        self.service = service
        self.tlsSettings = tlsSettings
        self.logger = logger
    }

    /// Starts listening; returns the port. `prepare` sees the listener before it listens.
    func start(interface: String, port: UInt16, prepare: (QueueSocket) -> Void = { _ in }) throws -> UInt16 {
        let listener = QueueSocket(delegate: self, delegateQueue: delegateQueue, logger: logger)
        prepare(listener)
        try listener.accept(onInterface: interface, port: port)
        delegateQueue.sync { self.listener = listener }
        return listener.localPort
    }

    // Accepted sockets are connected already: QueueSocket never calls didConnectToHost for them.
    func socket(_ sock: QueueSocket, didAcceptNewSocket newSocket: QueueSocket) {
        let connection = QueueConnection(
            socket: newSocket, name: "\(newSocket.connectedHost ?? "?"):\(newSocket.connectedPort)")
        connections[ObjectIdentifier(newSocket)] = connection
        logger.info("client connected", metadata: ["client": "\(connection.name)"])
        if let tlsSettings {
            newSocket.startTLS(tlsSettings)
        }
        service.connected(connection)
        readLine(newSocket)
    }

    func socket(_ sock: QueueSocket, didRead data: Data, withTag tag: Int) {
        guard let connection = connections[ObjectIdentifier(sock)] else { return }
        service.received(data, from: connection)
        readLine(sock)
    }

    private func readLine(_ sock: QueueSocket) {
        sock.readData(to: QueueSocket.lfData, withTimeout: -1, maxLength: Self.maximumLineLength, tag: 0)
    }

    func socketDidSecure(_ sock: QueueSocket) {
        logger.debug("TLS is up", metadata: ["client": "\(connections[ObjectIdentifier(sock)]?.name ?? "?")"])
    }

    func socketDidDisconnect(_ sock: QueueSocket, withError error: (any Error)?) {
        guard let connection = connections.removeValue(forKey: ObjectIdentifier(sock)) else { return }
        logger.info(
            "client disconnected",
            metadata: ["client": "\(connection.name)", "error": "\(error.map { "\($0)" } ?? "none")"])
        service.disconnected(connection)
    }
}
