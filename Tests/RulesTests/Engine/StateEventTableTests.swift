import AsyncSocketCore
import EngineTestSupport
import Foundation
import SocketTestSupport
import Testing

// Every event in every state, under both semantics. The other engine tests each follow one script;
// this table asks what each thing that can happen does to each state a socket can be in, so a change
// to the rules (EndOfStreamRule.swift, PassFollowUp.swift) or to the harness shows as the cells it moves.
// States: idle; unread bytes in the transport; a read waiting with none or part of its bytes; bytes
// read ahead with no read queued; a write blocked; a read and a write pending; a handshake running;
// disconnect-after-reading / -writing pending; closed. Events: bytes arrive, the peer closes, a reset,
// the peer drains, a timer fires, and the user's read, write, startTLS, disconnectAfter… and disconnect.
// Each expectation comes from the originals' documented behaviour, and every byte fed is accounted for:
// delivered, handed to TLS, unread at the close, still in the transport, held by the engine, or dropped
// by a plain disconnect.

/// What a cell leads to: the events after the state's own, the bytes `unreadData` held at an error
/// close, the bytes left in the transport, and those a plain disconnect threw away.
struct TableOutcome: Sendable {
    var events: [EngineHarness.Event]
    var unread: [UInt8]?
    var left: [UInt8] = []
    var dropped = 0

    static let nothing = TableOutcome(events: [])

    static func just(_ events: EngineHarness.Event..., left: String = "", dropped: Int = 0) -> TableOutcome {
        TableOutcome(events: events, left: bytes(left), dropped: dropped)
    }

    static func closes(
        _ reason: EngineHarness.CloseReason, after events: [EngineHarness.Event] = [], unread: String = ""
    ) -> TableOutcome {
        TableOutcome(events: events + [.closed(reason)], unread: bytes(unread))
    }

    static func disconnects(dropped: Int = 0, left: String = "") -> TableOutcome {
        TableOutcome(events: [.disconnected], left: bytes(left), dropped: dropped)
    }
}

enum TableState: String, CaseIterable, Sendable {
    case idle
    case bytesInTransport
    case readWaitingEmpty
    case readWaitingPartial
    case readAhead
    case writeBlocked
    case readAndWrite
    case handshakeRunning
    case disconnectAfterReadingPending
    case disconnectAfterWritingPending
    case closed

    /// Bytes the setup feeds.
    var fed: String {
        switch self {
        case .bytesInTransport: return "xy"
        case .readWaitingPartial: return "ab"
        case .readAhead: return "a\nbc"
        default: return ""
        }
    }

    /// A fresh harness brought to this state, its passes run. Timeouts: reads 5 s, writes 5 s (7 s
    /// beside a read, so the read's fires first).
    func build(_ semantics: Semantics) -> EngineHarness {
        let harness = EngineHarness(semantics: semantics)
        let line = ReadKind.separator(bytes("\n"), maxLength: 0)
        switch self {
        case .idle:
            break
        case .bytesInTransport:
            harness.feed(fed)
        case .readWaitingEmpty:
            harness.read(line, timeout: 5, tag: 1)
        case .readWaitingPartial:
            harness.read(line, timeout: 5, tag: 1)
            harness.runPasses()
            harness.feed(fed)
        case .readAhead:
            harness.read(line, tag: 1)
            harness.runPasses()
            harness.feed(fed)
        case .writeBlocked:
            harness.transport.sendCapacity = 2
            harness.write(bytes("hello"), timeout: 5, tag: 2)
        case .readAndWrite:
            harness.read(line, timeout: 5, tag: 1)
            harness.transport.sendCapacity = 2
            harness.write(bytes("hello"), timeout: 7, tag: 2)
        case .handshakeRunning:
            harness.startTLS()
        case .disconnectAfterReadingPending:
            harness.read(line, timeout: 5, tag: 1)
            harness.runPasses()
            harness.disconnectAfter(reading: true, writing: false)
        case .disconnectAfterWritingPending:
            harness.transport.sendCapacity = 2
            harness.write(bytes("hello"), timeout: 5, tag: 2)
            harness.runPasses()
            harness.disconnectAfter(reading: false, writing: true)
        case .closed:
            harness.disconnect()
        }
        harness.runPasses()
        return harness
    }
}

