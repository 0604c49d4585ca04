import AsyncSocketKit
import Foundation
import SocketTestSupport
import Testing

@Suite("TLSSettings: the AsyncSocketTLSTrustRoots legacy key")
struct TLSSettingsTrustRootsTests {
    private func expectError(
        _ value: Any, key: String, mentioning text: String, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        do {
            let settings = try TLSSettings(legacyDictionary: [AsyncSocketTLSTrustRoots: value])
            Issue.record("expected an error for \(key), got \(settings)", sourceLocation: sourceLocation)
        } catch {
            #expect(error.key == key, "\(error)", sourceLocation: sourceLocation)
            #expect(error.description.contains(key), sourceLocation: sourceLocation)
            #expect(error.description.contains(text), "\(error)", sourceLocation: sourceLocation)
        }
    }

    @Test("the public constant is the key's name")
    func constant() {
        #expect(AsyncSocketTLSTrustRoots == "AsyncSocketTLSTrustRoots")
        #expect(TLSSettings.LegacyKey(rawValue: AsyncSocketTLSTrustRoots) == .trustRoots)
    }

    @Test("a path, an NSString, an array or NSArray of paths add to the system store; TrustRoots is taken as is")
    func accepted() throws {
        let fixture = try TLSFixture.shared()
        let ca = fixture.caPath
        let other = fixture.otherCAPath
        #expect(try TLSSettings(legacyDictionary: [AsyncSocketTLSTrustRoots: ca]).trustRoots == .systemAnd([ca]))
        #expect(
            try TLSSettings(legacyDictionary: [AsyncSocketTLSTrustRoots: NSString(string: ca)]).trustRoots
                == .systemAnd([ca]))
        #expect(
            try TLSSettings(legacyDictionary: [AsyncSocketTLSTrustRoots: [ca, other]]).trustRoots
                == .systemAnd([ca, other]))
        #expect(
            try TLSSettings(legacyDictionary: [AsyncSocketTLSTrustRoots: NSArray(array: [ca])]).trustRoots
                == .systemAnd([ca]))
        // A hashed certificate directory is a path too.
        #expect(
            try TLSSettings(legacyDictionary: [AsyncSocketTLSTrustRoots: fixture.directory]).trustRoots
                == .systemAnd([fixture.directory]))
        let only = try TLSSettings(legacyDictionary: [AsyncSocketTLSTrustRoots: TLSSettings.TrustRoots.only([ca])])
        #expect(only.trustRoots == .only([ca]))
        // With the original keys beside it.
        let settings = try TLSSettings(legacyDictionary: [
            kCFStreamSSLPeerName: "localhost", AsyncSocketTLSTrustRoots: ca,
        ])
        #expect(settings.peerName == .name("localhost"))
        #expect(settings.trustRoots == .systemAnd([ca]))
    }

    @Test("a missing file, an empty path or list, and values of other types are errors naming the key")
    func refused() throws {
        let fixture = try TLSFixture.shared()
        let key = AsyncSocketTLSTrustRoots
        expectError("/nonexistent/ca.pem", key: key, mentioning: "\"/nonexistent/ca.pem\", which does not exist")
        expectError("", key: key, mentioning: "an empty path")
        expectError([String](), key: key, mentioning: "an empty array")
        expectError([fixture.caPath, "/nonexistent/b.pem"], key: key + "[1]", mentioning: "does not exist")
        expectError([fixture.caPath, 7] as [Any], key: key + "[1]", mentioning: "the number 7")
        expectError(TLSSettings.TrustRoots.only(["/nonexistent"]), key: key + "[0]", mentioning: "does not exist")
        expectError(NSNumber(value: 1), key: key, mentioning: "a path to a PEM CA file")
        expectError(Data(), key: key, mentioning: "a value of type")
    }
}
