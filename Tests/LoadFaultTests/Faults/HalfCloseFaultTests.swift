import AsyncSocketKit
import Foundation
import SocketTestSupport
import Testing

@Suite("Faults: half-close both ways")
struct HalfCloseFaultTests {
    @Test(
        "RunLoopSocket, the peer shuts its write side mid-read: every byte, then willDisconnect(nil), didDisconnect",
        arguments: RunLoopSocket.Engine.allCases)
    func peerShutsWrite(engine: RunLoopSocket.Engine) async throws {
        try await onNewThread {
            let connection = try ClientConnection(engine: engine)
            let sent = patternBytes(50_000)
            connection.client.readData(toLength: 20_000, withTimeout: -1, tag: 1)
            connection.client.readData(toLength: 100_000, withTimeout: -1, tag: 2)
            connection.peer.send(sent)
            connection.peer.shutdownWrite()
            #expect(runUntil { connection.recorder.closed("client") })
            #expect(connection.events.first == .read(Data(sent[..<20_000]), tag: 1))
            #expect(connection.events.suffix(2) == [.willDisconnect(domain: nil, code: nil), .didDisconnect])
            connection.recorder.auditor.checkBytes("client", sent: sent)
            expectFreshRunLoopConnection(engine: engine)
        }
    }

    @Test(
        "RunLoopSocket, disconnectAfterWriting with 8 MiB queued: the peer reads every byte, then the end",
        arguments: RunLoopSocket.Engine.allCases)
    func disconnectAfterWriting(engine: RunLoopSocket.Engine) async throws {
        try await onNewThread {
            let connection = try ClientConnection(engine: engine)
            let sent = patternBytes(8 << 20)
            let drain = PeerDrain(connection.peer)
            connection.client.write(Data(sent[..<(1 << 20)]), withTimeout: 10, tag: 1)
            connection.client.write(Data(sent[(1 << 20)...]), withTimeout: 10, tag: 2)
            connection.client.disconnectAfterWriting()
            connection.client.write(Data("ignored".utf8), withTimeout: 10, tag: 3)
            #expect(runUntil(timeout: 20) { connection.recorder.closed("client") })
            #expect(drain.wait())
            #expect(drain.sawEndOfFile)
            #expect(drain.received == sent)
            #expect(
                connection.events.filter(\.isProgress.negated) == [
                    .wrote(tag: 1), .wrote(tag: 2), .didDisconnect,
                ])
            expectFreshRunLoopConnection(engine: engine)
        }
    }

    @Test("QueueSocket, autoDisconnectOnClosedReadStream off: every byte, readStreamClosed, then 4 MiB still go out")
    func queuePeerShutsWrite() throws {
        let connection = try QueueClientConnection()
        let recorder = connection.recorder
        connection.client.autoDisconnectOnClosedReadStream = false
        let sent = patternBytes(50_000)
        connection.client.readData(toLength: 50_000, withTimeout: -1, tag: 1)
        connection.client.readData(withTimeout: -1, tag: 2)
        connection.peer.send(sent)
        connection.peer.shutdownWrite()
        #expect(recorder.wait { recorder.events("client").contains(.readStreamClosed) })
        recorder.auditor.checkBytes("client", sent: sent)
        let reply = patternBytes(4 << 20, seed: 7)
        let drain = PeerDrain(connection.peer)
        connection.client.write(Data(reply), withTimeout: 10, tag: 3)
        connection.client.disconnectAfterWriting()
        #expect(drain.wait())
        #expect(drain.sawEndOfFile)
        #expect(drain.received == reply)
        #expect(recorder.wait { recorder.closed("client") })
        #expect(
            recorder.events("client").filter(\.isProgress.negated).dropFirst() == [
                .read(Data(sent), tag: 1), .readStreamClosed, .wrote(tag: 3),
                .disconnected(domain: nil, code: nil),
            ])
        expectFreshQueueConnection()
    }

    @Test("QueueSocket, disconnectAfterWriting with 8 MiB queued: the peer reads every byte, then the end")
    func queueDisconnectAfterWriting() throws {
        let connection = try QueueClientConnection()
        let recorder = connection.recorder
        let sent = patternBytes(8 << 20)
        let drain = PeerDrain(connection.peer)
        connection.client.write(Data(sent[..<(1 << 20)]), withTimeout: 10, tag: 1)
        connection.client.write(Data(sent[(1 << 20)...]), withTimeout: 10, tag: 2)
        connection.client.disconnectAfterWriting()
        #expect(drain.wait())
        #expect(drain.sawEndOfFile)
        #expect(drain.received == sent)
        #expect(recorder.wait { recorder.closed("client") })
        #expect(
            recorder.events("client").filter(\.isProgress.negated).dropFirst() == [
                .wrote(tag: 1), .wrote(tag: 2), .disconnected(domain: nil, code: nil),
            ])
        expectFreshQueueConnection()
    }
}
