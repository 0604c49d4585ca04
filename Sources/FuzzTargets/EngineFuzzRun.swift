import AsyncSocketCore
import EngineTestSupport
import Foundation

/// One engine fuzz case in progress: the harness and the model, compared after every operation.
struct EngineFuzzRun {
    let harness: EngineHarness
    private var model: EngineFuzzModel
    /// Harness events already compared.
    private var seen = 0
    private var readsReported = 0
    private var writesReported = 0
    /// Input bytes taken by the reads reported and by TLS handshakes.
    private var delivered = 0
    private(set) var isOver = false
    private var outcome: EngineFuzzModel.Outcome?

    init(harness: EngineHarness) {
        self.harness = harness
        model = EngineFuzzModel(semantics: harness.semantics)
    }

    /// Carries out `operation` on both sides; returns what differs, or `nil`.
    mutating func perform(_ operation: EngineFuzzOperation) -> String? {
        var timeoutQuestions: [EngineHarness.Event] = []
        var expectsSecured = false
        switch operation {
        case .read(let read, let timeout):
            let rejection = harness.read(
                read.kind, buffer: read.buffer, offset: read.offset, timeout: timeout ?? -1, tag: model.reads.count)
            if model.read(read, timeout: timeout) != (rejection == nil) {
                return "read \(read.kind) at offset \(read.offset): engine says \(rejection ?? "accepted")"
            }
        case .write(let data, let timeout):
            let rejection = harness.write(data, timeout: timeout ?? -1, tag: model.writes.count)
            if model.write(data, timeout: timeout) != (rejection == nil) {
                return "write of \(data.count) bytes: engine says \(rejection ?? "accepted")"
            }
        case .startTLS:
            let rejection = harness.startTLS()
            if model.startTLS() != (rejection == nil) {
                return "startTLS: engine says \(rejection ?? "accepted")"
            }
        case .finishHandshake:
            guard model.handshaking else { break }
            harness.finishHandshake()
            model.finishHandshake()
            expectsSecured = true
        case .feed(let bytes):
            guard model.stream.inputEnd == nil else { break }
            harness.feed(bytes)
            model.feed(bytes)
        case .peerCloses:
            guard model.stream.inputEnd == nil else { break }
            harness.peerCloses()
            model.endInput(.endOfStream)
        case .transportFails(let code):
            guard model.stream.inputEnd == nil else { break }
            harness.transportFails(code)
            model.endInput(.transport(code))
        case .limitSending(let count):
            guard harness.transport.sendCapacity == .max else { break }
            harness.transport.sendCapacity = count
            model.limitSending(to: count)
        case .peerDrains(let count):
            harness.peerDrains(count)
            model.peerDrains(count)
        case .unlimitSending:
            harness.transport.sendCapacity = .max
            harness.peerDrains(0)
            model.unlimitSending()
        case .advance(let seconds):
            harness.advance(by: seconds)
            timeoutQuestions = model.advance(by: seconds)
        case .answerReadTimeout(let seconds):
            harness.readTimeoutAnswers.append(seconds)
            model.answerReadTimeout(seconds)
        case .answerWriteTimeout(let seconds):
            harness.writeTimeoutAnswers.append(seconds)
            model.answerWriteTimeout(seconds)
        case .disconnectAfter(let reading, let writing):
            harness.disconnectAfter(reading: reading, writing: writing)
            model.disconnectAfter(reading: reading, writing: writing)
        case .disconnect:
            harness.disconnect()
            model.disconnect()
        }
        harness.runPasses()
        let startsHandshake = model.settle()
        return compareStep(
            timeoutQuestions: timeoutQuestions, startsHandshake: startsHandshake, secured: expectsSecured)
    }

    /// Compares what the harness reported since the last step with what the model expects.
    private mutating func compareStep(
        timeoutQuestions: [EngineHarness.Event], startsHandshake: Bool, secured: Bool
    ) -> String? {
        let events = harness.events[seen...]
        seen = harness.events.count
        let completedReads = events.compactMap { event -> EngineHarness.Event? in
            if case .read = event { return event }
            return nil
        }
        let expectedReads = model.stream.completed[readsReported...].enumerated().map { offset, data in
            EngineHarness.Event.read(data, tag: readsReported + offset)
        }
        // A close ends the step wherever it happens: what the other side would have done after it
        // in the same step may be missing.
        let closes = events.contains { event in
            switch event {
            case .closed, .disconnected: return true
            default: return false
            }
        }
        guard completedReads == expectedReads || (closes && expectedReads.starts(with: completedReads)) else {
            return "reads completed \(completedReads), model \(expectedReads)"
        }
        readsReported += completedReads.count
        delivered += completedReads.reduce(0) { sum, event in
            if case .read(let data, _) = event { return sum + data.count }
            return sum
        }
        let completedWrites = events.compactMap { event -> Int? in
            if case .wrote(let tag) = event { return tag }
            return nil
        }
        let expectedWrites = Array(writesReported..<model.writesCompleted)
        guard completedWrites == expectedWrites || (closes && expectedWrites.starts(with: completedWrites)) else {
            return "writes completed \(completedWrites), model \(expectedWrites)"
        }
        writesReported += completedWrites.count
        let questions = events.filter { event in
            switch event {
            case .readTimeoutAsked, .writeTimeoutAsked: return true
            default: return false
            }
        }
        guard Array(questions) == timeoutQuestions else {
            return "timeout questions \(Array(questions)), model \(timeoutQuestions)"
        }
        if let problem = compareTLS(events, startsHandshake: startsHandshake, cut: closes, secured: secured) {
            return problem
        }
        return compareOutcome(events)
    }

