import AsyncSocketCore
import Foundation
import Logging

/// A client and a server engine connected in memory: ciphertext is pumped between them in a loop
/// bounded by a step count.
package final class TLSEnginePair {
    package let client: TLSEngine
    package let server: TLSEngine
    package private(set) var clientStatus = HandshakeStatus.needsMoreCiphertext
    package private(set) var serverStatus = HandshakeStatus.needsMoreCiphertext
    /// The chains the client was asked to decide about (manual trust).
    package private(set) var trustRequests: [CertificateChain] = []

    package init(client: TLSSettings, server: TLSSettings, connectHost: String? = "localhost", logger: Logger? = nil)
        throws
    {
        self.client = try TLSEngine(settings: client, connectHost: connectHost, logger: logger)
        self.server = try TLSEngine(settings: server, connectHost: nil, logger: logger)
    }

    /// Runs both handshakes until neither moves any more. A trust decision is answered by `trust`;
    /// without one the loop stops there.
    @discardableResult
    package func handshake(trust: ((CertificateChain) -> Bool)? = nil, maxSteps: Int = 40) -> (
        client: HandshakeStatus, server: HandshakeStatus
    ) {
        for _ in 0..<maxSteps {
            let before = (clientStatus, serverStatus)
            if !Self.isFinal(clientStatus) {
                clientStatus = client.handshake()
            }
            if case .trustDecisionNeeded(let chain) = clientStatus {
                trustRequests.append(chain)
                guard let trust else { break }
                client.resolveTrust(accepted: trust(chain))
                clientStatus = client.handshake()
            }
            var moved = Self.move(from: client, to: server)
            if !Self.isFinal(serverStatus) {
                serverStatus = server.handshake()
            }
            moved += Self.move(from: server, to: client)
            if moved == 0 && before == (clientStatus, serverStatus) {
                break
            }
        }
        return (clientStatus, serverStatus)
    }

    /// Moves all pending ciphertext both ways; returns the byte count.
    @discardableResult
    package func pump() -> Int {
        Self.move(from: client, to: server) + Self.move(from: server, to: client)
    }

    /// Moves `from`'s pending ciphertext into `to`; returns the byte count.
    @discardableResult
    package static func move(from sender: TLSEngine, to receiver: TLSEngine) -> Int {
        var buffer = [UInt8](repeating: 0, count: 4096)
        var total = 0
        while true {
            let count = buffer.withUnsafeMutableBytes { sender.takeCiphertext(into: $0) }
            if count == 0 { return total }
            buffer.withUnsafeBytes { receiver.feedCiphertext(UnsafeRawBufferPointer(rebasing: $0.prefix(count))) }
            total += count
        }
    }

    package static func isFinal(_ status: HandshakeStatus) -> Bool {
        switch status {
        case .complete, .failed: return true
        case .needsMoreCiphertext, .trustDecisionNeeded: return false
        }
    }

    /// Sends `bytes` from `sender` to `receiver` in pieces of `pieceSize` bytes, reading with a buffer of
    /// `readSize` bytes; returns everything the receiver decrypted, or `nil` when a step failed.
    package static func transfer(
        _ bytes: [UInt8], from sender: TLSEngine, to receiver: TLSEngine, pieceSize: Int, readSize: Int
    ) -> [UInt8]? {
        var received: [UInt8] = []
        received.reserveCapacity(bytes.count)
        var readBuffer = [UInt8](repeating: 0, count: readSize)
        var offset = 0
        while offset < bytes.count {
            let end = min(bytes.count, offset + pieceSize)
            let result = bytes.withUnsafeBytes {
                sender.writePlaintext(UnsafeRawBufferPointer(rebasing: $0[offset..<end]))
            }
            guard case .bytes(let count) = result, count > 0 else { return nil }
            offset += count
            move(from: sender, to: receiver)
            guard drain(receiver, into: &received, buffer: &readBuffer) else { return nil }
        }
        return received
    }

    /// Reads everything `engine` can decrypt now; `false` on anything but bytes and needing more.
    package static func drain(_ engine: TLSEngine, into received: inout [UInt8], buffer: inout [UInt8]) -> Bool {
        while true {
            let result = buffer.withUnsafeMutableBytes { engine.readPlaintext(into: $0) }
            switch result {
            case .bytes(let count): received.append(contentsOf: buffer.prefix(count))
            case .needsMoreCiphertext: return true
            case .closed, .failed: return false
            }
        }
    }

    /// Reads once from `engine` with a buffer of `size` bytes.
    package static func readOnce(_ engine: TLSEngine, size: Int = 4096) -> (TLSReadResult, [UInt8]) {
        var buffer = [UInt8](repeating: 0, count: size)
        let result = buffer.withUnsafeMutableBytes { engine.readPlaintext(into: $0) }
        if case .bytes(let count) = result {
            return (result, Array(buffer.prefix(count)))
        }
        return (result, [])
    }

    /// Writes all of `text` through `engine`.
    package static func write(_ text: String, to engine: TLSEngine) -> TLSWriteResult {
        Array(text.utf8).withUnsafeBytes { engine.writePlaintext($0) }
    }
}

extension HandshakeStatus {
    /// The failure's code, if the handshake failed.
    package var failureCode: TLSError.Code? {
        if case .failed(let error) = self { return error.code }
        return nil
    }

    /// The failure, if the handshake failed.
    package var failure: TLSError? {
        if case .failed(let error) = self { return error }
        return nil
    }
}
