import AsyncSocketCore
import EngineTestSupport
import Foundation

// What a socket must do, written as simply as possible, for the engine fuzz case to compare a driven
// SocketEngine against. Reads go through the ReferenceModel; on top of it this keeps the write side
// (bytes taken by the transport up to its capacity), TLS markers in both queues (a handshake starts
// once both sides reach the same marker and blocks both until it finishes), read and write deadlines
// on a virtual clock with the delegate's extensions, and the disconnect-after rules.
//
// The model runs one operation at a time to rest ("settles"), like the harness running passes until
// none is left. Two things it cannot know it takes from the harness and checks: how many read-ahead
// bytes a handshake takes over (they must be the next bytes of the input), and whether the end of
// the input was noticed early, by a read that finished on a read boundary or by the face with no read
// waiting (see `allowedOutcomes`).
struct EngineFuzzModel {
    enum Outcome: Equatable, CustomStringConvertible {
        case closed(EngineHarness.CloseReason)
        case disconnected

        var description: String {
            switch self {
            case .closed(let reason): return "closed(\(reason))"
            case .disconnected: return "disconnected"
            }
        }
    }

    private enum Held {
        case item(tag: Int)
        case marker
    }

    private struct Deadline {
        let tag: Int
        var at: TimeInterval
        var elapsed: TimeInterval
    }

    let semantics: Semantics
    private(set) var stream = ReferenceModel()
    private(set) var reads: [PlannedRead] = []
    private var readTimeouts: [TimeInterval?] = []
    /// A marker not yet retired, and what was queued behind it (in order).
    private var heldReads: [Held] = []
    private(set) var writes: [[UInt8]] = []
    private var writeTimeouts: [TimeInterval?] = []
    private var heldWrites: [Held] = []
    /// Where each released write ends in the bytes written, in order.
    private var writeEnds: [Int] = []
    /// Bytes the transport took.
    private(set) var writtenCount = 0
    private var sendCapacity = Int.max
    private(set) var handshaking = false
    private var forbidsReadsAndWrites = false
    private var tlsQueued = false
    private var disconnectsAfterReading = false
    private var disconnectsAfterWriting = false
    private var now: TimeInterval = 0
    private var readAnswers: [TimeInterval] = []
    private var writeAnswers: [TimeInterval] = []
    private var readDeadline: Deadline?
    private var writeDeadline: Deadline?
    /// The read and write whose deadlines are being kept (each armed when it becomes current).
    private var trackedRead: Int?
    private var trackedWrite: Int?
    /// A close that the clock forced (a timeout nobody extended), or the user's disconnect.
    private var forcedOutcome: Outcome?

    init(semantics: Semantics) {
        self.semantics = semantics
    }

    // MARK: Operations

    /// Queues a read; returns whether it is accepted.
    mutating func read(_ read: PlannedRead, timeout: TimeInterval?) -> Bool {
        guard !forbidsReadsAndWrites, Self.isValid(read) else { return false }
        let tag = reads.count
        reads.append(read)
        readTimeouts.append(timeout)
        if heldReads.isEmpty {
            stream.queue(read.kind)
        } else {
            heldReads.append(.item(tag: tag))
        }
        return true
    }

    /// Queues a write; returns whether it is accepted.
    mutating func write(_ data: [UInt8], timeout: TimeInterval?) -> Bool {
        guard !forbidsReadsAndWrites, !data.isEmpty else { return false }
        let tag = writes.count
        writes.append(data)
        writeTimeouts.append(timeout)
        if heldWrites.isEmpty {
            release(write: tag)
        } else {
            heldWrites.append(.item(tag: tag))
        }
        return true
    }

    /// Queues a TLS marker; returns whether it was accepted (GCD: once per connection, and not after
    /// disconnectAfter…; legacy: always).
    mutating func startTLS() -> Bool {
        if semantics == .gcd && (tlsQueued || forbidsReadsAndWrites) {
            return false
        }
        tlsQueued = true
        heldReads.append(.marker)
        heldWrites.append(.marker)
        return true
    }

