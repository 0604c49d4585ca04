import AsyncSocketCore
import Foundation
import Testing

@Suite("Rules: what follows a read pass, a write pass and a dequeue")
struct PassFollowUpTests {
    /// The engine states a follow-up depends on.
    enum State: String, CaseIterable, Sendable {
        case idle
        case readQueued
        case peerEnded
        case disconnectAfterReading
        case disconnectAfterWriting
        case writeQueued

        func engine() -> SocketEngine {
            let engine = SocketEngine()
            switch self {
            case .idle: break
            case .readQueued: _ = engine.enqueueRead(ReadRequest(kind: .length(1), timeout: -1, tag: 1))
            case .peerEnded: engine.noteTransportEnded()
            case .disconnectAfterReading: _ = engine.disconnectAfter(reading: true, writing: false)
            case .disconnectAfterWriting: _ = engine.disconnectAfter(reading: false, writing: true)
            case .writeQueued: _ = engine.enqueueWrite(Data([1]), timeout: -1, tag: 1)
            }
            return engine
        }
    }

    static func completedRead(failure: TransportFailure? = nil) -> ReadPassResult {
        var result = ReadPassResult()
        result.completed = (Data([1]), 7)
        result.failure = failure
        return result
    }

    @Test("a completed read dequeues the next only when the dequeue has work", arguments: State.allCases)
    func completedRead(state: State) {
        let expected: ReadFollowUp
        switch state {
        case .readQueued, .peerEnded, .disconnectAfterReading: expected = .dequeueNext
        case .idle, .disconnectAfterWriting, .writeQueued: expected = .idle
        }
        #expect(state.engine().followUp(after: Self.completedRead()) == expected)
        #expect(state.engine().followUp(after: Self.completedRead(), peerEnded: true) == .dequeueNext)
    }

    @Test("failures win over everything, in every state", arguments: State.allCases)
    func failures(state: State) {
        let cases: [(TransportFailure, ReadFollowUp)] = [
            (.readMaxedOut, .readMaxedOut), (.transport(104), .transportFailed(104)),
        ]
        for (failure, expected) in cases {
            #expect(state.engine().followUp(after: Self.completedRead(failure: failure)) == expected)
            var unfinished = ReadPassResult()
            unfinished.failure = failure
            unfinished.partialLength = 3
            #expect(state.engine().followUp(after: unfinished) == expected)
        }
        var ended = ReadPassResult()
        ended.failure = .endOfStream
        #expect(state.engine().followUp(after: ended) == .endOfStream)
        var failedWrite = WritePassResult()
        failedWrite.failure = .transport(32)
        failedWrite.partialLength = 1
        #expect(state.engine().followUp(after: failedWrite) == .close(32))
    }

    @Test("an unfinished pass waits for the transport, or for nothing", arguments: State.allCases)
    func unfinished(state: State) {
        var waiting = ReadPassResult()
        waiting.waitsForReadable = true
        #expect(state.engine().followUp(after: waiting) == .waitForReadable)
        #expect(state.engine().followUp(after: ReadPassResult()) == .idle)
        var waitingWrite = WritePassResult()
        waitingWrite.waitsForWritable = true
        #expect(state.engine().followUp(after: waitingWrite) == .waitForWritable)
        #expect(state.engine().followUp(after: WritePassResult()) == .idle)
    }

    @Test("a completed write dequeues the next only when the dequeue has work", arguments: State.allCases)
    func completedWrite(state: State) {
        var result = WritePassResult()
        result.completedTag = 3
        let expected: WriteFollowUp = state == .writeQueued || state == .disconnectAfterWriting ? .dequeueNext : .idle
        #expect(state.engine().followUp(after: result) == expected)
    }

    @Test("the read dequeue in every state", arguments: State.allCases)
    func readDequeue(state: State) {
        let expected: DequeueStep
        switch state {
        case .readQueued: expected = .start(timeout: nil)
        case .peerEnded: expected = .endOfStream
        case .disconnectAfterReading: expected = .disconnect
        case .idle, .disconnectAfterWriting, .writeQueued: expected = .nothing
        }
        #expect(state.engine().nextRead(peerEnded: false) == expected)
        let noticed: DequeueStep = state == .readQueued || state == .disconnectAfterReading ? expected : .endOfStream
        #expect(state.engine().nextRead(peerEnded: true) == noticed)
        let busy = state.engine()
        let rejection = busy.enqueueRead(ReadRequest(kind: .length(1), timeout: 2, tag: 2))
        guard rejection == nil else {
            #expect(state == .disconnectAfterReading || state == .disconnectAfterWriting)
            return
        }
        _ = busy.nextRead(peerEnded: false)
        #expect(busy.nextRead(peerEnded: true) == .nothing, "a current read makes the dequeue wait")
    }

    @Test("the write dequeue in every state", arguments: State.allCases)
    func writeDequeue(state: State) {
        let expected: DequeueStep
        switch state {
        case .writeQueued: expected = .start(timeout: nil)
        case .disconnectAfterWriting: expected = .disconnect
        case .idle, .readQueued, .peerEnded, .disconnectAfterReading: expected = .nothing
        }
        let engine = state.engine()
        #expect(engine.nextWrite() == expected)
        if state == .writeQueued {
            #expect(engine.nextWrite() == .busy)
        }
    }

    @Test("TLS markers: the first side waits, the second starts the handshake")
    func tlsMarkers() {
        let engine = SocketEngine()
        #expect(engine.enqueueTLS(settings: "tls", semantics: .legacy) == nil)
        #expect(engine.nextRead(peerEnded: false) == .nothing)
        #expect(engine.nextWrite() == .startTLS)
    }

    @Test("the end-of-stream facts the engine reports")
    func facts() {
        let engine = SocketEngine()
        _ = engine.enqueueRead(ReadRequest(kind: .length(4), timeout: -1, tag: 1))
        _ = engine.nextRead(peerEnded: false)
        let facts = engine.endOfStreamFacts(transportReadToEnd: false, autoDisconnect: false)
        #expect(
            facts == EndOfStreamFacts(readWaiting: true, inputRemains: true, prebuffered: false, autoDisconnect: false))
        #expect(engine.endOfStreamFacts(transportReadToEnd: true).inputRemains == false)
    }
}
