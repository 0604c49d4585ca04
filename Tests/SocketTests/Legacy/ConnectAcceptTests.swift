import AsyncSocketKit
import Foundation
import SocketTestSupport
import Testing

@Suite("RunLoopSocket: connect and accept orderings")
struct ConnectAcceptTests {
    @Test(
        "connect by address: willConnect inside the call; accept order didAccept → wantsRunLoop → willConnect → didConnect",
        arguments: RunLoopSocket.Engine.allCases)
    func connectByAddress(engine: RunLoopSocket.Engine) async throws {
        try await onNewThread {
            let recorder = Recorder()
            let server = RunLoopSocket(delegate: recorder, engine: engine)
            recorder.name(server, "server")
            try server.acceptOnInterface("127.0.0.1", port: 0)
            let port = server.localPort
            #expect(port != 0)
            let client = RunLoopSocket(delegate: recorder, engine: engine)
            recorder.name(client, "client")
            try client.connectToAddress(loopbackAddress(port: port))
            #expect(recorder.events("client") == [.willConnect])
            #expect(runUntil { client.isConnected && recorder.events("child1").count == 2 })
            #expect(recorder.events("server") == [.didAccept("child1"), .wantsRunLoop("child1")])
            let child = recorder.accepted[0]
            #expect(recorder.events("child1") == [.willConnect, .connected(host: "127.0.0.1", port: client.localPort)])
            #expect(recorder.events("client") == [.willConnect, .connected(host: "127.0.0.1", port: port)])
            #expect(child.connectedPort == client.localPort)
            #expect(child.isIPv4 && !child.isIPv6)
            #expect(!server.isConnected)
            client.disconnect()
            child.disconnect()
            server.disconnect()
        }
    }

    @Test("connect by host name from /etc/hosts", arguments: RunLoopSocket.Engine.allCases)
    func connectByHostName(engine: RunLoopSocket.Engine) async throws {
        try await onNewThread {
            let recorder = Recorder()
            let server = RunLoopSocket(delegate: recorder, engine: engine)
            try server.acceptOnPort(0)
            let client = RunLoopSocket(delegate: recorder, engine: engine)
            recorder.name(client, "client")
            try client.connectToHost("localhost", onPort: server.localPort, withTimeout: 10)
            #expect(runUntil { client.isConnected })
            #expect(client.connectedHost == "127.0.0.1" || client.connectedHost == "::1")
            #expect(recorder.events("client").last == .connected(host: client.connectedHost!, port: server.localPort))
            client.disconnect()
            server.disconnect()
        }
    }

