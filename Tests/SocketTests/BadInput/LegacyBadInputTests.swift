import AsyncSocketKit
import Foundation
import SocketTestSupport
import Testing

@Suite("Bad input on RunLoopSocket: ignored or a thrown error, never a crash, and the socket still works")
struct LegacyBadInputTests {
    @Test(
        "reads and writes with invalid arguments are ignored; the next valid read gets every byte",
        arguments: RunLoopSocket.Engine.allCases)
    func ignoredCalls(engine: RunLoopSocket.Engine) async throws {
        try await onNewThread {
            let connection = try ClientConnection(engine: engine)
            let client = connection.client
            let small = NSMutableData(length: 4)
            client.readData(toLength: 0, withTimeout: -1, tag: 1)
            client.readData(to: Data(), withTimeout: -1, tag: 2)
            client.readData(to: RunLoopSocket.crlfData, withTimeout: -1, maxLength: 1, tag: 3)
            client.readData(withTimeout: -1, buffer: small, bufferOffset: 5, tag: 4)
            client.readData(toLength: 3, withTimeout: -1, buffer: small, bufferOffset: 99, tag: 5)
            client.readData(withTimeout: -1, buffer: nil, bufferOffset: 1, tag: 8)
            client.readData(to: RunLoopSocket.crlfData, withTimeout: -1, buffer: small, bufferOffset: 5, tag: 9)
            client.write(Data(), withTimeout: -1, tag: 6)
            client.readData(to: RunLoopSocket.crlfData, withTimeout: 10, tag: 7)
            connection.peer.send("every byte\r\n")
            #expect(runUntil { connection.events.contains { if case .read = $0 { true } else { false } } })
            #expect(connection.events == [.read(Data("every byte\r\n".utf8), tag: 7)])
            #expect(client.isConnected)
            client.disconnect()
        }
    }

    @Test(
        "malformed addresses and interfaces throw; the socket can then connect",
        arguments: RunLoopSocket.Engine.allCases)
    func malformedAddresses(engine: RunLoopSocket.Engine) async throws {
        try await onNewThread {
            let recorder = Recorder()
            let socket = RunLoopSocket(delegate: recorder, engine: engine)
            recorder.name(socket, "socket")
            var unix = sockaddr_un()
            unix.sun_family = sa_family_t(AF_UNIX)
            let unixData = withUnsafeBytes(of: &unix) { Data($0) }
            for bad in [Data(), Data([1, 2, 3]), unixData, Data(repeating: 0xFF, count: 200)] {
                #expect(throws: AsyncSocketError.self) { try socket.connectToAddress(bad) }
            }
            #expect(throws: (any Error).self) {
                try socket.connectToAddress(
                    loopbackAddress(port: 1), viaInterfaceAddress: Data([9, 9]), withTimeout: 1)
            }
            for interface in ["no-such-interface0", "999.1.2.3", "::gg", "nul\u{0}byte"] {
                #expect(throws: (any Error).self) { try socket.acceptOnInterface(interface, port: 0) }
            }
            #expect(recorder.events("socket").isEmpty)
            let listener = try RawListener()
            try socket.connectToAddress(loopbackAddress(port: listener.port))
            #expect(runUntil { socket.isConnected })
            socket.disconnect()
        }
    }

    @Test(
        "a legacy TLS dictionary of the wrong shape is an error close naming the problem, on both engines",
        arguments: RunLoopSocket.Engine.allCases)
    func malformedTLSDictionary(engine: RunLoopSocket.Engine) async throws {
        try await onNewThread {
            let cases: [[String: Any]] = [
                [kCFStreamSSLPeerName: 42], [kCFStreamSSLIsServer: "yes"], ["kCFStreamSSLNoSuchKey": true],
                [kCFStreamSSLCertificates: [Data([1, 2, 3])]], [kCFStreamSSLLevel: "kCFStreamSocketSecurityLevelSSLv2"],
            ]
            for dictionary in cases {
                let connection = try ClientConnection(engine: engine)
                connection.client.startTLS(dictionary)
                #expect(runUntil { connection.events.contains(.didDisconnect) })
                guard case .willDisconnect(let domain, _)? = connection.events.first else {
                    Issue.record("expected an error close for \(dictionary), got \(connection.events)")
                    continue
                }
                #expect(domain != nil)
            }
        }
    }
}
