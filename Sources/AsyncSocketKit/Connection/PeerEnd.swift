import AsyncSocketCore
import Foundation

// The end of the peer's data, for every face and engine: the face reports what it knows (callbacks
// still travelling, GCD's auto-disconnect and whether the closed read stream was reported), the
// engine what it holds, and EndOfStreamRule.swift decides. A legacy face whose callbacks are
// delivered inline only ever meets "finish the waiting read" and "close".
extension ConnectionDriving {
    /// The peer's data ended: noticed by a read pass, a dequeue, or the face's own watch.
    package func peerEnded() {
        peerEnded(callbacksInFlight: callbacksMayBeInFlight)
    }

    /// The same, once the face knows whether the callbacks it handed over have all arrived.
    package func peerEnded(callbacksInFlight: Bool) {
        let facts = engine.endOfStreamFacts(
            transportReadToEnd: engine.transportEnded, callbacksInFlight: callbacksInFlight,
            autoDisconnect: autoDisconnectsAtEnd, readStreamReported: readStreamEndReported)
        switch EndOfStreamRule.step(semantics, facts) {
        case .finishWaitingRead:
            readNow()
        case .close:
            closeAtEnd()
        case .confirmAfterCallbacks:
            confirmEndAfterCallbacks()
        case .holdForReads:
            bytesWaitWithoutRead()
        case .reportReadStreamClosed:
            reportReadStreamEnded()
        case .nothing:
            return
        }
    }
}
