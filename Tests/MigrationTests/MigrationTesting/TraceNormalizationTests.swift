import AsyncSocketKit
import Foundation
import MigrationTesting
import Testing

@Suite("MigrationTesting: how errors and traces are normalized")
struct TraceNormalizationTests {
    @Test("legacy and GCD errors map onto one close reason")
    func closeReasons() {
        let posixReset = NSError(domain: NSPOSIXErrorDomain, code: Int(ECONNRESET))
        #expect(CloseReason(legacyError: nil) == .byPeer)
        #expect(CloseReason(modernError: nil) == .byUser)
        #expect(CloseReason(modernError: QueueSocketError(.closed)) == .byPeer)
        #expect(CloseReason(legacyError: AsyncSocketError(.readMaxedOut)) == .readMaxedOut)
        #expect(CloseReason(modernError: QueueSocketError(.readMaxedOut)) == .readMaxedOut)
        #expect(CloseReason(legacyError: AsyncSocketError(.connectTimeout)) == .connectTimeout)
        #expect(CloseReason(modernError: QueueSocketError(.connectTimeout)) == .connectTimeout)
        #expect(CloseReason(legacyError: AsyncSocketError(.readTimeout)) == .readTimeout)
        #expect(CloseReason(modernError: QueueSocketError(.writeTimeout)) == .writeTimeout)
        #expect(CloseReason(legacyError: posixReset) == .posix(Int(ECONNRESET)))
        #expect(CloseReason(modernError: posixReset) == .posix(Int(ECONNRESET)))
        let refused = NSError(domain: NSPOSIXErrorDomain, code: Int(ECONNREFUSED))
        #expect(
            CloseReason(legacyError: AsyncSocketError(.socketError, underlying: refused)) == .posix(Int(ECONNREFUSED)))
        #expect(
            CloseReason(modernError: TLSError(code: .closedAbort, message: "x"))
                == .tls(TLSError.Code.closedAbort.rawValue))
        #expect(
            CloseReason(modernError: QueueSocketError(.other, "odd"))
                == .other(domain: "GCDAsyncSocketErrorDomain", code: 8))
    }

    static let trace: [TraceEntry] = [
        TraceEntry(socket: "client", event: .connected(host: "127.0.0.1")),
        TraceEntry(socket: "client", event: .partialRead(tag: 1, length: 2)),
        TraceEntry(socket: "client", event: .read(tag: 1, data: Data("ab".utf8))),
        TraceEntry(socket: "client", event: .wrote(tag: 5)),
        TraceEntry(socket: "client", event: .read(tag: 1, data: Data("cd".utf8))),
        TraceEntry(socket: "client", event: .readStreamClosed),
        TraceEntry(socket: "client", event: .disconnected(.byPeer)),
    ]

    @Test("the standard rules drop partial progress and keep the rest")
    func standardRules() {
        #expect(
            EquivalenceRules.standard.normalize(Self.trace).map(\.event) == [
                .connected(host: "127.0.0.1"), .read(tag: 1, data: Data("ab".utf8)), .wrote(tag: 5),
                .read(tag: 1, data: Data("cd".utf8)), .readStreamClosed, .disconnected(.byPeer),
            ])
    }

    @Test("reads of one socket and tag are joined across a write; custom rules map and drop")
    func optionalRules() {
        var rules = EquivalenceRules()
        rules.ignoresPartialProgress = false
        rules.mergesConsecutiveReads = true
        rules.ignoresReadStreamClosed = true
        rules.custom = [
            { entry in
                guard case .wrote = entry.event else { return entry }
                return nil
            },
            { entry in TraceEntry(socket: entry.socket.uppercased(), event: entry.event) },
        ]
        #expect(
            rules.normalize(Self.trace) == [
                TraceEntry(socket: "CLIENT", event: .connected(host: "127.0.0.1")),
                TraceEntry(socket: "CLIENT", event: .partialRead(tag: 1, length: 2)),
                TraceEntry(socket: "CLIENT", event: .read(tag: 1, data: Data("abcd".utf8))),
                TraceEntry(socket: "CLIENT", event: .disconnected(.byPeer)),
            ])
    }

    @Test("events read like the callbacks they stand for")
    func descriptions() {
        #expect(TraceEvent.read(tag: 2, data: Data("OK\r\n\u{1}".utf8)).description == #"read(tag 2, "OK\r\n\x01")"#)
        #expect(TraceEvent.disconnected(.posix(104)).description == "disconnected(posix(104))")
        #expect(TraceEntry(socket: "child1", event: .wrote(tag: 3)).description == "child1: wrote(tag 3)")
        let long = TraceEvent.read(tag: 0, data: Data(repeating: 0x61, count: 100)).description
        #expect(long.hasSuffix("… (100 bytes))"))
    }
}