enum TableEvent: String, CaseIterable, Sendable {
    case feed
    case peerCloses
    case reset
    case peerDrains
    case timer
    case userRead
    case userWrite
    case userStartTLS
    case userDisconnectAfterReading
    case userDisconnectAfterWriting
    case userDisconnect

    /// Bytes the event feeds.
    var fed: String { self == .feed ? "cd\n" : "" }

    func apply(to harness: EngineHarness) {
        switch self {
        case .feed: harness.feed(fed)
        case .peerCloses: harness.peerCloses()
        case .reset: harness.transportFails(ECONNRESET)
        case .peerDrains: harness.peerDrains(10)
        case .timer: harness.advance(by: 5)
        case .userRead: harness.read(.length(2), tag: 3)
        case .userWrite: harness.write(bytes("zz"), tag: 4)
        case .userStartTLS: harness.startTLS()
        case .userDisconnectAfterReading: harness.disconnectAfter(reading: true, writing: false)
        case .userDisconnectAfterWriting: harness.disconnectAfter(reading: false, writing: true)
        case .userDisconnect: harness.disconnect()
        }
        harness.runPasses()
    }
}

struct TableCell: Sendable, CustomTestStringConvertible {
    var state: TableState
    var event: TableEvent
    var semantics: Semantics
    var expected: TableOutcome

    var testDescription: String { "\(semantics): \(state.rawValue) + \(event.rawValue)" }
}

private typealias Row = (legacy: TableOutcome, gcd: TableOutcome)

private func both(_ outcome: TableOutcome) -> Row { (outcome, outcome) }

private let eof = EngineHarness.CloseReason.failure(.endOfStream)
private let reset = EngineHarness.CloseReason.failure(.transport(ECONNRESET))

