import AsyncSocketKit
import Foundation
import SocketTestSupport
import Testing

@Suite("RunLoopSocket: errors, domains and codes")
struct SocketErrorTests {
    @Test(
        "error codes and domain are the final numbering and bridge to NSError", arguments: RunLoopSocket.Engine.allCases
    )
    func codes(engine: RunLoopSocket.Engine) {
        let expected: [(AsyncSocketError.Code, Int)] = [
            (.socketError, -1), (.noError, 0), (.canceled, 1), (.connectTimeout, 2), (.readMaxedOut, 3),
            (.readTimeout, 4), (.writeTimeout, 5),
        ]
        for (code, value) in expected {
            let error = AsyncSocketError(code) as NSError
            #expect(error.domain == "AsyncSocketErrorDomain")
            #expect(error.code == value)
            #expect(error.localizedDescription == AsyncSocketError.defaultDescription(code))
        }
        #expect((AsyncSocketError(.readTimeout) as NSError).localizedDescription == "Read operation timed out")
    }

    @Test("usage errors: no delegate, double connect, accept while connected", arguments: RunLoopSocket.Engine.allCases)
    func usageErrors(engine: RunLoopSocket.Engine) async throws {
        try await onNewThread {
            let lonely = RunLoopSocket(engine: engine)
            #expect(throws: AsyncSocketUsageError.self) { try lonely.connectToHost("localhost", onPort: 1) }
            #expect(throws: AsyncSocketUsageError.self) { try lonely.acceptOnPort(0) }
            let connection = try ClientConnection(engine: engine)
            #expect(throws: AsyncSocketUsageError.self) {
                try connection.client.connectToAddress(loopbackAddress(port: 1))
            }
            #expect(throws: AsyncSocketUsageError.self) { try connection.client.acceptOnPort(0) }
            #expect(connection.client.isConnected)
            connection.client.disconnect()
        }
    }

    @Test(
        "connection refused: by address, code -1 (thrown or reported); by name, the POSIX error",
        arguments: RunLoopSocket.Engine.allCases)
    func refused(engine: RunLoopSocket.Engine) async throws {
        try await onNewThread {
            let recorder = Recorder()
            let port = unusedPort()
            let byAddress = RunLoopSocket(delegate: recorder, engine: engine)
            recorder.name(byAddress, "address")
            do {
                try byAddress.connectToAddress(loopbackAddress(port: port))
                #expect(runUntil { recorder.events("address").contains(.didDisconnect) })
                #expect(
                    recorder.events("address") == [
                        .willConnect, .willDisconnect(domain: "AsyncSocketErrorDomain", code: -1), .didDisconnect,
                    ])
            } catch let error as AsyncSocketError {
                #expect(error.code == .socketError)
                #expect(error.underlying?.code == Int(ECONNREFUSED))
            }
            let byName = RunLoopSocket(delegate: recorder, engine: engine)
            recorder.name(byName, "name")
            try byName.connectToHost("127.0.0.1", onPort: port)
            #expect(runUntil { recorder.events("name").contains(.didDisconnect) })
            #expect(
                recorder.events("name") == [
                    .willConnect, .willDisconnect(domain: NSPOSIXErrorDomain, code: Int(ECONNREFUSED)), .didDisconnect,
                ])
        }
    }

    @Test(
        "an unresolvable host reports a kCFStreamErrorDomainNetDB error; a malformed one throws it",
        arguments: RunLoopSocket.Engine.allCases)
    func unresolvable(engine: RunLoopSocket.Engine) async throws {
        let dns = ScriptedDNSServer(records: ["known.test": (v4: "127.0.0.1", v6: nil)])
        defer { dns.stop() }
        let resolver = HostResolver(nameservers: [dns.address])
        try await onNewThread {
            let recorder = Recorder()
            let client = RunLoopSocket(delegate: recorder, engine: engine, resolver: resolver)
            recorder.name(client, "client")
            try client.connectToHost("no-such-host.test", onPort: 80, withTimeout: 10)
            #expect(runUntil { recorder.events("client").contains(.didDisconnect) })
            let events = recorder.events("client")
            #expect(events.count == 3)
            if case .willDisconnect(let domain, _) = events[1] {
                #expect(domain == "kCFStreamErrorDomainNetDB")
            } else {
                Issue.record("expected willDisconnect, got \(events)")
            }
            for bad in ["", "nul\u{0}byte", String(repeating: "a", count: 300)] {
                #expect(throws: NSError.self) { try client.connectToHost(bad, onPort: 80) }
            }
            #expect(recorder.events("client").count == 3)
        }
    }

    @Test("a name answered by the scripted DNS server connects", arguments: RunLoopSocket.Engine.allCases)
    func resolvedByServer(engine: RunLoopSocket.Engine) async throws {
        let dns = ScriptedDNSServer(records: ["service.test": (v4: "127.0.0.1", v6: nil)])
        defer { dns.stop() }
        let resolver = HostResolver(nameservers: [dns.address])
        try await onNewThread {
            let recorder = Recorder()
            let server = RunLoopSocket(delegate: recorder, engine: engine)
            try server.acceptOnInterface("127.0.0.1", port: 0)
            let client = RunLoopSocket(delegate: recorder, engine: engine, resolver: resolver)
            recorder.name(client, "client")
            try client.connectToHost("service.test", onPort: server.localPort, withTimeout: 10)
            #expect(runUntil { client.isConnected })
            #expect(client.connectedHost == "127.0.0.1")
            client.disconnect()
            server.disconnect()
        }
    }

    @Test(
        "a port in use: AsyncSocketError -1 with EADDRINUSE underneath; bad addresses: -1 with a message",
        arguments: RunLoopSocket.Engine.allCases)
    func portInUseAndBadAddresses(engine: RunLoopSocket.Engine) async throws {
        try await onNewThread {
            let recorder = Recorder()
            let first = RunLoopSocket(delegate: recorder, engine: engine)
            try first.acceptOnInterface("127.0.0.1", port: 0)
            let second = RunLoopSocket(delegate: recorder, engine: engine)
            do {
                try second.acceptOnInterface("127.0.0.1", port: first.localPort)
                Issue.record("the second listener should have failed")
            } catch let error as AsyncSocketError {
                #expect(error.code == .socketError)
                #expect(error.underlying?.code == Int(EADDRINUSE))
            }
            #expect(throws: AsyncSocketError(.socketError)) { try second.connectToAddress(Data([1, 2, 3])) }
            #expect(throws: AsyncSocketError(.socketError)) {
                try second.connectToAddress(
                    loopbackAddress(port: 1), viaInterfaceAddress: Data([0, 0]), withTimeout: -1)
            }
            first.disconnect()
        }
    }
}
