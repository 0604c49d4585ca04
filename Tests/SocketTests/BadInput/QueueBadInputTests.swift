import AsyncSocketKit
import Foundation
import SocketTestSupport
import Testing

@Suite("Bad input on QueueSocket: badParam or badConfig thrown, never a trap, and the socket still works")
struct QueueBadInputTests {
    private func expectBadParam(_ call: () throws -> Void, sourceLocation: SourceLocation = #_sourceLocation) {
        do {
            try call()
            Issue.record("no error thrown", sourceLocation: sourceLocation)
        } catch let error as QueueSocketError {
            #expect(error.code == .badParam, "\(error)", sourceLocation: sourceLocation)
        } catch {
            Issue.record("unexpected \(error)", sourceLocation: sourceLocation)
        }
    }

    @Test("hosts, addresses, interfaces and Unix paths that cannot be right are badParam")
    func malformedEndpoints() throws {
        let recorder = QueueRecorder()
        let socket = QueueSocket(delegate: recorder, delegateQueue: recorder.queue)
        recorder.name(socket, "socket")
        for host in ["", "nul\u{0}byte", String(repeating: "a", count: 300)] {
            expectBadParam { try socket.connect(toHost: host, onPort: 80) }
        }
        var unix = sockaddr_un()
        unix.sun_family = sa_family_t(AF_UNIX)
        let unixData = withUnsafeBytes(of: &unix) { Data($0) }
        for address in [Data(), Data([1, 2, 3]), unixData, Data(repeating: 0xFF, count: 200)] {
            expectBadParam { try socket.connect(toAddress: address) }
        }
        for interface in ["no-such-interface0", "999.1.2.3", "nul\u{0}byte"] {
            expectBadParam { try socket.accept(onInterface: interface, port: 0) }
            expectBadParam {
                try socket.connect(toHost: "127.0.0.1", onPort: 80, viaInterface: interface, withTimeout: 1)
            }
        }
        let longPath = URL(fileURLWithPath: "/tmp/" + String(repeating: "p", count: 200))
        for url in [longPath, URL(string: "https://example.invalid/socket")!] {
            expectBadParam { try socket.accept(onUrl: url) }
            expectBadParam { try socket.connect(toUrl: url, withTimeout: 1) }
        }
        #expect(recorder.events("socket").isEmpty)
        let server = try QueueServer()
        try socket.connect(toHost: "127.0.0.1", onPort: server.port)
        #expect(recorder.wait { socket.isConnected })
        socket.disconnect()
        server.socket.disconnect()
    }

    @Test("misuse is badConfig: no delegate, twice started, both families disabled")
    func misuse() throws {
        let lonely = QueueSocket()
        #expect(throws: QueueSocketError.self) { try lonely.connect(toHost: "127.0.0.1", onPort: 80) }
        let recorder = QueueRecorder()
        let socket = QueueSocket(delegate: recorder, delegateQueue: recorder.queue)
        socket.isIPv4Enabled = false
        socket.isIPv6Enabled = false
        do {
            try socket.accept(onPort: 0)
            Issue.record("accept with both families disabled did not throw")
        } catch let error as QueueSocketError {
            #expect(error.code == .badConfig)
        }
    }

    @Test("reads and writes with invalid arguments are ignored; the next valid read gets every byte")
    func ignoredCalls() throws {
        let pair = try QueuePair()
        let small = NSMutableData(length: 4)
        pair.client.readData(toLength: 0, withTimeout: -1, tag: 1)
        pair.client.readData(to: Data(), withTimeout: -1, tag: 2)
        pair.client.readData(to: QueueSocket.crlfData, withTimeout: -1, maxLength: 1, tag: 3)
        pair.client.readData(withTimeout: -1, buffer: small, bufferOffset: 5, tag: 4)
        pair.client.readData(toLength: 3, withTimeout: -1, buffer: small, bufferOffset: 99, tag: 5)
        pair.client.readData(withTimeout: -1, buffer: nil, bufferOffset: 1, tag: 8)
        pair.client.readData(to: QueueSocket.crlfData, withTimeout: -1, buffer: small, bufferOffset: 5, tag: 9)
        pair.client.write(Data(), withTimeout: -1, tag: 6)
        pair.client.readData(to: QueueSocket.crlfData, withTimeout: 10, tag: 7)
        pair.child.write(Data("every byte\r\n".utf8), withTimeout: 10, tag: 0)
        #expect(pair.recorder.wait { pair.recorder.events("client").count >= 2 })
        #expect(
            pair.recorder.events("client") == [
                .connected(host: "127.0.0.1", port: pair.server.port), .read(Data("every byte\r\n".utf8), tag: 7),
            ])
        pair.tearDown()
    }
}