    @Test(
        "the accepted socket can live on a worker loop chosen by wantsRunLoopForNewSocket",
        arguments: RunLoopSocket.Engine.allCases)
    func acceptOntoWorkerLoop(engine: RunLoopSocket.Engine) async throws {
        let worker = EventRunLoopThread(name: "accept-worker")
        defer { worker.terminate() }
        try await onNewThread {
            let recorder = Recorder()
            recorder.runLoopForNewSocket = worker.loop
            let workerThread = Ref<pthread_t?>(nil)
            recorder.onConnect = { sock in
                if recorder.label(sock) == "child1" {
                    workerThread.value = pthread_self()
                    sock.readData(to: RunLoopSocket.lfData, withTimeout: 10, tag: 1)
                }
            }
            recorder.onRead = { sock, data, _ in sock.write(data, withTimeout: 10, tag: 2) }
            let server = RunLoopSocket(delegate: recorder, engine: engine)
            recorder.name(server, "server")
            try server.acceptOnInterface("localhost", port: 0)
            let peer = try RawPeer(port: server.localPort)
            #expect(runUntil { recorder.events("server").count == 2 })
            peer.send("ping\n")
            #expect(peer.receive(count: 5) == bytes("ping\n"))
            #expect(waitUntil { recorder.events("child1").count == 4 })
            #expect(
                recorder.events("child1") == [
                    .willConnect, .connected(host: "127.0.0.1", port: peerPort(peer)),
                    .read(Data("ping\n".utf8), tag: 1), .wrote(tag: 2),
                ])
            let callbacks = recorder.trace.filter { $0.socket == "child1" }
            // willConnect runs on the listener's thread; everything after it on the worker's.
            #expect(pthread_equal(callbacks[0].thread, pthread_self()) != 0)
            for entry in callbacks.dropFirst() {
                #expect(pthread_equal(entry.thread, workerThread.value!) != 0)
            }
            #expect(pthread_equal(workerThread.value!, pthread_self()) == 0)
            let child = recorder.accepted[0]
            let done = DispatchSemaphore(value: 0)
            worker.loop.perform {
                child.disconnect()
                done.signal()
            }
            done.wait()
            server.disconnect()
        }
    }

    @Test(
        "a veto in the child's willConnect: only didDisconnect for it, and the peer sees the close",
        arguments: RunLoopSocket.Engine.allCases)
    func childVeto(engine: RunLoopSocket.Engine) async throws {
        try await onNewThread {
            let recorder = Recorder()
            recorder.childWillConnectAnswer = false
            let server = RunLoopSocket(delegate: recorder, engine: engine)
            try server.acceptOnPort(0)
            let peer = try RawPeer(port: server.localPort)
            #expect(runUntil { recorder.events("child1").contains(.didDisconnect) })
            #expect(recorder.events("child1") == [.willConnect, .didDisconnect])
            #expect(peer.sawClose())
            server.disconnect()
        }
    }

    @Test(
        "a child its delegate disconnects inside willConnect reports didDisconnect with itself, once",
        arguments: RunLoopSocket.Engine.allCases)
    func childDisconnectedInWillConnect(engine: RunLoopSocket.Engine) async throws {
        try await onNewThread {
            let recorder = Recorder()
            recorder.onWillConnect = { sock in
                if recorder.label(sock) == "child1" { sock.disconnect() }
            }
            let server = RunLoopSocket(delegate: recorder, engine: engine)
            try server.acceptOnPort(0)
            let peer = try RawPeer(port: server.localPort)
            #expect(runUntil { recorder.events("child1").contains(.didDisconnect) })
            #expect(peer.sawClose())
            #expect(recorder.events("child1") == [.willConnect, .didDisconnect])
            server.disconnect()
        }
    }

    @Test(
        "an accepted socket nobody keeps is closed at once and reported with itself as the argument",
        arguments: RunLoopSocket.Engine.allCases)
    func unretainedChild(engine: RunLoopSocket.Engine) async throws {
        try await onNewThread {
            let recorder = Recorder()
            recorder.keepsAccepted = false
            let server = RunLoopSocket(delegate: recorder, engine: engine)
            try server.acceptOnPort(0)
            let peer = try RawPeer(port: server.localPort)
            #expect(runUntil { recorder.events("child1").contains(.didDisconnect) })
            #expect(recorder.events("child1") == [.willConnect, .didDisconnect])
            #expect(peer.sawClose())
            server.disconnect()
        }
    }

    @Test(
        "the veto of a connect throws canceled (-1 domain numbering: code 1) and reports nothing",
        arguments: RunLoopSocket.Engine.allCases)
    func connectVeto(engine: RunLoopSocket.Engine) async throws {
        try await onNewThread {
            let recorder = Recorder()
            recorder.willConnectAnswer = false
            let client = RunLoopSocket(delegate: recorder, engine: engine)
            recorder.name(client, "client")
            #expect(throws: AsyncSocketError(.canceled)) {
                try client.connectToAddress(loopbackAddress(port: 9))
            }
            #expect(throws: AsyncSocketError(.canceled)) {
                try client.connectToHost("localhost", onPort: 9)
            }
            #expect(recorder.events("client") == [.willConnect, .willConnect])
            client.disconnect()
            #expect(recorder.events("client") == [.willConnect, .willConnect])
        }
    }
}

func peerPort(_ peer: RawPeer) -> UInt16 {
    var address = sockaddr_in()
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    _ = withUnsafeMutablePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(peer.fd, $0, &length) }
    }
    return UInt16(bigEndian: address.sin_port)
}
