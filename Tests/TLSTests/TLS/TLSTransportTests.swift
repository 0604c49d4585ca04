import AsyncSocketCore
import Foundation
import SocketTestSupport
import Testing

@Suite("TLSTransport: TLS over another ByteTransport")
struct TLSTransportTests {
    /// A client and a server TLSTransport over a memory pipe.
    private struct Connection {
        let clientEnd: MemoryPipeEnd
        let serverEnd: MemoryPipeEnd
        let client: TLSTransport
        let server: TLSTransport

        init(client clientSettings: TLSSettings? = nil) throws {
            let fixture = try TLSFixture.shared()
            (clientEnd, serverEnd) = MemoryPipeEnd.pair()
            client = TLSTransport(
                engine: try TLSEngine(
                    settings: clientSettings ?? fixture.clientSettings(), connectHost: "localhost", logger: nil),
                lower: clientEnd)
            server = TLSTransport(
                engine: try TLSEngine(settings: fixture.serverSettings(), connectHost: nil, logger: nil),
                lower: serverEnd)
        }

        /// Steps both handshakes until neither changes, at most `steps` times.
        func handshake(steps: Int = 20) -> (HandshakeStatus, HandshakeStatus) {
            var statuses = (HandshakeStatus.needsMoreCiphertext, HandshakeStatus.needsMoreCiphertext)
            for _ in 0..<steps {
                let next = (client.handshakeStep(), server.handshakeStep())
                if next == statuses && clientEnd.available == 0 && serverEnd.available == 0 { break }
                statuses = next
            }
            return statuses
        }
    }

    private static func read(_ transport: TLSTransport, size: Int = 4096) -> (TransportReadResult, [UInt8]) {
        var buffer = [UInt8](repeating: 0, count: size)
        let result = buffer.withUnsafeMutableBytes { transport.read(into: $0) }
        if case .bytes(let count) = result {
            return (result, Array(buffer.prefix(count)))
        }
        return (result, [])
    }

    @Test("handshake and plaintext both ways, with a short read meaning nothing more is there")
    func roundTrip() throws {
        let connection = try Connection()
        #expect(connection.handshake() == (.complete, .complete))
        #expect(!connection.client.hasPendingCiphertext && !connection.server.hasPendingCiphertext)
        let message = Array("ping\n".utf8)
        #expect(message.withUnsafeBytes { connection.client.write($0) } == .bytes(message.count))
        #expect(Self.read(connection.server).1 == message)
        #expect(Self.read(connection.server).0 == .wouldBlock)
        let reply = Array("pong\n".utf8)
        #expect(reply.withUnsafeBytes { connection.server.write($0) } == .bytes(reply.count))
        #expect(Self.read(connection.client).1 == reply)
    }

    @Test("plaintext left behind by a full read is reported by hasBufferedInput until a read comes up short")
    func bufferedInput() throws {
        let connection = try Connection()
        #expect(connection.handshake() == (.complete, .complete))
        let payload = (0..<10_000).map { UInt8(truncatingIfNeeded: $0) }
        #expect(payload.withUnsafeBytes { connection.server.write($0) } == .bytes(payload.count))
        let (first, head) = Self.read(connection.client, size: 100)
        #expect(first == .bytes(100))
        #expect(connection.clientEnd.available == 0)  // everything is inside the client's engine now
        #expect(connection.client.hasBufferedInput)
        let (second, tail) = Self.read(connection.client, size: 20_000)
        #expect(second == .bytes(payload.count - 100))
        #expect(head + tail == payload)
        #expect(!connection.client.hasBufferedInput)
        #expect(Self.read(connection.client).0 == .wouldBlock)
    }

    @Test("ciphertext backs up behind a small send capacity until flush() completes it")
    func backpressure() throws {
        let connection = try Connection()
        #expect(connection.handshake() == (.complete, .complete))
        let payload = (0..<200_000).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        connection.clientEnd.sendCapacity = 1_000
        var offset = 0
        var received: [UInt8] = []
        var blocked = 0
        for _ in 0..<10_000 where received.count < payload.count {
            if offset < payload.count {
                let result = payload.withUnsafeBytes {
                    connection.client.write(UnsafeRawBufferPointer(rebasing: $0[offset...]))
                }
                switch result {
                case .bytes(let count): offset += count
                case .wouldBlock: blocked += 1
                case .failed(let code): Issue.record("write failed: \(code)")
                }
            }
            if connection.client.hasPendingCiphertext {
                #expect(connection.clientEnd.sendCapacity == 0)
                // The network drains a little, then the driver sees writability and flushes.
                connection.clientEnd.sendCapacity = 7_000
                _ = connection.client.flush()
            }
            while case (.bytes, let bytes) = Self.read(connection.server, size: 3_333) {
                received += bytes
            }
        }
        #expect(blocked > 0)
        connection.clientEnd.sendCapacity = .max
        #expect(connection.client.flush() == .bytes(0))
        #expect(!connection.client.hasPendingCiphertext)
        #expect(received == payload)
    }

