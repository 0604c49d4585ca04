import AsyncSocketKit
import Foundation

/// A listening QueueSocket and what it needs.
package struct QueueServer {
    package let recorder = QueueRecorder()
    package let socket: QueueSocket

    /// Listens on `interface`; `belowEphemeralRange` picks a port the kernel will not hand to another
    /// socket once this one closes (see `listenBelowEphemeralRange`), otherwise the kernel picks one.
    package init(
        interface: String? = "127.0.0.1", ipv4: Bool = true, ipv6: Bool = true, belowEphemeralRange: Bool = false
    ) throws {
        socket = QueueSocket(delegate: recorder, delegateQueue: recorder.queue)
        recorder.name(socket, "server")
        socket.isIPv4Enabled = ipv4
        socket.isIPv6Enabled = ipv6
        if belowEphemeralRange {
            let socket = socket
            _ = try listenBelowEphemeralRange { try socket.accept(onInterface: interface, port: $0) }
        } else {
            try socket.accept(onInterface: interface, port: 0)
        }
    }

    package var port: UInt16 { socket.localPort }
}

/// A connected client/child pair of QueueSockets on loopback.
package struct QueuePair {
    package let server: QueueServer
    package let client: QueueSocket
    package let child: QueueSocket
    package var recorder: QueueRecorder { server.recorder }

    package init() throws {
        server = try QueueServer()
        client = QueueSocket(delegate: server.recorder, delegateQueue: server.recorder.queue)
        server.recorder.name(client, "client")
        try client.connect(toHost: "127.0.0.1", onPort: server.port)
        let recorder = server.recorder
        let client = self.client
        guard recorder.wait(until: { recorder.accepted.count == 1 && client.isConnected }) else {
            throw QueueSocketError(.other, "the test connection did not come up")
        }
        child = recorder.accepted[0]
    }

    package func tearDown() {
        client.disconnect()
        child.disconnect()
        server.socket.disconnect()
    }
}
