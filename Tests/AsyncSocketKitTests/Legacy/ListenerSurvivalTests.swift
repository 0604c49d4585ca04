import AsyncSocketKit
import Foundation
import Testing

@Suite("RunLoopSocket: a listener outlives its children (2.5)")
struct ListenerSurvivalTests {
    @Test(
        "a peer that connects and closes at once is reported on its child; the listener keeps accepting",
        arguments: RunLoopSocket.Engine.allCases)
    func peerClosingRightAway(engine: RunLoopSocket.Engine) async throws {
        try await onNewThread {
            let recorder = Recorder()
            let server = RunLoopSocket(delegate: recorder, engine: engine)
            recorder.name(server, "server")
            try server.acceptOnInterface("127.0.0.1", port: 0)
            let port = server.localPort
            do {
                _ = try RawPeer(port: port)
            }
            #expect(runUntil { recorder.contains("child1", .didDisconnect) })
            #expect(recorder.events("child1").first == .willConnect)
            #expect(!recorder.events("server").contains(.didDisconnect))
            let peer = try RawPeer(port: port)
            recorder.onConnect = { sock in sock.readData(to: RunLoopSocket.lfData, withTimeout: 10, tag: 1) }
            recorder.onRead = { sock, data, _ in sock.write(data, withTimeout: 10, tag: 2) }
            #expect(runUntil { recorder.events("child2").count == 2 })
            peer.send("ping\n")
            var echoed: [UInt8] = []
            #expect(
                runUntil {
                    echoed += peer.receive(count: 5 - echoed.count, timeout: 0.01)
                    return echoed.count == 5
                })
            #expect(echoed == Array("ping\n".utf8))
            server.disconnect()
        }
    }
}
