import AsyncSocketCore
import Foundation

// The TLS handshake, for every face and engine: once both queues reached a marker and the face
// started TLS (DescriptorConnection.swift, with the bytes read ahead as its first
// ciphertext), handshake steps run on readiness until it completes or fails, and `didSecure` lets
// both queues go on.
extension ConnectionDriving {
    /// Moves handshake bytes until the handshake needs more, completes, fails or waits for trust.
    /// (No local reference to the transport outlives the step: a failed handshake's close frees the
    /// OpenSSL state before the delegate hears of the close.)
    package func continueHandshake() {
        guard tlsHandshaking, let step = tls?.handshakeStep() else { return }
        switch step {
        case .needsMoreCiphertext:
            readableHint = false
            handshakeWaits()
        case .trustDecisionNeeded(let chain):
            trustDecisionNeeded(chain)
        case .complete:
            tlsHandshaking = false
            watchWritable(tls?.hasPendingCiphertext == true)
            engine.completeTLS()
            metricHandles?.tlsHandshakes.increment()
            let mark = deliveryMark
            deliver(.didSecure)
            guard goesOn(after: mark) else { return carryOver(after: mark) { _ in } }
            resumeAfterHandshake()
        case .failed(let error):
            metricHandles?.tlsFailures.increment()
            fail(.handshake(error))
        }
    }

    /// Whether TLS is up (started and its handshake complete).
    package var isSecured: Bool { tls != nil && !tlsHandshaking }
}
