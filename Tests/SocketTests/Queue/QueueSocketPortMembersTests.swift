import AsyncSocketKit
import COpenSSL
import Foundation
import SocketTestSupport
import Testing

// The GCDAsyncSocket members a port calls that QueueSocket lacked: "loopback" as a host name, the
// synchronous delegate read, the socket-queue initialiser, the sockaddr helpers, the TLS session, and
// what releasing a started socket does.
@Suite("QueueSocket: the rest of GCDAsyncSocket's surface")
struct QueueSocketPortMembersTests {
    @Test(
        "\"localhost\" and \"loopback\" dial both loopback addresses, no lookup: IPv4 first, IPv6 when only it listens",
        arguments: ["localhost", "loopback"])
    func loopbackNames(name: String) throws {
        for family in [AF_INET, AF_INET6] {
            let recorder = QueueRecorder()
            let server = QueueSocket(delegate: recorder, delegateQueue: recorder.queue)
            try server.accept(onInterface: family == AF_INET ? "127.0.0.1" : "::1", port: 0)
            let client = QueueSocket(
                delegate: recorder, delegateQueue: recorder.queue,
                resolver: HostResolver(nameservers: ["127.0.0.1:1"], timeout: 0.05))
            recorder.name(client, "client")
            try client.connect(toHost: name, onPort: server.localPort, withTimeout: 10)
            #expect(
                recorder.wait {
                    recorder.events("client").first.map { if case .connected = $0 { true } else { false } } ?? false
                })
            let expected = family == AF_INET ? "127.0.0.1" : "::1"
            #expect(recorder.events("client").first == .connected(host: expected, port: server.localPort), "\(name)")
            client.disconnect()
            server.disconnect()
        }
    }

    @Test("getDelegate(_:delegateQueue:) reads the pair set before it; init(socketQueue:) uses the given queue")
    func delegateAndQueues() throws {
        let recorder = QueueRecorder()
        let socketQueue = DispatchQueue(label: "given")
        let key = DispatchSpecificKey<String>()
        socketQueue.setSpecific(key: key, value: "given")
        let socket = try QueueSocket(socketQueue: socketQueue)
        var delegate: (any QueueSocketDelegate)? = recorder
        var delegateQueue: DispatchQueue? = DispatchQueue(label: "x")
        socket.getDelegate(&delegate, delegateQueue: &delegateQueue)
        #expect(delegate == nil && delegateQueue == nil)
        socket.synchronouslySetDelegate(recorder, delegateQueue: recorder.queue)
        socket.getDelegate(&delegate, delegateQueue: &delegateQueue)
        #expect(delegate === recorder && delegateQueue === recorder.queue)
        var ranOnGivenQueue = false
        socket.perform { ranOnGivenQueue = DispatchQueue.getSpecific(key: key) == "given" }
        #expect(ranOnGivenQueue)
        #expect(throws: QueueSocketError.self) { try QueueSocket(socketQueue: .global()) }
    }

    @Test("getHost(_:port:fromAddress:) and the family variant: IPv4 and IPv6 filled in, anything else false")
    func getHostHelpers() {
        var host: String?
        var port: UInt16 = 0
        var family: sa_family_t = 0
        let v4 = try? QueueSocket.lookupHost("127.0.0.1", port: 80).first
        #expect(QueueSocket.getHost(&host, port: &port, family: &family, fromAddress: v4 ?? Data()))
        #expect(host == "127.0.0.1" && port == 80 && Int32(family) == AF_INET)
        let v6 = try? QueueSocket.lookupHost("::1", port: 443).first
        #expect(QueueSocket.getHost(&host, port: &port, fromAddress: v6 ?? Data()))
        #expect(host == "::1" && port == 443)
        host = "kept"
        #expect(!QueueSocket.getHost(&host, port: &port, fromAddress: Data([1, 2, 3])))
        #expect(host == "kept" && port == 443)
    }

    @Test("sslContext: the OpenSSL session inside perform once TLS is up, nil outside perform and before TLS")
    func sslContext() throws {
        let fixture = try TLSFixture.shared()
        let (server, port) = try OpenSSLPeer.server(serverArguments(fixture) + ["-rev"])
        let recorder = QueueRecorder()
        let client = QueueSocket(delegate: recorder, delegateQueue: recorder.queue)
        recorder.name(client, "client")
        try client.connect(toHost: "localhost", onPort: port, withTimeout: 10)
        #expect(recorder.wait { client.isConnected })
        var before: OpaquePointer?
        client.perform { before = client.sslContext }
        #expect(before == nil)
        client.startTLS(fixture.clientSettings())
        client.write(Data("hi\n".utf8), withTimeout: 10, tag: 1)
        client.readData(to: QueueSocket.lfData, withTimeout: 10, tag: 2)
        #expect(recorder.wait { recorder.events("client").contains(.read(Data("ih\n".utf8), tag: 2)) })
        #expect(client.sslContext == nil)
        var version = ""
        client.perform {
            if let ssl = client.sslContext { version = String(cString: SSL_get_version(ssl)) }
        }
        #expect(version.hasPrefix("TLSv1."), "\(version)")
        client.disconnect()
        server.stop()
    }

    @Test("releasing a started socket closes it quietly: the peer sees the close, the port is free, no callback")
    func releaseStarted() throws {
        let recorder = QueueRecorder()
        let listener = try RawListener()
        var client: QueueSocket? = QueueSocket(delegate: recorder, delegateQueue: recorder.queue)
        recorder.name(client!, "client")
        try client!.connect(toHost: "127.0.0.1", onPort: listener.port, withTimeout: 10)
        let peer = try #require(listener.accept())
        // The connect callback has arrived (isConnected turns true on the socket queue before it).
        #expect(
            recorder.wait {
                recorder.events("client").contains { if case .connected = $0 { true } else { false } }
            })
        var server: QueueSocket? = QueueSocket(delegate: recorder, delegateQueue: recorder.queue)
        recorder.name(server!, "server")
        let port = try listenBelowEphemeralRange { try server!.accept(onInterface: "127.0.0.1", port: $0) }
        let eventsBefore = recorder.events("client").count
        client = nil
        server = nil
        #expect(peer.sawClose())
        let again = QueueSocket(delegate: recorder, delegateQueue: recorder.queue)
        recorder.name(again, "again")
        #expect(throws: Never.self) { try again.accept(onInterface: "127.0.0.1", port: port) }
        again.disconnect()
        recorder.queue.sync {}
        #expect(recorder.events("client").count == eventsBefore)
        #expect(recorder.events("server").isEmpty)
    }
}
