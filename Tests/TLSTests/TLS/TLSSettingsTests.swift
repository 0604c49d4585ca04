import AsyncSocketCore
import Foundation
import Testing

@Suite("TLSSettings: the legacy startTLS dictionary")
struct TLSSettingsTests {
    private func expectError(
        _ dictionary: [String: Any], key: String, mentioning text: String? = nil,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        do {
            let settings = try TLSSettings(legacyDictionary: dictionary)
            Issue.record("expected an error for \(key), got \(settings)", sourceLocation: sourceLocation)
        } catch {
            #expect(error.key == key, "\(error)", sourceLocation: sourceLocation)
            #expect(error.description.contains(key), sourceLocation: sourceLocation)
            if let text {
                #expect(error.description.contains(text), "\(error)", sourceLocation: sourceLocation)
            }
        }
    }

    @Test("an empty dictionary gives strict client settings")
    func empty() throws {
        let settings = try TLSSettings(legacyDictionary: [:])
        #expect(settings == TLSSettings(role: .client))
        #expect(settings.peerName == .automatic)
        #expect(settings.trustRoots == .system)
        #expect(settings.validatesCertificateChain)
        #expect(!settings.allowsAnyRoot && !settings.allowsExpiredRoots && !settings.allowsExpiredCertificates)
    }

    @Test("every key, with the Objective-C types of the original")
    func everyKey() throws {
        let settings = try TLSSettings(legacyDictionary: [
            "kCFStreamSSLPeerName": NSString(string: "example.org"),
            "kCFStreamSSLIsServer": NSNumber(value: true),
            "kCFStreamSSLCertificates": NSArray(array: [
                NSDictionary(dictionary: ["certificate": "/c.pem", "key": "/k.pem", "password": "pw"])
            ]),
            "kCFStreamSSLLevel": "kCFStreamSocketSecurityLevelNegotiatedSSL",
            "kCFStreamSSLAllowsAnyRoot": NSNumber(value: true),
            "kCFStreamSSLAllowsExpiredRoots": NSNumber(value: 1),
            "kCFStreamSSLAllowsExpiredCertificates": NSNumber(value: true),
            "kCFStreamSSLValidatesCertificateChain": NSNumber(value: false),
            "GCDAsyncSocketManuallyEvaluateTrust": NSNumber(value: true),
            "GCDAsyncSocketSSLProtocolVersionMin": NSNumber(value: 8),
            "GCDAsyncSocketSSLProtocolVersionMax": NSNumber(value: 10),
            "GCDAsyncSocketSSLALPN": NSArray(array: ["h2", "http/1.1"]),
            "GCDAsyncSocketSSLCipherSuites": NSArray(array: [
                "ECDHE-ECDSA-AES128-GCM-SHA256", "TLS_AES_128_GCM_SHA256", "ECDHE-RSA-AES256-GCM-SHA384",
            ]),
        ])
        var expected = TLSSettings(role: .server)
        expected.peerName = .name("example.org")
        expected.identity = .pem(certificatePath: "/c.pem", keyPath: "/k.pem", password: "pw")
        expected.allowsAnyRoot = true
        expected.allowsExpiredRoots = true
        expected.allowsExpiredCertificates = true
        expected.validatesCertificateChain = false
        expected.manualTrustEvaluation = true
        expected.minimumVersion = .tls1_2
        expected.maximumVersion = .tls1_3
        expected.alpnProtocols = ["h2", "http/1.1"]
        expected.cipherList = "ECDHE-ECDSA-AES128-GCM-SHA256:ECDHE-RSA-AES256-GCM-SHA384"
        expected.cipherSuites = "TLS_AES_128_GCM_SHA256"
        #expect(settings == expected)
    }

