// What follows a read pass, a write pass and a dequeue, for every face and engine. A face delivers a
// pass's callbacks first (a delegate may queue reads, or close, from inside them), then asks here what
// comes next and carries it out; the next dequeue is asked for only when it can do something.

/// What follows a read pass, once its callbacks are delivered.
package enum ReadFollowUp: Equatable, Sendable {
    /// A read completed and the next dequeue has something to do (a queued read, the peer's end or
    /// a disconnect-after to act on): on a later pass (legacy) or at once (GCD), see
    /// ``Semantics/dequeuesNextReadAtOnce``.
    case dequeueNext
    /// A read completed and nothing waits.
    case idle
    /// The unfinished read waits for the transport to become readable.
    case waitForReadable
    /// The peer's data ended with the read unfinished: apply ``EndOfStreamRule``.
    case endOfStream
    /// A read to a separator reached its maximum length: close with `readMaxedOut`.
    case readMaxedOut
    /// Close with the transport's error (an errno, or < 0 for a TLS failure).
    case transportFailed(Int32)
}

/// What follows a write pass, once its callbacks are delivered.
package enum WriteFollowUp: Equatable, Sendable {
    /// A write completed and a queued write or a disconnect-after waits: dequeue on a later pass.
    case dequeueNext
    case idle
    case waitForWritable
    /// Close with the transport's error (an errno, or < 0 for a TLS failure).
    case close(Int32)
}

/// What making the next read or write current asks the face to do.
package enum DequeueStep: Equatable, Sendable {
    case nothing
    /// A write is current already (a face that gathers writes may add the queued ones behind it).
    case busy
    /// Arm the item's timer (when there is a timeout) and run a pass.
    case start(timeout: Double?)
    /// Both queues reached a TLS marker.
    case startTLS
    /// The disconnect-after condition holds.
    case disconnect
    /// The read queue ran dry after the peer's end: apply ``EndOfStreamRule``.
    case endOfStream
}

extension EngineCore {
    /// What follows `result` (asked after its callbacks were delivered). `peerEnded`: the face
    /// noticed the peer's end without the engine reading up to it (see ``nextRead(peerEnded:)``).
    package func followUp(after result: ReadPassResult, peerEnded: Bool = false) -> ReadFollowUp {
        switch result.failure {
        case .endOfStream?: return .endOfStream
        case .readMaxedOut?: return .readMaxedOut
        case .transport(let code)?: return .transportFailed(code)
        case nil: break
        }
        if result.completed != nil {
            let dequeueHasWork = queuedReadCount > 0 || transportEnded || peerEnded || disconnectsAfterReading
            return dequeueHasWork ? .dequeueNext : .idle
        }
        return result.waitsForReadable ? .waitForReadable : .idle
    }

    /// What follows `result` (asked after its callbacks were delivered).
    package func followUp(after result: WritePassResult) -> WriteFollowUp {
        if case .transport(let code)? = result.failure {
            return .close(code)
        }
        if result.completedTag != nil {
            return queuedWriteCount > 0 || disconnectsAfterWriting ? .dequeueNext : .idle
        }
        return result.waitsForWritable ? .waitForWritable : .idle
    }

    /// Makes the next queued read current. `peerEnded`: the face knows the peer's data has ended
    /// (the engine's own ``transportEnded``, or an end the face noticed while no read waited).
    mutating func nextRead(peerEnded: Bool) -> DequeueStep {
        switch dequeueRead() {
        case .busy, .waitingForTLS: return .nothing
        case .empty: return peerEnded || transportEnded ? .endOfStream : .nothing
        case .started(let timeout): return .start(timeout: timeout)
        case .startTLS: return .startTLS
        case .disconnect: return .disconnect
        }
    }

    /// Makes the next queued write current.
    mutating func nextWrite() -> DequeueStep {
        switch dequeueWrite() {
        case .busy: return .busy
        case .empty, .waitingForTLS: return .nothing
        case .started(let timeout): return .start(timeout: timeout)
        case .startTLS: return .startTLS
        case .disconnect: return .disconnect
        }
    }

    /// The end-of-stream facts the engine knows; the face adds what only it knows.
    package func endOfStreamFacts(
        transportReadToEnd: Bool, callbacksInFlight: Bool = false, autoDisconnect: Bool = true,
        readStreamReported: Bool = false
    ) -> EndOfStreamFacts {
        var readWaiting = false
        if case .read = currentRead {
            readWaiting = true
        }
        return EndOfStreamFacts(
            readWaiting: readWaiting, inputRemains: prebufferedCount > 0 || !transportReadToEnd,
            prebuffered: prebufferedCount > 0, callbacksInFlight: callbacksInFlight,
            autoDisconnect: autoDisconnect, readStreamReported: readStreamReported)
    }
}
