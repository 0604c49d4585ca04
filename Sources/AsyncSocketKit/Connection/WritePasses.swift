import AsyncSocketCore
import Foundation

// Writes, for every face and engine: the dequeue makes the next write current and the face sends it
// (gathered with the writes behind it where it can: DescriptorConnection.swift); a pass reports what
// went out and PassFollowUp.swift says what comes next. As with reads, a callback may close or move
// the socket. A write queue that drained to its low watermark is reported after the pass's write
// callbacks (EngineCore+Watermarks.swift).
extension ConnectionDriving {
    package func maybeDequeueWrite() {
        guard mayDequeue(.write) else { return }
        switch engine.nextWrite() {
        case .nothing, .endOfStream:
            return
        case .busy:
            writesQueuedBehindCurrent()
        case .start(let timeout):
            armWriteTimer(timeout)
            sendCurrentWrite()
        case .startTLS:
            beginTLS()
        case .disconnect:
            disconnectAfterTransfers()
        }
    }

    /// Arms the write timer for a write that became current (a gathered batch arms it for each).
    package func armWriteTimer(_ timeout: TimeInterval?) {
        if let timeout {
            armTimer(.write, after: timeout)
        }
    }

    /// One write pass for the current write (alone: through TLS, or one write of a gathered batch).
    package func writePass() {
        guard engine.writeIsCurrent, !isPaused(.write) else { return }
        let result: WritePassResult
        if let tls {
            result = engine.runWritePass(transportWritable: writableHint, transport: tls)
        } else {
            result = engine.runWritePass(transportWritable: writableHint, transport: self)
        }
        if result.waitsForWritable || tls?.hasPendingCiphertext == true {
            writableHint = false
            watchWritable(true)
        }
        let mark = deliveryMark
        if result.partialLength > 0 {
            deliver(.didWritePartial(result.partialLength, tag: result.partialTag))
            guard goesOn(after: mark) else { return carryOver(after: mark) { $0.finishWritePass(result) } }
        }
        finishWritePass(result)
    }

    /// The completion of a write pass, after its partial report.
    private func finishWritePass(_ result: WritePassResult) {
        if let tag = result.completedTag {
            let mark = deliveryMark
            disarmTimer(.write)
            metricHandles?.writes.increment()
            deliver(.didWrite(tag: tag))
            guard goesOn(after: mark) else { return carryOver(after: mark) { $0.followWritePass(result) } }
        }
        followWritePass(result)
    }

    private func followWritePass(_ result: WritePassResult) {
        if engine.takeDrainedToLowWatermark() {
            let mark = deliveryMark
            deliver(.didBecomeWritable)
            guard goesOn(after: mark) else { return carryOver(after: mark) { $0.followWritePass(result) } }
        }
        switch engine.followUp(after: result) {
        case .dequeueNext:
            dequeueNextWrite()
        case .idle, .waitForWritable:
            return
        case .close(let code):
            fail(.transport(code, operation: "write"))
        }
    }

    /// Sends ciphertext TLS still holds (after the last write, or an answer to a key update); stops
    /// watching writability once it is all out.
    package func flushCiphertext() {
        guard let tls else { return watchWritable(false) }
        if case .failed(let code) = tls.flush() {
            return fail(.transport(code, operation: "write"))
        }
        watchWritable(tls.hasPendingCiphertext)
    }
}