    @Test("every key, with Swift values")
    func swiftValues() throws {
        let identity = TLSSettings.Identity.pkcs12(Data([1, 2, 3]), password: "p")
        let settings = try TLSSettings(legacyDictionary: [
            "kCFStreamSSLPeerName": TLSSettings.PeerName.name("host"),
            "kCFStreamSSLIsServer": false,
            "kCFStreamSSLCertificates": identity,
            "kCFStreamSSLLevel": "kCFStreamSocketSecurityLevelTLSv1",
            "kCFStreamSSLAllowsAnyRoot": false,
            "GCDAsyncSocketManuallyEvaluateTrust": true,
            "GCDAsyncSocketSSLProtocolVersionMin": TLSSettings.Version.tls1_3,
            "GCDAsyncSocketSSLProtocolVersionMax": 999,
            "GCDAsyncSocketSSLALPN": ["h2"],
            "GCDAsyncSocketSSLCipherSuites": "TLS_AES_256_GCM_SHA384:ECDHE-ECDSA-CHACHA20-POLY1305",
        ])
        #expect(settings.role == .client)
        #expect(settings.peerName == .name("host"))
        #expect(settings.identity == identity)
        #expect(settings.manualTrustEvaluation)
        #expect(settings.minimumVersion == .tls1_3)
        #expect(settings.maximumVersion == nil)
        #expect(settings.alpnProtocols == ["h2"])
        #expect(settings.cipherSuites == "TLS_AES_256_GCM_SHA384")
        #expect(settings.cipherList == "ECDHE-ECDSA-CHACHA20-POLY1305")
    }

