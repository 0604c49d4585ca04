import AsyncSocketKit
import Foundation
import SocketTestSupport
import Testing

@Suite("The socket auditor catches what it is meant to catch")
struct SocketAuditorTests {
    private final class Stand {}

    @Test("a callback after the final disconnect, a second final disconnect, a second willDisconnect")
    func disconnectInvariant() {
        let auditor = SocketAuditor(reportsIssues: false)
        let socket = Stand()
        auditor.observe(socket, label: "s", .opening)
        auditor.observe(socket, label: "s", .callback("connected"))
        auditor.observe(socket, label: "s", .errorClose)
        auditor.observe(socket, label: "s", .errorClose)
        auditor.observe(socket, label: "s", .finalDisconnect)
        #expect(auditor.violations == ["s: a second willDisconnect"])
        auditor.observe(socket, label: "s", .callback("read"))
        auditor.observe(socket, label: "s", .finalDisconnect)
        #expect(
            auditor.violations == [
                "s: a second willDisconnect", "s: read after the final disconnect", "s: a second final disconnect",
            ])
    }

    @Test("a socket used again starts a new life: by a new connect, or as the test says")
    func reuse() {
        let auditor = SocketAuditor(reportsIssues: false)
        let client = Stand()
        let listener = Stand()
        auditor.observe(client, label: "client", .finalDisconnect)
        auditor.observe(client, label: "client", .opening)
        auditor.observe(client, label: "client", .callback("connected"))
        auditor.observe(client, label: "client", .finalDisconnect)
        auditor.observe(listener, label: "server", .finalDisconnect)
        auditor.restarted(listener)
        auditor.observe(listener, label: "server", .finalDisconnect)
        #expect(auditor.violations.isEmpty)
        auditor.checkClosed("client")
    }

    @Test("a descriptor still naming the socket at its final disconnect is a violation; a closed one is not")
    func descriptors() {
        let auditor = SocketAuditor(reportsIssues: false)
        let (kept, closed) = makeSocketPair()
        defer { close(kept) }
        let socket = Stand()
        auditor.track(kept, of: socket, label: "s")
        auditor.track(closed, of: socket, label: "s")
        #expect(auditor.trackedDescriptors("s") == [kept, closed].sorted())
        close(closed)
        auditor.observe(socket, label: "s", .finalDisconnect)
        #expect(auditor.violations.count == 1)
        #expect(auditor.violations.first?.hasPrefix("s: descriptor \(kept) (socket:[") == true)
        #expect(auditor.trackedDescriptors("s").isEmpty)
    }

    @Test("bytes: reads and unreadData in order make up what was sent, less what was dropped")
    func bytes() {
        let auditor = SocketAuditor(reportsIssues: false)
        let socket = Stand()
        auditor.delivered(Data("hello ".utf8), to: socket, label: "s")
        auditor.delivered(Data("wor".utf8), to: socket, label: "s")
        #expect(auditor.deliveredBytes("s") == Array("hello wor".utf8))
        auditor.checkBytes("s", sent: Array("hello world".utf8), dropped: 2)
    }

    @Test("RunLoopSocket: the recorder watches the connection's descriptor and counts its bytes")
    func runLoopSocketWiring() async throws {
        try await onNewThread {
            let connection = try ClientConnection()
            let auditor = connection.recorder.auditor
            #expect(auditor.trackedDescriptors("client") == [connection.client.socketFD])
            connection.client.readData(toLength: 4, withTimeout: -1, tag: 1)
            connection.peer.send("ping and more")
            #expect(runUntil { connection.events.contains(.read(Data("ping".utf8), tag: 1)) })
            connection.peer.reset()
            #expect(runUntil { connection.events.contains(.didDisconnect) })
            auditor.checkBytes("client", sent: Array("ping and more".utf8))
            auditor.checkClosed("client")
            #expect(auditor.trackedDescriptors("client").isEmpty)
            #expect(auditor.violations.isEmpty)
        }
    }

    @Test("QueueSocket: the recorder watches both ends' descriptors and counts their bytes")
    func queueSocketWiring() throws {
        let pair = try QueuePair()
        let auditor = pair.recorder.auditor
        #expect(
            pair.recorder.wait {
                auditor.trackedDescriptors("client").count == 1 && auditor.trackedDescriptors("child1").count == 1
            })
        #expect(auditor.trackedDescriptors("server").count >= 1)
        pair.client.readData(toLength: 5, withTimeout: -1, tag: 1)
        pair.child.write(Data("hello".utf8), withTimeout: -1, tag: 2)
        #expect(pair.recorder.wait { pair.recorder.events("client").contains(.read(Data("hello".utf8), tag: 1)) })
        pair.tearDown()
        let labels = ["client", "child1", "server"]
        #expect(
            pair.recorder.wait {
                labels.allSatisfy { label in
                    pair.recorder.events(label).contains { if case .disconnected = $0 { true } else { false } }
                }
            })
        auditor.checkBytes("client", sent: Array("hello".utf8))
        for label in labels {
            auditor.checkClosed(label)
        }
        #expect(auditor.violations.isEmpty)
    }
}
