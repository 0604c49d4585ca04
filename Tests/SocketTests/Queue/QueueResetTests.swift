import AsyncSocketKit
import Foundation
import SocketTestSupport
import Testing

@Suite("QueueSocket: a peer's reset is always reported")
struct QueueResetTests {
    // A reset arriving before the new connection's read source is registered used to be lost on
    // Linux (libdispatch kept the connect attempt's record of the descriptor number after the
    // hang-up, and the read source's registration on that number failed): about one connection in
    // five never heard of it. Many short connections make the window likely.
    @Test("a reset right after connecting reaches a waiting read as a disconnect, every time")
    func resetRightAfterConnect() throws {
        var unreported = 0
        for _ in 0..<200 {
            let listener = try RawListener()
            let recorder = QueueRecorder()
            let socket = QueueSocket(delegate: recorder, delegateQueue: recorder.queue)
            recorder.name(socket, "client")
            try socket.connect(toHost: "127.0.0.1", onPort: listener.port)
            let peer = try #require(listener.accept())
            #expect(recorder.wait { !recorder.events("client").isEmpty })
            socket.readData(toLength: 100, withTimeout: -1, tag: 1)
            peer.reset()
            let reported = recorder.wait(timeout: 5) {
                recorder.events("client").contains { if case .disconnected = $0 { true } else { false } }
            }
            if !reported {
                unreported += 1
                socket.disconnect()
            }
        }
        #expect(unreported == 0)
    }
}
