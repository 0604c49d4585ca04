import AsyncSocketCore
import Foundation

// Reads, for every face and engine: the dequeue makes the next read current, a pass takes bytes for
// it (the engine, EngineCore.swift, decides how many and whether it completes), the pass's callbacks
// go to the delegate, and PassFollowUp.swift says what comes next. A callback may close the socket or
// move it to another loop: the rest of the pass then stops here, or goes on where the socket went.
extension ConnectionDriving {
    package func maybeDequeueRead() {
        guard mayDequeue(.read) else { return }
        switch engine.nextRead(peerEnded: peerEndNoticed) {
        case .nothing, .busy:
            return
        case .endOfStream:
            peerEnded()
        case .start(let timeout):
            if let timeout {
                armTimer(.read, after: timeout)
            }
            readNow()
        case .startTLS:
            beginTLS()
        case .disconnect:
            disconnectAfterTransfers()
        }
    }

    /// One read pass for the current read; with no read current, bytes that are there wait for one.
    package func readPass() {
        guard engine.readIsCurrent, !isPaused(.read) else {
            if readableHint {
                bytesWaitWithoutRead()
            }
            return
        }
        let result: ReadPassResult
        if let tls {
            result = engine.runReadPass(transportReadable: readableHint || tls.hasBufferedInput, transport: tls)
        } else {
            result = engine.runReadPass(transportReadable: readableHint, transport: self)
        }
        if result.transportDrained {
            readableHint = false
        }
        let mark = deliveryMark
        if result.partialLength > 0 {
            deliver(.didReadPartial(result.partialLength, tag: result.partialTag))
            guard goesOn(after: mark) else { return carryOver(after: mark) { $0.finishReadPass(result) } }
        }
        finishReadPass(result)
    }

    /// The completion of a read pass, after its partial report.
    private func finishReadPass(_ result: ReadPassResult) {
        if let (data, tag) = result.completed {
            let mark = deliveryMark
            disarmTimer(.read)
            metricHandles?.reads.increment()
            deliver(.didRead(data, tag: tag))
            guard goesOn(after: mark) else { return carryOver(after: mark) { $0.followReadPass(result) } }
        }
        followReadPass(result)
    }

    private func followReadPass(_ result: ReadPassResult) {
        switch engine.followUp(after: result, peerEnded: peerEndNoticed) {
        case .dequeueNext:
            dequeueNextRead()
        case .idle:
            return
        case .waitForReadable:
            readWaitsForBytes()
        case .endOfStream:
            engine.noteTransportEnded()
            peerEnded()
        case .readMaxedOut:
            fail(.readMaxedOut)
        case .transportFailed(let code):
            fail(.transport(code, operation: "read"))
        }
    }
}