    private mutating func compareTLS(
        _ events: ArraySlice<EngineHarness.Event>, startsHandshake: Bool, cut: Bool, secured: Bool
    ) -> String? {
        let securedCount = events.filter { $0 == .secured }.count
        guard securedCount == (secured ? 1 : 0) else {
            return "secured \(securedCount) times, model \(secured ? 1 : 0)"
        }
        let started = events.compactMap { event -> [UInt8]? in
            if case .tlsStarted(let prebuffered) = event { return prebuffered }
            return nil
        }
        guard started.count == (startsHandshake ? 1 : 0) || (cut && startsHandshake && started.isEmpty) else {
            return "TLS started \(started.count) times, model \(startsHandshake ? 1 : 0)"
        }
        if let prebuffered = started.first {
            if !harness.engine.configuration.prebuffering && !prebuffered.isEmpty {
                return "TLS took \(prebuffered.count) read-ahead bytes without prebuffering"
            }
            if !model.handshakeTook(prebuffered) {
                return "TLS took \(prebuffered.count) bytes that are not the next input"
            }
            delivered += prebuffered.count
        }
        return nil
    }

    private mutating func compareOutcome(_ events: ArraySlice<EngineHarness.Event>) -> String? {
        let outcomes = events.compactMap { event -> EngineFuzzModel.Outcome? in
            switch event {
            case .closed(let reason): return .closed(reason)
            case .disconnected: return .disconnected
            default: return nil
            }
        }
        let (allowed, required) = model.allowedOutcomes()
        guard outcomes.count <= 1 else {
            return "closed more than once: \(outcomes)"
        }
        guard let reached = outcomes.first else {
            return required ? "still open, model \(allowed)" : nil
        }
        guard allowed.contains(reached) else {
            return "\(reached), model \(allowed.isEmpty ? "still open" : "\(allowed)")"
        }
        outcome = reached
        isOver = true
        return nil
    }

    /// After an error close: everything received and not delivered is in `unreadData`.
    func closeProblem() -> String? {
        guard case .closed = outcome else { return nil }
        let unread = harness.unreadAtClose ?? []
        let expected = Array(model.stream.fed[delivered...])
        return unread == expected ? nil : "unread data \(unread.count) bytes, model \(expected.count)"
    }

    /// Checks partial progress, caller buffers and the bytes written.
    func finalProblem() -> String? {
        var readPartials = [Int](repeating: 0, count: model.reads.count)
        var writePartials = [Int](repeating: 0, count: model.writes.count)
        for event in harness.events {
            switch event {
            case .partialRead(let count, let tag): readPartials[tag] += count
            case .partialWrite(let count, let tag): writePartials[tag] += count
            default: break
            }
        }
        let completed = model.stream.completed.prefix(readsReported)
        for (tag, read) in model.reads.enumerated() {
            if case .available = read.kind, readPartials[tag] > 0 {
                return "read-any \(tag) reported partial progress"
            }
            if tag < completed.count {
                if !completed[tag].isEmpty && readPartials[tag] >= completed[tag].count {
                    return "read \(tag): partial reports \(readPartials[tag]) ≥ its \(completed[tag].count) bytes"
                }
                if let problem = read.bufferProblem(completedWith: completed[tag], tag: tag) {
                    return problem
                }
            } else if tag == model.stream.completed.count, model.stream.hasPendingRead,
                readPartials[tag] != model.currentReadHolding
            {
                return "read \(tag): partial reports \(readPartials[tag]), model holds \(model.currentReadHolding)"
            }
        }
        let written = harness.transport.written
        let expected = model.releasedWriteBytes.prefix(model.writtenCount)
        guard expected.starts(with: written), outcome != nil || written.count == expected.count else {
            return "wrote \(written.count) bytes, model \(expected.count)"
        }
        for tag in 0..<min(writesReported + 1, model.releasedWriteCount) {
            let done = min(max(written.count - model.writeStart(tag), 0), model.writes[tag].count)
            if tag < writesReported ? writePartials[tag] >= done : writePartials[tag] != done {
                return "write \(tag): partial reports \(writePartials[tag]), written \(done)"
            }
        }
        return nil
    }
}
