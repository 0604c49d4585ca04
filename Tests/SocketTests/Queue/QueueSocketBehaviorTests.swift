import AsyncSocketKit
import Foundation
import SocketTestSupport
import Testing

@Suite("QueueSocket: where it differs from the run-loop class")
struct QueueSocketBehaviorTests {
    @Test("the peer's close is an error: closed (7), not nil; buffered bytes are discarded")
    func remoteCloseIsClosedError() throws {
        let pair = try QueuePair()
        pair.client.readData(toLength: 100, withTimeout: -1, tag: 1)
        pair.child.write(Data("partial".utf8), withTimeout: -1, tag: 2)
        #expect(pair.recorder.wait { pair.recorder.events("child1").contains(.wrote(tag: 2)) })
        pair.child.disconnect()
        #expect(
            pair.recorder.wait {
                pair.recorder.events("client").contains { if case .disconnected = $0 { true } else { false } }
            })
        #expect(
            pair.recorder.events("client") == [
                .connected(host: "127.0.0.1", port: pair.server.port), .partialRead(7, tag: 1),
                .disconnected(domain: "GCDAsyncSocketErrorDomain", code: 7),
            ])
        pair.tearDown()
    }

    @Test("with autoDisconnectOnClosedReadStream off: socketDidCloseReadStream, and the socket still writes")
    func halfClose() throws {
        let pair = try QueuePair()
        pair.client.autoDisconnectOnClosedReadStream = false
        let raw = pair.child
        raw.perform { _ = shutdown(raw.socketFD, Int32(SHUT_WR)) }
        pair.client.readData(withTimeout: -1, tag: 1)
        #expect(pair.recorder.wait { pair.recorder.events("client").contains(.readStreamClosed) })
        pair.client.write(Data("still here".utf8), withTimeout: -1, tag: 2)
        pair.child.readData(toLength: 10, withTimeout: -1, tag: 3)
        #expect(pair.recorder.wait { pair.recorder.events("child1").contains(.read(Data("still here".utf8), tag: 3)) })
        #expect(pair.recorder.wait { pair.recorder.events("client").contains(.wrote(tag: 2)) })
        #expect(pair.client.isConnected)
        pair.tearDown()
    }

    @Test("disconnect() queues its callback before returning; it runs after callbacks already queued")
    func disconnectOrdering() throws {
        let pair = try QueuePair()
        let recorder = pair.recorder
        // The pair is made once the client is connected; its didConnect may still wait on the delegate
        // queue, and must be recorded before the gate closes that queue.
        let connected: [QueueRecorder.Event] = [.connected(host: "127.0.0.1", port: pair.server.port)]
        #expect(recorder.wait { recorder.events("client") == connected })
        let gate = DispatchSemaphore(value: 0)
        recorder.queue.async { gate.wait() }
        pair.client.write(Data("x".utf8), withTimeout: -1, tag: 1)
        pair.client.perform {}
        // The write has gone out and its callback waits behind the gate (no write is current).
        #expect(recorder.wait { pair.client.progressOfWrite(returningTag: nil, bytesDone: nil, total: nil).isNaN })
        pair.client.disconnect()
        #expect(recorder.events("client") == connected)
        gate.signal()
        #expect(recorder.wait { recorder.events("client").count == 3 })
        #expect(recorder.events("client").suffix(2) == [.wrote(tag: 1), .disconnected(domain: nil, code: nil)])
        pair.tearDown()
    }

    @Test("an accepted socket nobody keeps is closed and reported with itself, never nil")
    func unretainedAccepted() throws {
        let server = try QueueServer()
        server.recorder.keepsAccepted = false
        let peer = try RawPeer(port: server.port)
        #expect(server.recorder.wait { server.recorder.events("child1") == [.disconnected(domain: nil, code: nil)] })
        #expect(peer.sawClose())
        server.socket.disconnect()
    }

    // `copied`: as the legacy test in CloseTests.swift (a child process holding a copy until its exec).
    @Test(
        "the listening port is free when socketDidDisconnect runs, even while another descriptor refers to the listening socket",
        arguments: [false, true])
    func portFreeInCallback(copied: Bool) throws {
        let server = try QueueServer(belowEphemeralRange: true)
        let port = server.port
        var copy: Int32 = -1
        if copied {
            server.socket.perform { copy = dup(server.socket.socket4FD) }
        }
        defer {
            if copy >= 0 { close(copy) }
        }
        #expect(!copied || copy >= 0)
        let rebindFailure = Ref<String?>("socketDidDisconnect did not run")
        server.recorder.onDisconnect = { sock in
            guard server.recorder.label(sock) == "server" else { return }
            let again = QueueSocket(delegate: server.recorder, delegateQueue: DispatchQueue(label: "again"))
            do {
                try again.accept(onInterface: "127.0.0.1", port: port)
                rebindFailure.value = nil
            } catch {
                rebindFailure.value = "\(error)"
            }
            again.disconnect()
        }
        server.socket.disconnect()
        #expect(
            server.recorder.wait { server.recorder.events("server").contains(.disconnected(domain: nil, code: nil)) })
        #expect(rebindFailure.value == nil)
    }

    @Test("reads and writes before the socket is started are dropped; a second startTLS is ignored")
    func droppedBeforeStart() throws {
        let recorder = QueueRecorder()
        let socket = QueueSocket(delegate: recorder, delegateQueue: recorder.queue)
        socket.readData(withTimeout: -1, tag: 1)
        socket.write(Data("x".utf8), withTimeout: -1, tag: 2)
        var tag = -1
        var done = -1
        var total = -1
        #expect(socket.progressOfRead(returningTag: &tag, bytesDone: &done, total: &total).isNaN)
        #expect((tag, done, total) == (0, 0, 0))
        let listener = try RawListener()
        try socket.connect(toAddress: loopbackAddress(port: listener.port))
        let peer = try #require(listener.accept())
        #expect(recorder.wait { socket.isConnected })
        #expect(peer.receive(count: 1, timeout: 0.2).isEmpty)
        socket.disconnect()
    }

    @Test("misuse returns badConfig / badParam, never traps")
    func misuse() throws {
        let recorder = QueueRecorder()
        #expect(throws: QueueSocketError(.badConfig)) { try QueueSocket().connect(toHost: "localhost", onPort: 1) }
        #expect(throws: QueueSocketError(.badConfig)) {
            try QueueSocket(delegate: recorder, delegateQueue: nil).connect(toHost: "localhost", onPort: 1)
        }
        #expect(throws: QueueSocketError(.badConfig)) {
            _ = try QueueSocket(delegate: recorder, delegateQueue: recorder.queue, socketQueue: .global())
        }
        let socket = QueueSocket(delegate: recorder, delegateQueue: recorder.queue)
        #expect(throws: QueueSocketError(.badParam)) { try socket.connect(toHost: "", onPort: 1) }
        #expect(throws: QueueSocketError(.badParam)) { try socket.connect(toAddress: Data([1, 2, 3])) }
        #expect(throws: QueueSocketError(.badParam)) {
            try socket.connect(toHost: "localhost", onPort: 1, viaInterface: "no-such-interface0", withTimeout: -1)
        }
        #expect(throws: QueueSocketError(.badParam)) {
            try socket.connect(
                toUrl: URL(fileURLWithPath: "/tmp/" + String(repeating: "x", count: 200)), withTimeout: -1)
        }
        socket.isIPv4Enabled = false
        socket.isIPv6Enabled = false
        #expect(throws: QueueSocketError(.badConfig)) { try socket.accept(onPort: 0) }
        socket.isIPv4Enabled = true
        try socket.accept(onInterface: "127.0.0.1", port: 0)
        #expect(throws: QueueSocketError(.badConfig)) { try socket.accept(onPort: 0) }
        #expect(throws: QueueSocketError(.badConfig)) { try socket.connect(toHost: "127.0.0.1", onPort: 1) }
        socket.disconnect()
    }

    @Test("read-to-data max-out is code 6; a read timeout with an extension asks at 0.15 then 0.25 s, then code 4")
    func maxOutAndTimeout() throws {
        let pair = try QueuePair()
        pair.client.readData(to: QueueSocket.lfData, withTimeout: -1, maxLength: 3, tag: 1)
        pair.child.write(Data("toolong\n".utf8), withTimeout: -1, tag: 0)
        #expect(
            pair.recorder.wait {
                pair.recorder.events("client").contains { if case .disconnected = $0 { true } else { false } }
            })
        #expect(pair.recorder.events("client").last == .disconnected(domain: "GCDAsyncSocketErrorDomain", code: 6))
        pair.tearDown()

        let second = try QueuePair()
        second.recorder.readTimeoutAnswers = [0.1, 0]
        second.client.readData(toLength: 10, withTimeout: 0.15, tag: 4)
        #expect(
            second.recorder.wait {
                second.recorder.events("client").contains { if case .disconnected = $0 { true } else { false } }
            })
        #expect(
            Array(second.recorder.events("client").dropFirst()) == [
                .readTimeout(tag: 4, elapsed: 0.15, bytesDone: 0), .readTimeout(tag: 4, elapsed: 0.25, bytesDone: 0),
                .disconnected(domain: "GCDAsyncSocketErrorDomain", code: 4),
            ])
        second.tearDown()
    }

    @Test("utilities: lookupHost short-circuits localhost; host and port from a sockaddr")
    func utilities() throws {
        let addresses = try QueueSocket.lookupHost("localhost", port: 80)
        #expect(addresses.count == 2)
        #expect(
            addresses.contains { QueueSocket.isIPv4Address($0) && QueueSocket.host(fromAddress: $0) == "127.0.0.1" })
        #expect(addresses.contains { QueueSocket.isIPv6Address($0) && QueueSocket.host(fromAddress: $0) == "::1" })
        #expect(addresses.allSatisfy { QueueSocket.port(fromAddress: $0) == 80 })
        #expect(QueueSocket.getHost(fromAddress: loopbackAddress(port: 7))! == ("127.0.0.1", 7))
        #expect(throws: NSError.self) { try QueueSocket.lookupHost("", port: 1) }
    }
}
