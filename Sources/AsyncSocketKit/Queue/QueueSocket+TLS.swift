import AsyncSocketCore
import Dispatch
import Foundation

// Manual trust on the socket queue: the handshake itself is the driver's (TLSHandshake.swift). The
// delegate's answer (from any thread, once) comes back to the socket queue before the handshake goes
// on; socketDidSecure precedes any read or write queued after startTLS.
extension QueueSocket {
    package func trustDecisionNeeded(_ chain: CertificateChain) {
        guard storedDelegate != nil, storedDelegateQueue != nil else {
            closeWithError(QueueSocketError(.other, "Manual trust evaluation requires a delegate and a delegate queue"))
            return
        }
        let index = stateIndex
        let answered = Lock(false)
        let handler: @Sendable (Bool) -> Void = { [weak self] accepted in
            let first = answered.withLock { done -> Bool in
                defer { done = true }
                return !done
            }
            guard first, let self else { return }
            async { [self] in
                // No local reference to the TLS transport: a refused handshake closes the socket, and
                // its OpenSSL state must go with the close (before the delegate hears of it), not when
                // this block ends.
                guard index == stateIndex, tlsHandshaking, tls != nil else { return }
                tls?.engine.resolveTrust(accepted: accepted)
                continueHandshake()
            }
        }
        notify { [self] in $0.socket(self, didReceiveTrust: chain, completionHandler: handler) }
    }
}
