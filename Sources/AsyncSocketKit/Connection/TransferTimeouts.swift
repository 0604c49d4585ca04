import AsyncSocketCore
import Foundation

// Read and write timeouts, for every face and engine: a fired timer asks the delegate whether to
// extend the transfer (inline on the loop, or through the delegate queue while the transfer waits),
// and the answer either re-arms the timer for the time granted or closes with the timeout error.
extension ConnectionDriving {
    package func transferTimerFired(_ direction: TransferDirection) {
        let query: TimeoutQuery?
        switch direction {
        case .read: query = engine.readTimeoutQuery
        case .write: query = engine.writeTimeoutQuery
        }
        guard let query else { return }
        switch direction {
        case .read: metricHandles?.readTimeouts.increment()
        case .write: metricHandles?.writeTimeouts.increment()
        }
        askTimeout(direction, query)
    }

    /// The delegate's answer: seconds to add (0 or less: none).
    package func timeoutAnswered(_ direction: TransferDirection, extendBy seconds: TimeInterval) {
        let granted: TimeInterval?
        switch direction {
        case .read: granted = engine.extendReadTimeout(by: seconds)
        case .write: granted = engine.extendWriteTimeout(by: seconds)
        }
        guard let granted else {
            return fail(direction == .read ? .readTimeout : .writeTimeout)
        }
        armTimer(direction, after: granted)
        transferResumed(direction)
    }
}
