import AsyncSocketKit
import Foundation
import SocketTestSupport
import Testing

@Suite("QueueSocket: the original's connection tests")
struct QueueConnectionTests {
    @Test("full connection: accept, connect to 127.0.0.1; the child never hears didConnectToHost")
    func fullConnection() throws {
        let server = try QueueServer()
        let client = QueueSocket(delegate: server.recorder, delegateQueue: server.recorder.queue)
        server.recorder.name(client, "client")
        try client.connect(toHost: "127.0.0.1", onPort: server.port)
        #expect(
            server.recorder.wait { server.recorder.events("client").count == 1 && server.recorder.accepted.count == 1 })
        #expect(server.recorder.events("client") == [.connected(host: "127.0.0.1", port: server.port)])
        #expect(server.recorder.events("server") == [.accepted("child1")])
        #expect(server.recorder.events("child1").isEmpty)
        #expect(client.isConnected)
        #expect(server.recorder.accepted[0].isConnected)
        client.disconnect()
        server.recorder.accepted[0].disconnect()
        server.socket.disconnect()
    }

    @Test("an IPv4-only server: the accepted socket is IPv4")
    func ipv4OnlyServer() throws {
        let server = try QueueServer(interface: nil, ipv6: false)
        let client = QueueSocket(delegate: server.recorder, delegateQueue: server.recorder.queue)
        try client.connect(toHost: "127.0.0.1", onPort: server.port)
        #expect(server.recorder.wait { server.recorder.accepted.count == 1 })
        #expect(server.recorder.accepted[0].isIPv4)
        #expect(!server.recorder.accepted[0].isIPv6)
        client.disconnect()
        server.socket.disconnect()
    }

    @Test("an IPv6-only server: a client connecting to ::1 is accepted as IPv6")
    func ipv6OnlyServer() throws {
        let server = try QueueServer(interface: nil, ipv4: false)
        let client = QueueSocket(delegate: server.recorder, delegateQueue: server.recorder.queue)
        server.recorder.name(client, "client")
        try client.connect(toHost: "::1", onPort: server.port)
        #expect(server.recorder.wait { server.recorder.accepted.count == 1 && client.isConnected })
        #expect(server.recorder.accepted[0].isIPv6)
        #expect(client.connectedHost == "::1")
        client.disconnect()
        server.socket.disconnect()
    }

    @Test("a client preferring IPv4, then one preferring IPv6, connects to \"localhost\"", arguments: [true, false])
    func localhost(preferIPv4: Bool) throws {
        let server = try QueueServer(interface: nil)
        let client = QueueSocket(delegate: server.recorder, delegateQueue: server.recorder.queue)
        server.recorder.name(client, "client")
        client.isIPv4PreferredOverIPv6 = preferIPv4
        try client.connect(toHost: "localhost", onPort: server.port, withTimeout: 10)
        #expect(server.recorder.wait { client.isConnected })
        client.disconnect()
        server.socket.disconnect()
    }

    @Test("adopting connected descriptors of both families", arguments: [false, true])
    func connectedSocketFD(ipv6: Bool) throws {
        let server = try QueueServer(interface: ipv6 ? "::1" : "127.0.0.1")
        let raw = try RawPeer(port: server.port, ipv6: ipv6)
        let fd = dup(raw.fd)
        let wrapped = try QueueSocket.socket(fromConnectedSocketFD: fd)
        #expect(wrapped.isConnected)
        #expect(wrapped.connectedHost == (ipv6 ? "::1" : "127.0.0.1"))
        #expect(wrapped.connectedPort == server.port)
        wrapped.disconnect()
        server.socket.disconnect()
        #expect(throws: QueueSocketError(.other)) { try QueueSocket.socket(fromConnectedSocketFD: -1) }
    }

    @Test("Unix domain: connect, then transfer from the client and from the server", arguments: [false, true])
    func unixDomain(fromServer: Bool) throws {
        let path = NSTemporaryDirectory() + "QueueSocketUNTests-\(getpid())-\(fromServer)"
        let url = URL(fileURLWithPath: path)
        let recorder = QueueRecorder()
        let server = QueueSocket(delegate: recorder, delegateQueue: recorder.queue)
        recorder.name(server, "server")
        try server.accept(onUrl: url)
        let client = QueueSocket(delegate: recorder, delegateQueue: recorder.queue)
        recorder.name(client, "client")
        try client.connect(toUrl: url, withTimeout: -1)
        #expect(recorder.wait { recorder.events("client") == [.connectedURL(path)] && recorder.accepted.count == 1 })
        let child = recorder.accepted[0]
        #expect(!child.isIPv4 && !child.isIPv6)
        let message = Data("ThisTestRocks!!!".utf8)
        let (reader, writer, readerName) = fromServer ? (client, child, "client") : (child, client, "child1")
        reader.readData(withTimeout: -1, tag: 1)
        writer.write(message, withTimeout: -1, tag: 2)
        #expect(recorder.wait { recorder.events(readerName).contains(.read(message, tag: 1)) })
        client.disconnect()
        child.disconnect()
        server.disconnect()
        #expect(!FileManager.default.fileExists(atPath: path))
    }

    @Test("50 KiB written twice, one 100 KiB read with a 0.1 s timeout gets exactly 102 400 bytes")
    func readToLengthAcrossWrites() throws {
        let server = try QueueServer()
        let client = QueueSocket(delegate: server.recorder, delegateQueue: server.recorder.queue)
        server.recorder.name(client, "client")
        try client.connect(toHost: "localhost", onPort: server.port)
        #expect(server.recorder.wait { server.recorder.accepted.count == 1 && client.isConnected })
        let child = server.recorder.accepted[0]
        let chunk = Data(count: 50 * 1024)
        child.write(chunk, withTimeout: 0.1, tag: 1)
        #expect(server.recorder.wait { server.recorder.events("child1").contains(.wrote(tag: 1)) })
        child.write(chunk, withTimeout: 0.1, tag: 2)
        #expect(server.recorder.wait { server.recorder.events("child1").contains(.wrote(tag: 2)) })
        client.readData(toLength: 102_400, withTimeout: 0.1, tag: 3)
        #expect(
            server.recorder.wait {
                server.recorder.events("client").contains { if case .read = $0 { true } else { false } }
            })
        let reads = server.recorder.events("client").compactMap { event -> Data? in
            if case .read(let data, 3) = event { return data }
            return nil
        }
        #expect(reads.first?.count == 102_400)
        #expect(!server.recorder.events("client").contains { if case .disconnected = $0 { true } else { false } })
        client.disconnect()
        child.disconnect()
        server.socket.disconnect()
    }
}