/// The expectations, state by state. Legacy closes with a reset's error wherever it notices one; GCD
/// notices it, like the peer's end, only once no bytes wait in the transport or the prebuffer, and then
/// cannot tell it from the end (its read source sees no bytes either way, QueueSocket+IO.swift): it
/// closes as at the end, a read waiting or not.
private let table: [TableState: [TableEvent: Row]] = [
    .idle: [
        .feed: both(.just(left: "cd\n")),
        .peerCloses: both(.closes(eof)),
        .reset: (.closes(reset), .closes(eof)),
        .peerDrains: both(.nothing),
        .timer: both(.nothing),
        .userRead: both(.nothing),
        .userWrite: both(.just(.wrote(tag: 4))),
        .userStartTLS: both(.just(.tlsStarted(prebuffered: []))),
        .userDisconnectAfterReading: both(.disconnects()),
        .userDisconnectAfterWriting: both(.disconnects()),
        .userDisconnect: both(.disconnects()),
    ],
    // No read wants them: they stay in the kernel. Legacy notices the peer's end at once all the same
    // (the bytes are its unreadData); GCD's read source is suspended, so the end goes unnoticed.
    .bytesInTransport: [
        .feed: both(.just(left: "xycd\n")),
        .peerCloses: (.closes(eof, unread: "xy"), .just(left: "xy")),
        .reset: (.closes(reset, unread: "xy"), .just(left: "xy")),
        .peerDrains: both(.just(left: "xy")),
        .timer: both(.just(left: "xy")),
        .userRead: both(.just(.read(bytes("xy"), tag: 3))),
        .userWrite: both(.just(.wrote(tag: 4), left: "xy")),
        .userStartTLS: both(.just(.tlsStarted(prebuffered: []), left: "xy")),
        .userDisconnectAfterReading: both(.disconnects(left: "xy")),
        .userDisconnectAfterWriting: both(.disconnects(left: "xy")),
        .userDisconnect: both(.disconnects(left: "xy")),
    ],
    .readWaitingEmpty: [
        .feed: both(.just(.read(bytes("cd\n"), tag: 1))),
        .peerCloses: both(.closes(eof)),
        .reset: (.closes(reset), .closes(eof)),
        .peerDrains: both(.nothing),
        .timer: both(.closes(.readTimeout, after: [.readTimeoutAsked(tag: 1, elapsed: 5, bytesDone: 0)])),
        .userRead: both(.nothing),
        .userWrite: both(.just(.wrote(tag: 4))),
        .userStartTLS: both(.nothing),
        .userDisconnectAfterReading: both(.nothing),
        .userDisconnectAfterWriting: both(.disconnects()),
        .userDisconnect: both(.disconnects()),
    ],
    // The read holds "ab" (reported by its partial callback in the setup).
    .readWaitingPartial: [
        .feed: both(.just(.read(bytes("abcd\n"), tag: 1))),
        .peerCloses: both(.closes(eof, unread: "ab")),
        .reset: (.closes(reset, unread: "ab"), .closes(eof, unread: "ab")),
        .peerDrains: both(.nothing),
        .timer: both(
            .closes(.readTimeout, after: [.readTimeoutAsked(tag: 1, elapsed: 5, bytesDone: 2)], unread: "ab")),
        .userRead: both(.nothing),
        .userWrite: both(.just(.wrote(tag: 4))),
        .userStartTLS: both(.nothing),
        .userDisconnectAfterReading: both(.nothing),
        .userDisconnectAfterWriting: both(.disconnects(dropped: 2)),
        .userDisconnect: both(.disconnects(dropped: 2)),
    ],
    // "a\n" was read; "bc" waits in the prebuffer. Legacy closes once no read can use what is left;
    // GCD stays open while read-ahead bytes wait for reads.
    .readAhead: [
        .feed: both(.just(left: "cd\n")),
        .peerCloses: (.closes(eof, unread: "bc"), .nothing),
        .reset: (.closes(reset, unread: "bc"), .nothing),
        .peerDrains: both(.nothing),
        .timer: both(.nothing),
        .userRead: both(.just(.read(bytes("bc"), tag: 3))),
        .userWrite: both(.just(.wrote(tag: 4))),
        .userStartTLS: both(.just(.tlsStarted(prebuffered: bytes("bc")))),
        .userDisconnectAfterReading: both(.disconnects(dropped: 2)),
        .userDisconnectAfterWriting: both(.disconnects(dropped: 2)),
        .userDisconnect: both(.disconnects(dropped: 2)),
    ],
    // "he" went out; "llo" waits for the peer to read.
    .writeBlocked: [
        .feed: both(.just(left: "cd\n")),
        .peerCloses: both(.closes(eof)),
        .reset: (.closes(reset), .closes(eof)),
        .peerDrains: both(.just(.wrote(tag: 2))),
        .timer: both(.closes(.writeTimeout, after: [.writeTimeoutAsked(tag: 2, elapsed: 5, bytesDone: 2)])),
        .userRead: both(.nothing),
        .userWrite: both(.nothing),
        .userStartTLS: both(.nothing),
        .userDisconnectAfterReading: both(.disconnects()),
        .userDisconnectAfterWriting: both(.nothing),
        .userDisconnect: both(.disconnects()),
    ],
    .readAndWrite: [
        .feed: both(.just(.read(bytes("cd\n"), tag: 1))),
        .peerCloses: both(.closes(eof)),
        .reset: (.closes(reset), .closes(eof)),
        .peerDrains: both(.just(.wrote(tag: 2))),
        .timer: both(.closes(.readTimeout, after: [.readTimeoutAsked(tag: 1, elapsed: 5, bytesDone: 0)])),
        .userRead: both(.nothing),
        .userWrite: both(.nothing),
        .userStartTLS: both(.nothing),
        .userDisconnectAfterReading: both(.nothing),
        .userDisconnectAfterWriting: both(.nothing),
        .userDisconnect: both(.disconnects()),
    ],
    // The handshake's bytes belong to the TLS engine, which the test plays: they stay in the
    // transport. The peer's end and a reset are left out (see `omitted`). A second startTLS queues
    // another marker (legacy) or is ignored (GCD): nothing shows either way.
    .handshakeRunning: [
        .feed: both(.just(left: "cd\n")),
        .peerDrains: both(.nothing),
        .timer: both(.nothing),
        .userRead: both(.nothing),
        .userWrite: both(.nothing),
        .userStartTLS: both(.nothing),
        .userDisconnectAfterReading: both(.nothing),
        .userDisconnectAfterWriting: both(.nothing),
        .userDisconnect: both(.disconnects()),
    ],
    // New reads and writes are ignored; startTLS still queues a marker on legacy (it waits behind the
    // read) and is ignored on GCD: nothing shows either way.
    .disconnectAfterReadingPending: [
        .feed: both(.just(.read(bytes("cd\n"), tag: 1), .disconnected)),
        .peerCloses: both(.closes(eof)),
        .reset: (.closes(reset), .closes(eof)),
        .peerDrains: both(.nothing),
        .timer: both(.closes(.readTimeout, after: [.readTimeoutAsked(tag: 1, elapsed: 5, bytesDone: 0)])),
        .userRead: both(.nothing),
        .userWrite: both(.nothing),
        .userStartTLS: both(.nothing),
        .userDisconnectAfterReading: both(.nothing),
        .userDisconnectAfterWriting: both(.nothing),
        .userDisconnect: both(.disconnects()),
    ],
    .disconnectAfterWritingPending: [
        .feed: both(.just(left: "cd\n")),
        .peerCloses: both(.closes(eof)),
        .reset: (.closes(reset), .closes(eof)),
        .peerDrains: both(.just(.wrote(tag: 2), .disconnected)),
        .timer: both(.closes(.writeTimeout, after: [.writeTimeoutAsked(tag: 2, elapsed: 5, bytesDone: 2)])),
        .userRead: both(.nothing),
        .userWrite: both(.nothing),
        .userStartTLS: both(.nothing),
        .userDisconnectAfterReading: both(.nothing),
        .userDisconnectAfterWriting: both(.nothing),
        .userDisconnect: both(.disconnects()),
    ],
    // A closed socket hears nothing and reports nothing; a disconnect of a closed socket calls back
    // no one.
    .closed: [
        .feed: both(.just(left: "cd\n")),
        .peerCloses: both(.nothing),
        .reset: both(.nothing),
        .peerDrains: both(.nothing),
        .timer: both(.nothing),
        .userRead: both(.nothing),
        .userWrite: both(.nothing),
        .userStartTLS: both(.nothing),
        .userDisconnectAfterReading: both(.nothing),
        .userDisconnectAfterWriting: both(.nothing),
        .userDisconnect: both(.nothing),
    ],
]

