import AsyncSocketCore
import Foundation

// What the connection driver (ConnectionDriving.swift) needs from the native engine: callbacks go to
// the delegate inline, on the loop, and a callback that closed or moved the socket ends the work
// here (the generation and the loop tell); the next read starts on a later pass of the loop; the
// descriptor's source says what is watched; a timeout question is answered inline.
extension NativeSocketBackend: DescriptorConnection {
    var tlsPeerName: String? { connectHost ?? peerAddress?.host }

    func mayDequeue(_ direction: TransferDirection) -> Bool { connected && started }
    func isPaused(_ direction: TransferDirection) -> Bool { false }
    var peerEndNoticed: Bool { false }

    func deliver(_ callback: ConnectionCallback) {
        guard let owner = callbackOwner, let delegate = owner.delegateForCallbacks else { return }
        delegate.deliver(callback, from: owner)
    }

    var deliveryMark: Int { generation }

    func readNow() {
        readPass()
    }

    func readWaitsForBytes() {
        source?.wantsReadable = true
        source?.wantsPeerClose = false
    }

    func dequeueNextRead() {
        scheduleReadDequeue()
    }

    func dequeueNextWrite() {
        scheduleWriteDequeue()
    }

    func sendCurrentWrite() {
        if tls == nil && !gather.isAccounting {
            gatherWrites()
        } else {
            writePass()
        }
    }

    /// More writes behind one that waits for its flush (or for a loop it moved to) join its batch.
    func writesQueuedBehindCurrent() {
        if tls == nil && !gather.isAccounting, engine.writeIsCurrent {
            gatherWrites()
        }
    }

    func watchWritable(_ watching: Bool) {
        source?.wantsWritable = watching
    }

    func handshakeWaits() {
        source?.wantsReadable = true
        source?.wantsWritable = tls?.hasPendingCiphertext == true
    }

    /// The legacy API has no manual trust: a request for it is refused.
    func trustDecisionNeeded(_ chain: CertificateChain) {
        tls?.engine.resolveTrust(accepted: false)
        continueHandshake()
    }

    func resumeAfterHandshake() {
        log(.debug, "TLS secured", ["alpn": .string(negotiatedALPN ?? "none")])
        scheduleReadDequeue()
        scheduleWriteDequeue()
    }

    func armTimer(_ direction: TransferDirection, after seconds: TimeInterval) {
        switch direction {
        case .read:
            if readTimer == nil {
                readTimer = makeTimer { $0.transferTimerFired(.read) }
            }
            readTimer?.rearm(after: seconds)
        case .write:
            if writeTimer == nil {
                writeTimer = makeTimer { $0.transferTimerFired(.write) }
            }
            writeTimer?.rearm(after: seconds)
        }
    }

    func disarmTimer(_ direction: TransferDirection) {
        switch direction {
        case .read: readTimer?.disarm()
        case .write: writeTimer?.disarm()
        }
    }

    func askTimeout(_ direction: TransferDirection, _ query: TimeoutQuery) {
        guard let owner = callbackOwner else { return }
        let mark = generation
        let seconds: TimeInterval
        switch direction {
        case .read:
            seconds =
                delegate?.onSocket(
                    owner, shouldTimeoutReadWithTag: query.tag, elapsed: query.elapsed, bytesDone: query.bytesDone)
                ?? 0
        case .write:
            seconds =
                delegate?.onSocket(
                    owner, shouldTimeoutWriteWithTag: query.tag, elapsed: query.elapsed, bytesDone: query.bytesDone)
                ?? 0
        }
        guard goesOn(after: mark) else {
            return carryOver(after: mark) { $0.timeoutAnswered(direction, extendBy: seconds) }
        }
        timeoutAnswered(direction, extendBy: seconds)
    }

    func transferResumed(_ direction: TransferDirection) {}

    var semantics: Semantics { .legacy }
    var callbacksMayBeInFlight: Bool { false }
    var autoDisconnectsAtEnd: Bool { true }
    var readStreamEndReported: Bool { false }

    /// A reset is the error it is (SO_ERROR; the bytes that came before it stay readable for
    /// unreadData); a clean end has none.
    func closeAtEnd() {
        let code = fd >= 0 ? SocketOps.pendingError(fd) : 0
        closeWithError(code == 0 ? nil : SystemError.posix(code, "recv"))
    }

    /// Callbacks are delivered inline: none is ever in flight, so the rule never asks for this.
    func confirmEndAfterCallbacks() {
        closeAtEnd()
    }

    /// A GCD step the legacy rule never takes.
    func reportReadStreamEnded() {
        closeAtEnd()
    }

    func disconnectAfterTransfers() {
        disconnect()
    }

    func fail(_ failure: ConnectionFailure) {
        closeWithError(error(for: failure))
    }
}

extension RunLoopSocketDelegate {
    /// One of the frequent callbacks, as the legacy delegate sees it.
    package func deliver(_ callback: ConnectionCallback, from socket: RunLoopSocket) {
        switch callback {
        case .didRead(let data, let tag): onSocket(socket, didRead: data, withTag: tag)
        case .didReadPartial(let length, let tag): onSocket(socket, didReadPartialDataOfLength: length, tag: tag)
        case .didWrite(let tag): onSocket(socket, didWriteDataWithTag: tag)
        case .didWritePartial(let length, let tag): onSocket(socket, didWritePartialDataOfLength: length, tag: tag)
        case .didSecure: onSocketDidSecure(socket)
        case .didBecomeWritable: onSocketDidBecomeWritable(socket)
        }
    }
}
