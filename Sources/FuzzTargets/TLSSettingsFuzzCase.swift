import AsyncSocketCore
import Foundation

// The TLS settings fuzz target: the input becomes a legacy startTLS dictionary — known and unknown
// keys, values of every type ported code might pass (strings, numbers as Swift values and as
// NSNumber, Bools, NSNull, Data, arrays, nested dictionaries, the typed settings) — which
// `TLSSettings(legacyDictionary:)` must accept or refuse with an error naming one of its keys, the
// same way every time. Accepted settings then go to a `TLSEngine`, which must be built or refuse
// them with a TLSError; a built engine is fed the rest of the input as garbage ciphertext (see
// TLSEngineFuzzCase).
package struct TLSSettingsFuzzCase {
    /// Everything a case decoded: the dictionary, and the rest of the input (the "ciphertext").
    let dictionary: [String: Any]
    let ciphertext: [UInt8]

    static let stringPieces = [
        "", "TLSv1.2", "TLSv1.3", "TLSv1", "SSLv3", "kCFStreamSocketSecurityLevelNegotiatedSSL",
        "kCFStreamSocketSecurityLevelTLSv1", "kCFStreamSocketSecurityLevelNone", "example.com", "127.0.0.1", "::1",
        "h2", "http/1.1", "TLS_AES_128_GCM_SHA256", "ECDHE-RSA-AES128-GCM-SHA256", "ALL:!aNULL", ":", "certificate",
        "key", "password", "pkcs12", "*.example.com", "é", "\u{0}",
    ]

    /// Decodes a case from fuzz input.
    package init(_ data: UnsafeRawBufferPointer) {
        var input = FuzzInput(data)
        var dictionary: [String: Any] = [:]
        for _ in 0..<input.int(in: 0...6) {
            dictionary[Self.key(from: &input)] = Self.value(from: &input, depth: 0)
        }
        self.dictionary = dictionary
        ciphertext = input.rest()
    }

    /// Runs the case; returns a description of what went wrong, or `nil`.
    package func run() -> String? {
        let first = Result { () throws(TLSSettingsError) in try TLSSettings(legacyDictionary: dictionary) }
        let second = Result { () throws(TLSSettingsError) in try TLSSettings(legacyDictionary: dictionary) }
        guard first == second else {
            return "two parses of \(dictionary) differ: \(first) and \(second)"
        }
        switch first {
        case .failure(let error):
            guard dictionary.keys.contains(where: { error.key.hasPrefix($0) }), !error.description.isEmpty else {
                return "the error \(error) names no key of \(dictionary.keys.sorted())"
            }
            return nil
        case .success(let settings):
            if let unknown = dictionary.keys.first(where: { TLSSettings.LegacyKey(rawValue: $0) == nil }) {
                return "the unknown key \(unknown) was accepted"
            }
            return runEngine(settings)
        }
    }

    private func runEngine(_ settings: TLSSettings) -> String? {
        let engine: TLSEngine
        do {
            engine = try TLSEngine(settings: settings, connectHost: "example.com", logger: nil)
        } catch {
            return error.code == .badConfiguration ? nil : "building an engine failed with \(error)"
        }
        return TLSEngineFuzzCase.feedGarbage(ciphertext, to: engine)
    }

    private static func key(from input: inout FuzzInput) -> String {
        let known = TLSSettings.LegacyKey.allCases.map(\.rawValue)
        switch input.int(in: 0...7) {
        case 0: return input.string(maxLength: 8, from: Array("kCFStreamSSLab_"))
        case 1: return input.pick(known) + input.string(maxLength: 2, from: ["x", " ", "\u{0}"])
        default: return input.pick(known)
        }
    }

    private static func value(from input: inout FuzzInput, depth: Int) -> Any {
        switch input.int(in: 0...19) {
        case 0: return input.pick(stringPieces)
        case 1: return input.pick(stringPieces) + ":" + input.pick(stringPieces)
        case 2: return input.string(maxLength: 300, from: Array("ab:_-.1*/é"))
        case 3: return input.int(in: 0...1023) - 12
        case 4: return NSNumber(value: input.int(in: 0...65_535) - 100)
        case 5: return NSNumber(value: Double(input.int(in: 0...2047)) / 8 - 1)
        case 6: return input.bool()
        case 7: return NSNumber(value: input.bool())
        case 8: return NSNull()
        case 9: return Data(input.bytes(input.int(in: 0...64), from: Array(0...255)))
        case 10: return input.pick([Int.max, Int.min, 999, 8, 10, 9])
        case 11: return input.pick([TLSSettings.Version.tls1_2, .tls1_3])
        case 12: return input.pick([TLSSettings.PeerName.automatic, .none, .name("example.com"), .name("")])
        case 13:
            let password: String? = input.bool() ? nil : input.pick(stringPieces)
            return TLSSettings.Identity.pemData(
                certificate: Data(input.bytes(input.int(in: 0...32), from: Array(0...255))),
                key: Data(input.bytes(input.int(in: 0...32), from: Array(0...255))), password: password)
        case 14: return input.bool() ? Date(timeIntervalSince1970: 0) : URL(fileURLWithPath: "/")
        case 15...16 where depth < 3:
            return (0..<input.int(in: 0...3)).map { _ in value(from: &input, depth: depth + 1) }
        case 17 where depth < 3:
            return (0..<input.int(in: 0...3)).map { _ in input.pick(stringPieces) }
        case 18...19 where depth < 3:
            var nested: [String: Any] = [:]
            for _ in 0..<input.int(in: 0...4) {
                nested[input.pick(["certificate", "key", "password", "pkcs12", "other"])] =
                    value(from: &input, depth: depth + 1)
            }
            return nested
        default: return input.pick(stringPieces)
        }
    }
}
