import AsyncSocketKit
import Foundation

/// A listening RunLoopSocket on 127.0.0.1 and a RawPeer connected to it, with the accepted socket
/// ("child1") connected and handed back. Use on the loop thread of the test.
package struct AcceptedConnection {
    package let recorder: Recorder
    package let server: RunLoopSocket
    package let child: RunLoopSocket
    package let peer: RawPeer

    package init(recorder: Recorder = Recorder(), engine: RunLoopSocket.Engine = .native) throws {
        self.recorder = recorder
        server = RunLoopSocket(delegate: recorder, engine: engine)
        recorder.name(server, "server")
        try server.acceptOnInterface("127.0.0.1", port: 0)
        peer = try RawPeer(port: server.localPort)
        let connected = runUntil { recorder.accepted.first?.isConnected == true }
        guard connected else {
            throw AsyncSocketUsageError("the test connection did not come up")
        }
        child = recorder.accepted[0]
    }

    /// Closes what is still open.
    package func tearDown() {
        child.disconnect()
        server.disconnect()
    }
}

/// The events of "child1" after its connect callbacks.
extension Recorder {
    package var childEvents: [Event] {
        Array(
            events("child1").drop { event in
                if case .connected = event { return false }
                return true
            }.dropFirst())
    }
}

/// A RunLoopSocket client ("client") connected to a RawListener's accepted peer.
package struct ClientConnection {
    package let recorder: Recorder
    package let client: RunLoopSocket
    package let peer: RawPeer

    package init(recorder: Recorder = Recorder(), preBuffering: Bool = true, engine: RunLoopSocket.Engine = .native)
        throws
    {
        self.recorder = recorder
        let listener = try RawListener()
        let client = RunLoopSocket(delegate: recorder, preBuffering: preBuffering, engine: engine)
        self.client = client
        recorder.name(client, "client")
        try client.connectToAddress(loopbackAddress(port: listener.port))
        let accepted = listener.accept()
        let connected = runUntil { client.isConnected }
        guard let accepted, connected else {
            throw AsyncSocketUsageError("the test connection did not come up")
        }
        peer = accepted
    }

    /// The client's events after its connect callbacks.
    package var events: [Recorder.Event] {
        Array(
            recorder.events("client").drop { event in
                if case .connected = event { return false }
                return true
            }.dropFirst())
    }
}
