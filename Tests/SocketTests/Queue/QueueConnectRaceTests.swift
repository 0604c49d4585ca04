import AsyncSocketKit
import Foundation
import SocketTestSupport
import Testing

// The connect race (ConnectRace, carried out by ConnectDriver for every face and engine) over real
// loopback sockets: "localhost" gives QueueSocket both loopback addresses without a lookup, so each
// step of the race can be provoked — an address that never answers (a full backlog), one that
// refuses, the preference between families.
@Suite("QueueSocket: the connect race over both loopback addresses")
struct QueueConnectRaceTests {
    static func disconnected(_ recorder: QueueRecorder) -> Bool {
        if case .disconnected = recorder.events("client").last { true } else { false }
    }

    /// Closes both sockets and checks the client's descriptors are gone once it reports its close.
    static func closeBoth(_ client: QueueSocket, _ server: QueueSocket, _ recorder: QueueRecorder) {
        client.disconnect()
        server.disconnect()
        #expect(recorder.wait { disconnected(recorder) })
        recorder.auditor.checkClosed("client")
    }

    static func connectedEvent(_ recorder: QueueRecorder) -> QueueRecorder.Event? {
        recorder.events("client").first
    }

    /// A client named "client" in `recorder`, racing with `delay` between its families.
    static func client(_ recorder: QueueRecorder, delay: TimeInterval) -> QueueSocket {
        let client = QueueSocket(delegate: recorder, delegateQueue: recorder.queue)
        recorder.name(client, "client")
        client.alternateAddressDelay = delay
        return client
    }

    @Test("the preferred address never answers: the other joins after alternateAddressDelay and wins")
    func staggeredAlternateWins() throws {
        let backlog = try FullBacklog()
        let recorder = QueueRecorder()
        let server = QueueSocket(delegate: recorder, delegateQueue: recorder.queue)
        try server.accept(onInterface: "::1", port: backlog.listener.port)
        let client = Self.client(recorder, delay: 0.2)
        let started = now()
        try client.connect(toHost: "localhost", onPort: backlog.listener.port, withTimeout: 10)
        #expect(recorder.wait { Self.connectedEvent(recorder) != nil })
        #expect(Self.connectedEvent(recorder) == .connected(host: "::1", port: backlog.listener.port))
        #expect(now() - started >= 0.2)
        Self.closeBoth(client, server, recorder)
    }

    @Test("IPv6 preferred and refused: IPv4 starts at once, without waiting for the delay")
    func refusedPreferredAdvancesAtOnce() throws {
        let recorder = QueueRecorder()
        let server = QueueSocket(delegate: recorder, delegateQueue: recorder.queue)
        try server.accept(onInterface: "127.0.0.1", port: 0)
        let client = Self.client(recorder, delay: 30)
        client.isIPv4PreferredOverIPv6 = false
        try client.connect(toHost: "localhost", onPort: server.localPort, withTimeout: 10)
        #expect(recorder.wait(timeout: 5) { Self.connectedEvent(recorder) != nil })
        #expect(Self.connectedEvent(recorder) == .connected(host: "127.0.0.1", port: server.localPort))
        Self.closeBoth(client, server, recorder)
    }

    @Test("both addresses refuse: one disconnect with the last connect error (ECONNREFUSED), no descriptor left")
    func bothRefused() throws {
        let recorder = QueueRecorder()
        let client = Self.client(recorder, delay: 30)
        try client.connect(toHost: "localhost", onPort: unusedPort(), withTimeout: 10)
        #expect(recorder.wait(timeout: 5) { !recorder.events("client").isEmpty })
        #expect(recorder.events("client") == [.disconnected(domain: NSPOSIXErrorDomain, code: Int(ECONNREFUSED))])
        recorder.auditor.checkClosed("client")
    }

    @Test("a socket let go of while its race is under way closes quietly: no callback, the stagger never fires")
    func releasedWhileRacing() throws {
        let backlog = try FullBacklog()
        let recorder = QueueRecorder()
        let alternate = QueueSocket(delegate: recorder, delegateQueue: recorder.queue)
        try alternate.accept(onInterface: "::1", port: backlog.listener.port)
        recorder.name(alternate, "alternate")
        var client: QueueSocket? = Self.client(recorder, delay: 0.2)
        try client!.connect(toHost: "localhost", onPort: backlog.listener.port, withTimeout: 10)
        client = nil
        // Had the stagger outlived the socket, the IPv6 attempt would reach the listener after 0.2 s.
        #expect(!recorder.wait(timeout: 0.6) { !recorder.events("alternate").isEmpty })
        #expect(recorder.events("client").isEmpty)
        alternate.disconnect()
    }
}
