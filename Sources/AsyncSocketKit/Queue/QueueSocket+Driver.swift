import AsyncSocketCore
import Foundation

// What the connection driver (ConnectionDriving.swift) needs from QueueSocket: callbacks are
// dispatched to the delegate queue, so the work after one goes on unless the socket closed meanwhile;
// the next read starts at once, the next write on a later turn of the socket queue; the read and
// write sources are resumed and suspended; a timeout pauses its transfer while the question travels
// to the delegate queue and back. Where the queue core's connections differ, the hooks in
// QueueSocket.swift say so.
extension QueueSocket: DescriptorConnection {
    package var tlsPeerName: String? { connectHostString ?? connectedSocketAddress?.host }

    package func mayDequeue(_ direction: TransferDirection) -> Bool {
        switch direction {
        case .read: connected && !readStreamClosed
        case .write: connected
        }
    }

    package func isPaused(_ direction: TransferDirection) -> Bool {
        switch direction {
        case .read: readsPaused
        case .write: writesPaused
        }
    }

    package func deliver(_ callback: ConnectionCallback) {
        handOver(callback)
    }

    package var deliveryMark: Int { stateIndex }

    /// Callbacks run on the delegate queue, never inside the pass: the work after one goes on unless
    /// the socket closed meanwhile (a gathered batch's accounting can meet a failure).
    package func goesOn(after mark: Int) -> Bool { mark == stateIndex }

    /// A socket never moves: after a close nothing is left to do.
    package func carryOver(after mark: Int, _ rest: @escaping (QueueSocket) -> Void) {}

    package func readNow() {
        doReadData()
    }

    package func readWaitsForBytes() {
        waitForBytes()
    }

    /// Bytes with nothing to consume them: stop watching until a read arrives (GCD).
    package func bytesWaitWithoutRead() {
        stopWatchingReadable()
    }

    package func dequeueNextRead() {
        maybeDequeueRead()
    }

    /// The next write is dequeued asynchronously, as GCD does (after a gathered batch has been
    /// accounted for, see `flushGatheredWrites()` in WritePasses.swift), when there is one: a dequeue
    /// with nothing to start would only wake a thread (on the queue core, one that then holds the
    /// socket queue while the loop wants it for the next read).
    package func dequeueNextWrite() {
        if !gather.isAccounting && engine.writeDequeueMayAct {
            socketQueue.async { [self] in onSocketQueue { maybeDequeueWrite() } }
        }
    }

    package func sendCurrentWrite() {
        flushGatheredWrites()
    }

    package func writesQueuedBehindCurrent() {}

    package func gatheredWritesFlushing() {}

    package func watchWritable(_ watching: Bool) {
        if watching {
            resumeWriteSource()
        } else {
            suspendWriteSource()
        }
    }

    package func handshakeWaits() {
        watchReadable()
        if tls?.hasPendingCiphertext == true {
            resumeWriteSource()
        }
    }

    package func resumeAfterHandshake() {
        log(.debug, "TLS secured", ["alpn": .string(tls?.engine.negotiatedALPN ?? "none")])
        maybeDequeueRead()
        maybeDequeueWrite()
    }

    package func armTimer(_ direction: TransferDirection, after seconds: TimeInterval) {
        switch direction {
        case .read: readTimer = armDispatchTimer(readTimer, after: seconds) { $0.transferTimerFired(.read) }
        case .write: writeTimer = armDispatchTimer(writeTimer, after: seconds) { $0.transferTimerFired(.write) }
        }
    }

    package func disarmTimer(_ direction: TransferDirection) {
        disarm(direction == .read ? readTimer : writeTimer)
    }

    package func askTimeout(_ direction: TransferDirection, _ query: TimeoutQuery) {
        switch direction {
        case .read: readsPaused = true
        case .write: writesPaused = true
        }
        let index = stateIndex
        let reply: @Sendable (TimeInterval) -> Void = { [weak self] answer in
            guard let self else { return }
            async { [self] in
                guard index == stateIndex, isPaused(direction) else { return }
                timeoutAnswered(direction, extendBy: answer)
            }
        }
        askForMoreTime(direction, query, reply: reply)
    }

    /// The GCD question, on the delegate queue; without a delegate the transfer times out.
    func askDelegateForMoreTime(
        _ direction: TransferDirection, _ query: TimeoutQuery, reply: @escaping @Sendable (TimeInterval) -> Void
    ) {
        ask { [self] delegate in
            switch direction {
            case .read:
                reply(
                    delegate.socket(
                        self, shouldTimeoutReadWithTag: query.tag, elapsed: query.elapsed, bytesDone: query.bytesDone))
            case .write:
                reply(
                    delegate.socket(
                        self, shouldTimeoutWriteWithTag: query.tag, elapsed: query.elapsed, bytesDone: query.bytesDone))
            }
        }
        if storedDelegate == nil || storedDelegateQueue == nil {
            fail(direction == .read ? .readTimeout : .writeTimeout)
        }
    }

    package func transferResumed(_ direction: TransferDirection) {
        switch direction {
        case .read:
            readsPaused = false
            doReadData()
        case .write:
            writesPaused = false
            writePass()
        }
    }

    /// Callbacks travel to the delegate queue.
    package var callbacksMayBeInFlight: Bool { true }
    package var autoDisconnectsAtEnd: Bool { autoDisconnect }
    package var readStreamEndReported: Bool { readStreamClosed }

    package func closeAtEnd() {
        closeWithError(endOfStreamError)
    }

    package func confirmEndAfterCallbacks() {
        confirmEndBehindCallbacks()
    }

    package func reportReadStreamEnded() {
        readStreamClosed = true
        stopWatchingReadable()
        notify { [self] in $0.socketDidCloseReadStream(self) }
    }

    package func disconnectAfterTransfers() {
        closeWithError(nil)
    }

    package func fail(_ failure: ConnectionFailure) {
        closeWithError(error(for: failure))
    }

    /// The GCD error for a driver failure.
    private func error(for failure: ConnectionFailure) -> any Error {
        switch failure {
        case .readMaxedOut: return QueueSocketError(.readMaxedOut)
        case .readTimeout: return QueueSocketError(.readTimeout)
        case .writeTimeout: return QueueSocketError(.writeTimeout)
        case .transport(let code, let operation):
            if code < 0, let error = tls?.lastError { return error }
            return SystemError.posix(code, operation)
        case .tlsStart(let failure):
            switch failure as? TLSStart.Failure {
            case .settings(let reason)?: return QueueSocketError(.other, "Could not apply the TLS settings: \(reason)")
            case .engine(let reason)?: return reason
            case nil: return failure
            }
        case .handshake(let error): return error
        }
    }
}

extension QueueSocketDelegate {
    /// One of the frequent callbacks, as the GCD delegate sees it.
    func deliver(_ callback: ConnectionCallback, from socket: QueueSocket) {
        switch callback {
        case .didRead(let data, let tag): self.socket(socket, didRead: data, withTag: tag)
        case .didReadPartial(let length, let tag): self.socket(socket, didReadPartialDataOfLength: length, tag: tag)
        case .didWrite(let tag): self.socket(socket, didWriteDataWithTag: tag)
        case .didWritePartial(let length, let tag): self.socket(socket, didWritePartialDataOfLength: length, tag: tag)
        case .didSecure: socketDidSecure(socket)
        case .didBecomeWritable: socketDidBecomeWritable(socket)
        }
    }
}
