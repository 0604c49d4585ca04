import AsyncSocketKit
import Foundation
import SocketTestSupport
import Testing

// The prebuffer limit on every face, over loopback: a peer that sends without ever sending the
// separator closes the socket with the face's max-out error once the read holds the limit, instead of
// growing the process; a negative limit is EINVAL and changes nothing.

private let limit = 64 * 1024
/// Far more than the limit, never a newline.
private let flood = [UInt8](repeating: 0x61, count: 1 << 20)

/// Sends `flood` from another thread (the socket closes on the way: the send may stop with EPIPE).
private func sendFlood(_ peer: RawPeer) {
    // Only this thread uses the peer until the test reads the socket's close.
    nonisolated(unsafe) let peer = peer
    Thread.detachNewThread { peer.send(flood) }
}

@Suite("Prebuffer limit: a read to a separator holds at most the limit, on every face")
struct PrebufferLimitFaceTests {
    @Test(
        "RunLoopSocket: readMaxedOut once the read holds the limit; the read never held more",
        arguments: RunLoopSocket.Engine.allCases)
    func runLoopSocket(engine: RunLoopSocket.Engine) async throws {
        try await onNewThread {
            let connection = try AcceptedConnection(engine: engine)
            defer { connection.tearDown() }
            let socket = connection.child
            let error = #expect(throws: NSError.self) { try socket.setMaxPrebufferSize(-1) }
            #expect(error?.code == Int(EINVAL) && socket.maxPrebufferSize == 0)
            try socket.setMaxPrebufferSize(limit)
            #expect(socket.maxPrebufferSize == limit)
            socket.readData(to: RunLoopSocket.lfData, withTimeout: -1, tag: 1)
            sendFlood(connection.peer)
            #expect(runUntil { connection.recorder.events("child1").contains(.didDisconnect) })
            let closing = connection.recorder.events("child1").first {
                if case .willDisconnect = $0 { true } else { false }
            }
            #expect(
                closing
                    == .willDisconnect(
                        domain: AsyncSocketError.errorDomain, code: AsyncSocketError.Code.readMaxedOut.rawValue))
            let partial = connection.recorder.events("child1").reduce(0) { total, event in
                if case .partialRead(let count, _) = event { total + count } else { total }
            }
            #expect(partial == limit)
        }
    }

    @Test("QueueSocket: readMaxedOut once the read holds the limit")
    func queueSocket() throws {
        let pair = try QueuePair()
        defer { pair.tearDown() }
        #expect(throws: NSError.self) { try pair.child.setMaxPrebufferSize(-5) }
        try pair.child.setMaxPrebufferSize(limit)
        pair.child.readData(to: Data("\n".utf8), withTimeout: -1, tag: 1)
        let flooding = Data(flood)
        pair.client.write(flooding, withTimeout: -1, tag: 9)
        let expected = QueueRecorder.Event.disconnected(
            domain: QueueSocketError.errorDomain, code: QueueSocketError.Code.readMaxedOut.rawValue)
        #expect(pair.recorder.wait(timeout: 10) { pair.recorder.events("child1").contains(expected) })
    }

    @Test("AsyncSocketConnection: read(through:) and lines() fail with readMaxedOut past the limit")
    func asyncConnection() async throws {
        try await onNewThread {
            let (_, peer, server) = try await asyncRawPair()
            #expect(throws: NSError.self) { try server.setMaxPrebufferSize(-1) }
            try server.setMaxPrebufferSize(limit)
            #expect(server.maxPrebufferSize == limit)
            sendFlood(peer)
            let error = await #expect(throws: QueueSocketError.self) {
                try await within { try await server.read(through: Data("\n".utf8)) }
            }
            #expect(error?.code == .readMaxedOut)
        }
    }
}