    @Test("NSNull or an empty peer name turns the name check off")
    func peerNameNone() throws {
        #expect(try TLSSettings(legacyDictionary: ["kCFStreamSSLPeerName": NSNull()]).peerName == .none)
        #expect(try TLSSettings(legacyDictionary: ["kCFStreamSSLPeerName": ""]).peerName == .none)
        #expect(
            try TLSSettings(legacyDictionary: ["kCFStreamSSLPeerName": TLSSettings.PeerName.none]).peerName == .none)
        expectError(["kCFStreamSSLPeerName": 42], key: "kCFStreamSSLPeerName", mentioning: "NSNull()")
    }

    @Test("protocol versions: SSLProtocol numbers, names, and nothing below TLS 1.2")
    func versions() throws {
        let key = "GCDAsyncSocketSSLProtocolVersionMin"
        let accepted: [(Any, TLSSettings.Version)] = [
            (8, .tls1_2), (10, .tls1_3), (NSNumber(value: 8), .tls1_2), (NSNumber(value: 10.0), .tls1_3),
            ("TLSv1.2", .tls1_2), ("TLSv1.3", .tls1_3), (TLSSettings.Version.tls1_2, .tls1_2),
        ]
        for (value, version) in accepted {
            #expect(try TLSSettings(legacyDictionary: [key: value]).minimumVersion == version)
        }
        #expect(try TLSSettings(legacyDictionary: [key: 999]).minimumVersion == .tls1_3)
        for old in [0, 1, 2, 4, 7] {
            expectError([key: old], key: key, mentioning: "below TLS 1.2")
        }
        expectError([key: "TLSv1.1"], key: key, mentioning: "below TLS 1.2")
        expectError([key: "SSLv3"], key: key, mentioning: "below TLS 1.2")
        expectError(
            ["GCDAsyncSocketSSLProtocolVersionMax": 9], key: "GCDAsyncSocketSSLProtocolVersionMax", mentioning: "DTLS")
        expectError([key: 12_345], key: key, mentioning: "not an SSLProtocol")
        expectError([key: NSNumber(value: 8.5)], key: key)
        expectError([key: "TLS 1.2"], key: key)
        expectError([key: [8]], key: key)
    }

    @Test("the security level")
    func level() throws {
        let key = "kCFStreamSSLLevel"
        #expect(try TLSSettings(legacyDictionary: [key: "kCFStreamSocketSecurityLevelTLSv1"]) == TLSSettings())
        expectError([key: "kCFStreamSocketSecurityLevelNone"], key: key, mentioning: "without security")
        expectError([key: "kCFStreamSocketSecurityLevelSSLv3"], key: key, mentioning: "not supported")
        expectError([key: "whatever"], key: key)
        expectError([key: 3], key: key)
    }

    @Test("certificates: identities, dictionaries, and what they may not be")
    func certificates() throws {
        let key = "kCFStreamSSLCertificates"
        let pemData = TLSSettings.Identity.pemData(certificate: Data([1]), key: Data([2]), password: nil)
        #expect(try TLSSettings(legacyDictionary: [key: [pemData]]).identity == pemData)
        #expect(
            try TLSSettings(legacyDictionary: [key: [["certificate": Data([1]), "key": Data([2])]]]).identity
                == pemData)
        #expect(
            try TLSSettings(legacyDictionary: [key: [["pkcs12": Data([9]), "password": "x"]]]).identity
                == .pkcs12(Data([9]), password: "x"))
        #expect(
            try TLSSettings(legacyDictionary: [key: [["pkcs12": Data([9])]]]).identity
                == .pkcs12(Data([9]), password: ""))
        expectError([key: []], key: key, mentioning: "0 elements")
        expectError([key: [pemData, pemData]], key: key, mentioning: "intermediate")
        expectError([key: "cert.pem"], key: key)
        expectError([key: [42]], key: key + "[0]")
        expectError([key: [["certificate": "/c", "key": "/k", "colour": "red"]]], key: key + "[0].colour")
        expectError([key: [["certificate": "/c"]]], key: key + "[0].key")
        expectError([key: [["certificate": "/c", "key": Data()]]], key: key + "[0].certificate")
        expectError([key: [["certificate": "/c", "key": "/k", "password": 1234]]], key: key + "[0].password")
        expectError([key: [["pkcs12": "file.p12"]]], key: key + "[0].pkcs12")
        expectError([key: [["pkcs12": Data(), "certificate": "/c"]]], key: key + "[0].pkcs12")
    }

    @Test("ALPN and cipher lists")
    func lists() throws {
        expectError(["GCDAsyncSocketSSLALPN": "h2"], key: "GCDAsyncSocketSSLALPN")
        expectError(["GCDAsyncSocketSSLALPN": [1, 2]], key: "GCDAsyncSocketSSLALPN")
        expectError(["GCDAsyncSocketSSLALPN": [""]], key: "GCDAsyncSocketSSLALPN", mentioning: "0 bytes")
        let ciphers = "GCDAsyncSocketSSLCipherSuites"
        expectError([ciphers: [NSNumber(value: 0xC02B)]], key: ciphers, mentioning: "SecureTransport cipher numbers")
        expectError([ciphers: "A::B"], key: ciphers, mentioning: "empty name")
        expectError([ciphers: [String]()], key: ciphers, mentioning: "empty name")
    }

    @Test("an unknown key is an error naming it")
    func unknownKey() {
        expectError(
            ["GCDAsyncSocketUseCFStreamForTLS": true], key: "GCDAsyncSocketUseCFStreamForTLS", mentioning: "unknown key"
        )
        expectError(["kCFStreamSSLPeerName": "a", "zzz": 1], key: "zzz")
    }

    @Test("a value of the wrong type is an error for every key, never a crash")
    func wrongTypes() {
        let odd: [Any] = [
            Date(), NSNull(), [1: 2], 3.5, Data([1]), ["x": ["y"]], NSObject(), (1, 2), Optional<Int>.none as Any,
        ]
        var errors = 0
        for key in TLSSettings.LegacyKey.allCases {
            for value in odd {
                do {
                    _ = try TLSSettings(legacyDictionary: [key.rawValue: value])
                    // Only NSNull for the peer name is a valid odd value.
                    #expect(key == .peerName && value is NSNull, "\(key) accepted \(type(of: value))")
                } catch {
                    errors += 1
                    #expect(error.key.hasPrefix(key.rawValue), "\(error)")
                }
            }
        }
        #expect(errors == TLSSettings.LegacyKey.allCases.count * odd.count - 1)
        // Booleans: numbers other than 0 and 1, and strings, are refused.
        expectError(["kCFStreamSSLAllowsAnyRoot": NSNumber(value: 2)], key: "kCFStreamSSLAllowsAnyRoot")
        expectError(["kCFStreamSSLIsServer": "YES"], key: "kCFStreamSSLIsServer", mentioning: "\"YES\"")
    }
}
