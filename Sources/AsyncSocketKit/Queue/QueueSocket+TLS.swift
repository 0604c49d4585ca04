import AsyncSocketCore
import Dispatch
import Foundation

// TLS on the socket queue (3.9): once both queues reach the marker the settings are applied and
// the handshake runs on the read and write sources, with the bytes read ahead fed to it first. With
// manual trust, the delegate's answer (from any thread, once) comes back to the socket queue before
// the handshake goes on; socketDidSecure precedes any read or write queued after startTLS.
extension QueueSocket {
    /// Both queues reached the TLS marker.
    func startTLSHandshake() {
        guard let (payload, prebuffered) = engine.beginTLS() else { return }
        do {
            tls = try TLSStart.transport(
                payload: payload, prebuffered: prebuffered,
                connectHost: connectHostString ?? connectedSocketAddress?.host, logger: logger, over: self)
        } catch {
            switch error {
            case .settings(let reason):
                closeWithError(QueueSocketError(.other, "Could not apply the TLS settings: \(reason)"))
            case .engine(let reason):
                closeWithError(reason)
            }
            return
        }
        tlsHandshaking = true
        continueHandshake()
    }

    /// Moves handshake bytes until the handshake needs more, completes, fails or waits for trust.
    /// (No local reference to the transport outlives the step: a failed handshake's close frees the
    /// OpenSSL state before the delegate hears of the close.)
    func continueHandshake() {
        guard tlsHandshaking, let step = tls?.handshakeStep() else { return }
        switch step {
        case .needsMoreCiphertext:
            resumeReadSource()
            if tls?.hasPendingCiphertext == true {
                resumeWriteSource()
            }
        case .trustDecisionNeeded(let chain):
            askForTrust(chain)
        case .complete:
            tlsHandshaking = false
            isSecureFlag = true
            engine.completeTLS()
            if tls?.hasPendingCiphertext == true {
                resumeWriteSource()
            }
            notify { [self] in $0.socketDidSecure(self) }
            maybeDequeueRead()
            maybeDequeueWrite()
        case .failed(let error):
            closeWithError(error)
        }
    }

    private func askForTrust(_ chain: CertificateChain) {
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

    /// Sends ciphertext TLS still holds (after the last write, or an answer to a key update).
    func flushCiphertext() {
        guard let tls else { return }
        if case .failed(let code) = tls.flush() {
            closeWithError(SystemError.posix(code, "write"))
        } else if tls.hasPendingCiphertext {
            resumeWriteSource()
        }
    }
}