/// Cells the harness cannot play: while a handshake runs, the peer's end or a reset reaches the TLS
/// engine, whose failure (an SSL-domain error close) the test would have to play.
private let omitted: Set<String> = ["handshakeRunning + peerCloses", "handshakeRunning + reset"]

private let cells: [TableCell] = TableState.allCases.flatMap { state in
    TableEvent.allCases.flatMap { event -> [TableCell] in
        guard let row = table[state]?[event] else { return [] }
        return [
            TableCell(state: state, event: event, semantics: .legacy, expected: row.legacy),
            TableCell(state: state, event: event, semantics: .gcd, expected: row.gcd),
        ]
    }
}

@Suite("Engine: every event in every state")
struct StateEventTableTests {
    @Test("the table has a row for every state and event but the omitted ones")
    func tableIsComplete() {
        let missing = TableState.allCases.flatMap { state in
            TableEvent.allCases.filter { table[state]?[$0] == nil }.map { "\(state.rawValue) + \($0.rawValue)" }
        }
        #expect(Set(missing) == omitted)
    }

    @Test("each cell: the events it leads to, the close, and where every byte went", arguments: cells)
    func cell(_ cell: TableCell) {
        let harness = cell.state.build(cell.semantics)
        let before = harness.events.count
        let wasClosed = harness.isClosed
        cell.event.apply(to: harness)
        let expected = cell.expected
        #expect(Array(harness.events[before...]) == expected.events)
        let closes = expected.events.contains { event in
            if case .closed = event { return true }
            return event == .disconnected
        }
        #expect(harness.isClosed == (wasClosed || closes))
        #expect(harness.unreadAtClose == expected.unread)
        #expect(Array(harness.transport.remaining) == expected.left)
        let delivered = harness.events.reduce(0) { total, event in
            switch event {
            case .read(let data, _), .tlsStarted(let data): return total + data.count
            default: return total
            }
        }
        let held = harness.engine.prebufferedCount + harness.engine.readProgress.bytesDone
        let accounted =
            delivered + (harness.unreadAtClose?.count ?? 0) + harness.transport.remaining.count + held
            + expected.dropped
        #expect(accounted == cell.state.fed.utf8.count + cell.event.fed.utf8.count)
    }

    @Test("GCD: the peer's end behind unread bytes is met by the next read, which closes after them")
    func gcdEndBehindPendingBytes() {
        let harness = TableState.bytesInTransport.build(.gcd)
        harness.peerCloses()
        harness.runPasses()
        #expect(harness.events.isEmpty)
        harness.read(.length(4), tag: 3)
        harness.runPasses()
        #expect(harness.events == [.partialRead(2, tag: 3), .closed(.failure(.endOfStream))])
        #expect(harness.unreadAtClose == bytes("xy"))
    }
}