    @Test("a write that leaves ciphertext behind reports it; flush() sends the rest")
    func lastWriteBacksUp() throws {
        let connection = try Connection()
        #expect(connection.handshake() == (.complete, .complete))
        connection.clientEnd.sendCapacity = 10
        let message = [UInt8](repeating: 0x41, count: 500)
        #expect(message.withUnsafeBytes { connection.client.write($0) } == .bytes(500))
        #expect(connection.client.hasPendingCiphertext)
        #expect(connection.client.flush() == .wouldBlock)
        #expect(Self.read(connection.server).0 == .wouldBlock)
        connection.clientEnd.sendCapacity = .max
        guard case .bytes(let sent) = connection.client.flush() else {
            Issue.record("flush should complete")
            return
        }
        #expect(sent > 500 - 10)
        #expect(!connection.client.hasPendingCiphertext)
        #expect(Self.read(connection.server).1 == message)
    }

    @Test("close_notify and a bare close both end the stream; a bare close is recorded as truncation")
    func endOfStream() throws {
        let connection = try Connection()
        #expect(connection.handshake() == (.complete, .complete))
        _ = Array("bye".utf8).withUnsafeBytes { connection.server.write($0) }
        guard case .bytes = connection.server.sendCloseNotify() else {
            Issue.record("close_notify should go out at once")
            return
        }
        #expect(!connection.server.hasPendingCiphertext)
        #expect(Self.read(connection.client).1 == Array("bye".utf8))
        #expect(Self.read(connection.client).0 == .endOfStream)
        #expect(connection.client.lastError == nil)

        let second = try Connection()
        #expect(second.handshake() == (.complete, .complete))
        second.serverEnd.closeWriting()
        #expect(Self.read(second.client).0 == .endOfStream)
        #expect(second.client.lastError?.code == .closedAbort)
        #expect(second.client.lowerEnded)
    }

    @Test("a TLS failure is .failed with the negative OSStatus and the error in lastError")
    func failures() throws {
        let connection = try Connection()
        #expect(connection.client.handshakeStep() == .needsMoreCiphertext)
        connection.clientEnd.deliver(Array("HTTP/1.1 400 Bad Request\r\n\r\n".utf8))
        let status = connection.client.handshakeStep()
        #expect(status.failureCode == .protocolError)
        #expect(connection.client.lastError == status.failure)
        #expect(Self.read(connection.client).0 == .failed(-9800))

        let closing = try Connection()
        #expect(closing.client.handshakeStep() == .needsMoreCiphertext)
        closing.serverEnd.closeWriting()
        #expect(closing.client.handshakeStep().failureCode == .closedAbort)
    }

    @Test("SocketEngine reads lines through a TLSTransport")
    func socketEngineOverTLS() throws {
        let connection = try Connection()
        #expect(connection.handshake() == (.complete, .complete))
        let lines = Array("first line\nsecond line\n".utf8)
        _ = lines.withUnsafeBytes { connection.server.write($0) }
        let engine = SocketEngine()
        _ = engine.enqueueRead(ReadRequest(kind: .separator(Array("\n".utf8), maxLength: 0), timeout: -1, tag: 1))
        _ = engine.enqueueRead(ReadRequest(kind: .separator(Array("\n".utf8), maxLength: 0), timeout: -1, tag: 2))
        #expect(engine.nextRead(peerEnded: false) == .start(timeout: nil))
        let first = engine.runReadPass(transportReadable: true, transport: connection.client)
        #expect(first.completed?.data == Data("first line\n".utf8))
        #expect(engine.nextRead(peerEnded: false) == .start(timeout: nil))
        let second = engine.runReadPass(transportReadable: false, transport: connection.client)
        #expect(second.completed?.data == Data("second line\n".utf8))
    }
}
