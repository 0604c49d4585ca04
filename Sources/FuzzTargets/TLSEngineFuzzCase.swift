import AsyncSocketCore
import Foundation

// The TLS engine fuzz target: a TLSEngine in either role, with a few settings picked by the input,
// is fed the rest of the input as ciphertext in pieces, and asked to handshake, read and write
// after each. Garbage must make it wait for more or fail with a TLSError — never finish a handshake,
// hand out plaintext, or crash.
package struct TLSEngineFuzzCase {
    let settings: TLSSettings
    let ciphertext: [UInt8]

    /// Decodes a case from fuzz input.
    package init(_ data: UnsafeRawBufferPointer) {
        var input = FuzzInput(data)
        // Six settings in all, so the engines share the few SSL contexts TLSContextCache keeps.
        let variant = input.int(in: 0...2)
        var settings = TLSSettings(role: input.bool() ? .server : .client)
        if settings.role == .server {
            settings.identity = ThrowawayIdentity.pem
            settings.clientAuthentication = variant == 1 ? .require : .none
        } else {
            settings.manualTrustEvaluation = variant == 1
        }
        if variant == 2 {
            settings.alpnProtocols = ["h2", "http/1.1"]
            settings.requiresALPN = true
            settings.minimumVersion = settings.role == .client ? .tls1_3 : nil
            settings.maximumVersion = settings.role == .server ? .tls1_2 : nil
        }
        self.settings = settings
        ciphertext = input.rest()
    }

    /// Runs the case; returns a description of what went wrong, or `nil`.
    package func run() -> String? {
        let engine: TLSEngine
        do {
            engine = try TLSEngine(settings: settings, connectHost: "localhost", logger: nil)
        } catch {
            return "building an engine failed with \(error)"
        }
        return Self.feedGarbage(ciphertext, to: engine)
    }

    /// Feeds `garbage` to `engine` in pieces (each piece's first byte says how long it is), with a
    /// handshake, a read and a write after each; returns what went wrong, or `nil`.
    static func feedGarbage(_ garbage: [UInt8], to engine: TLSEngine) -> String? {
        var scratch = [UInt8](repeating: 0, count: 4096)
        var cursor = 0
        while cursor < garbage.count {
            let end = min(garbage.count, cursor + 1 + Int(garbage[cursor]))
            garbage[cursor..<end].withUnsafeBytes { engine.feedCiphertext($0) }
            cursor = end
            switch engine.handshake() {
            case .complete: return "a handshake finished on garbage ciphertext"
            case .trustDecisionNeeded: return "a trust decision was asked on garbage ciphertext"
            case .needsMoreCiphertext, .failed: break
            }
            if case .bytes(let count) = scratch.withUnsafeMutableBytes({ engine.readPlaintext(into: $0) }) {
                return "\(count) bytes of plaintext came out of garbage ciphertext"
            }
            _ = scratch.withUnsafeBytes { engine.writePlaintext(UnsafeRawBufferPointer(rebasing: $0.prefix(16))) }
            while engine.pendingCiphertext > 0 {
                _ = scratch.withUnsafeMutableBytes { engine.takeCiphertext(into: $0) }
            }
        }
        engine.peerClosed()
        if case .complete = engine.handshake() {
            return "a handshake finished after the peer closed"
        }
        engine.close()
        return nil
    }
}
