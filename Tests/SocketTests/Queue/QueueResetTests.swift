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
            let (recorder, socket, peer) = try connectedClient(to: listener)
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

    // The read source's event carries no byte estimate, the same for a reset as for the peer's end,
    // and GCDAsyncSocket then closes with "closed by remote peer" (7), a read waiting or not; only a
    // read pass that meets the reset itself reports the POSIX error. The harness and the state table
    // (StateEventTableTests) model it so. The waiting read holds two bytes (its partial callback came)
    // and its pass is over (a `perform` on the socket queue returned) before the reset is sent.
    @Test("a reset the read source notices closes as the peer's end, a read waiting or not")
    func resetNoticedBySource() throws {
        for readWaiting in [false, true] {
            let listener = try RawListener()
            let (recorder, socket, peer) = try connectedClient(to: listener)
            if readWaiting {
                socket.readData(toLength: 100, withTimeout: -1, tag: 1)
                peer.send("ab")
                #expect(recorder.wait { recorder.events("client").contains(.partialRead(2, tag: 1)) })
                socket.perform {}
            }
            peer.reset()
            let expected = QueueRecorder.Event.disconnected(domain: QueueSocketError.errorDomain, code: 7)
            #expect(recorder.wait(timeout: 5) { recorder.events("client").last == expected })
            #expect(recorder.events("client").last == expected, "read waiting: \(readWaiting)")
            socket.disconnect()
        }
    }
}

/// A QueueSocket client connected to `listener`, its recorder, and the accepted raw peer.
private func connectedClient(to listener: RawListener) throws -> (QueueRecorder, QueueSocket, RawPeer) {
    let recorder = QueueRecorder()
    let socket = QueueSocket(delegate: recorder, delegateQueue: recorder.queue)
    recorder.name(socket, "client")
    try socket.connect(toHost: "127.0.0.1", onPort: listener.port)
    let peer = try #require(listener.accept())
    #expect(recorder.wait { !recorder.events("client").isEmpty })
    return (recorder, socket, peer)
}