    /// The handshake that started finished: the marker retires on both sides.
    mutating func finishHandshake() {
        handshaking = false
        heldReads.removeFirst()
        while case .item(let tag) = heldReads.first {
            stream.queue(reads[tag].kind)
            heldReads.removeFirst()
        }
        heldWrites.removeFirst()
        while case .item(let tag) = heldWrites.first {
            release(write: tag)
            heldWrites.removeFirst()
        }
    }

    /// The handshake took over `prebuffered` bytes read ahead; returns whether they are the next
    /// bytes of the input.
    mutating func handshakeTook(_ prebuffered: [UInt8]) -> Bool {
        stream.takeAhead(prebuffered)
    }

    mutating func feed(_ bytes: [UInt8]) {
        stream.feed(bytes)
    }

    mutating func endInput(_ end: TransportFailure) {
        stream.endInput(end)
    }

    mutating func limitSending(to count: Int) {
        sendCapacity = count
    }

    mutating func peerDrains(_ count: Int) {
        if sendCapacity != .max {
            sendCapacity += count
        }
    }

    mutating func unlimitSending() {
        sendCapacity = .max
    }

    mutating func answerReadTimeout(_ seconds: TimeInterval) {
        readAnswers.append(seconds)
    }

    mutating func answerWriteTimeout(_ seconds: TimeInterval) {
        writeAnswers.append(seconds)
    }

    mutating func disconnectAfter(reading: Bool, writing: Bool) {
        forbidsReadsAndWrites = true
        disconnectsAfterReading = disconnectsAfterReading || reading
        disconnectsAfterWriting = disconnectsAfterWriting || writing
    }

    mutating func disconnect() {
        forcedOutcome = .disconnected
    }

    /// Moves the clock; returns the timeout questions asked, in order. A timeout nobody extends
    /// closes the socket.
    mutating func advance(by seconds: TimeInterval) -> [EngineHarness.Event] {
        let end = now + seconds
        var asked: [EngineHarness.Event] = []
        while forcedOutcome == nil {
            let readAt = readDeadline.map(\.at) ?? .infinity
            let writeAt = writeDeadline.map(\.at) ?? .infinity
            if readAt <= end && readAt < writeAt, let deadline = readDeadline {
                asked.append(
                    .readTimeoutAsked(tag: deadline.tag, elapsed: deadline.elapsed, bytesDone: stream.available))
                if !Self.extend(&readDeadline, answers: &readAnswers) {
                    forcedOutcome = .closed(.readTimeout)
                }
            } else if writeAt <= end, let deadline = writeDeadline {
                let done = writtenCount - writeStart(deadline.tag)
                asked.append(.writeTimeoutAsked(tag: deadline.tag, elapsed: deadline.elapsed, bytesDone: done))
                if !Self.extend(&writeDeadline, answers: &writeAnswers) {
                    forcedOutcome = .closed(.writeTimeout)
                }
            } else {
                break
            }
        }
        now = end
        return asked
    }

    /// Applies the delegate's next answer to a deadline that fired; returns whether it was extended.
    private static func extend(_ deadline: inout Deadline?, answers: inout [TimeInterval]) -> Bool {
        let answer = answers.isEmpty ? 0 : answers.removeFirst()
        guard answer > 0 else { return false }
        deadline?.at += answer
        deadline?.elapsed += answer
        return true
    }

    // MARK: Settling

    /// Runs everything the last operation allows; returns whether a handshake starts.
    mutating func settle() -> Bool {
        stream.advance()
        if sendCapacity > 0 {
            let taken = min(sendCapacity, (writeEnds.last ?? 0) - writtenCount)
            writtenCount += taken
            if sendCapacity != .max {
                sendCapacity -= taken
            }
        }
        trackDeadlines()
        let readSideAtMarker: Bool
        if case .marker = heldReads.first, !stream.hasPendingRead {
            readSideAtMarker = true
        } else {
            readSideAtMarker = false
        }
        let writeSideAtMarker: Bool
        if case .marker = heldWrites.first, writesCompleted == writeEnds.count {
            writeSideAtMarker = true
        } else {
            writeSideAtMarker = false
        }
        guard readSideAtMarker && writeSideAtMarker && !handshaking else { return false }
        handshaking = true
        return true
    }

    /// The outcomes the socket may have reached after settling, and whether it must have reached one.
    func allowedOutcomes() -> (outcomes: [Outcome], required: Bool) {
        var forced: [Outcome] = []
        if let forcedOutcome {
            return ([forcedOutcome], true)
        }
        if let reason = stream.closeReason {
            forced.append(.closed(.failure(reason)))
            if case .transport = reason, semantics == .gcd {
                // GCD's read source cannot tell a reset from the end: unless a read pass meets the
                // reset itself, the socket closes as at the end.
                forced.append(.closed(.failure(.endOfStream)))
            }
        }
        if disconnectConditionHolds {
            forced.append(.disconnected)
        }
        // The end of the input may be noticed by a read that finished on a read boundary: an error
        // closes at once; the end of the stream closes once the read queue runs dry. With no read
        // waiting and no handshake running the face may notice either one itself.
        var allowed = forced
        let noticed = !handshaking && stream.noticesEndWithoutRead(semantics)
        switch stream.inputEnd {
        case .transport(let code) where stream.available == 0 || noticed:
            allowed.append(.closed(.failure(.transport(code))))
            if semantics == .gcd {
                allowed.append(.closed(.failure(.endOfStream)))
            }
        case .endOfStream where readSideIdle || noticed:
            allowed.append(.closed(.failure(.endOfStream)))
        default:
            break
        }
        return (allowed, !forced.isEmpty)
    }

    /// Writes the transport took whole.
    var writesCompleted: Int {
        writeEnds.prefix { $0 <= writtenCount }.count
    }

    /// Writes that left their queue (none is held behind a TLS marker).
    var releasedWriteCount: Int { writeEnds.count }

    /// Every byte of the released writes, in order.
    var releasedWriteBytes: [UInt8] {
        Array(writes.prefix(writeEnds.count).joined())
    }

    /// Bytes the current (unfinished) read holds: what arrived, or its maximum when it maxed out.
    var currentReadHolding: Int {
        stream.closeReason == .readMaxedOut ? stream.failedReadBytes : stream.available
    }

    /// Where write `tag` starts in the bytes written.
    func writeStart(_ tag: Int) -> Int {
        tag == 0 ? 0 : writeEnds[tag - 1]
    }

    private var readSideIdle: Bool { !stream.hasPendingRead && heldReads.isEmpty }
    private var writeSideIdle: Bool { writesCompleted == writeEnds.count && heldWrites.isEmpty }

    private var disconnectConditionHolds: Bool {
        if disconnectsAfterReading {
            return readSideIdle && (!disconnectsAfterWriting || writeSideIdle)
        }
        return disconnectsAfterWriting && writeSideIdle
    }

    private mutating func release(write tag: Int) {
        writeEnds.append((writeEnds.last ?? 0) + writes[tag].count)
    }

    /// A read or write that became current arms its deadline now.
    private mutating func trackDeadlines() {
        let currentRead = stream.hasPendingRead ? stream.completed.count : nil
        if currentRead != trackedRead {
            trackedRead = currentRead
            readDeadline = currentRead.flatMap { tag in
                readTimeouts[tag].map { Deadline(tag: tag, at: now + $0, elapsed: $0) }
            }
        }
        let currentWrite = writesCompleted < writeEnds.count ? writesCompleted : nil
        if currentWrite != trackedWrite {
            trackedWrite = currentWrite
            writeDeadline = currentWrite.flatMap { tag in
                writeTimeouts[tag].map { Deadline(tag: tag, at: now + $0, elapsed: $0) }
            }
        }
    }

    /// The rules for a read the original silently ignores.
    private static func isValid(_ read: PlannedRead) -> Bool {
        guard read.offset >= 0 && read.offset <= read.bufferOriginal.count else { return false }
        switch read.kind {
        case .available(let maxLength):
            return maxLength >= 0
        case .length(let length):
            return length > 0
        case .separator(let separator, let maxLength):
            return !separator.isEmpty && maxLength >= 0 && (maxLength == 0 || maxLength >= separator.count)
        }
    }
}
