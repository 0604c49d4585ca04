import AsyncSocketCore
import CAsyncSocketShims
import Foundation

// Reads and writes (2.1, 2.8–2.10): queued calls schedule a dequeue for a later pass, so nothing
// completes inside the call that queued it; a completion schedules the next dequeue again; readiness
// events process the current item inline. The engine decides; this file only moves bytes and calls
// the delegate.
extension NativeSocketBackend: ByteTransport {
    func read(_ request: ReadRequest) {
        if let rejection = engine.enqueueRead(request) {
            debug("read ignored: \(rejection)")
            return
        }
        if connected {
            scheduleReadDequeue()
        }
    }

    func write(_ data: Data, timeout: TimeInterval, tag: Int) {
        if let rejection = engine.enqueueWrite(data, timeout: timeout, tag: tag) {
            debug("write ignored: \(rejection)")
            return
        }
        if connected {
            scheduleWriteDequeue()
        }
    }

    func startTLS(_ settings: Any) {
        engine.enqueueTLS(settings: settings)
        if connected {
            scheduleReadDequeue()
            scheduleWriteDequeue()
        }
    }

    // MARK: Readiness

    func handle(_ event: RunLoopFileSource.Event) {
        if tlsHandshaking {
            if event == .readable || event == .peerClosed {
                readableHint = true
            }
            continueHandshake()
            return
        }
        switch event {
        case .readable:
            readableHint = true
            if case .read = engine.currentRead {
                doBytesAvailable()
            } else {
                noReadWaiting()
            }
        case .writable:
            writableHint = true
            if case .write = engine.currentWrite {
                if tls == nil && !gather.isAccounting {
                    flushGatheredWrites()
                } else {
                    doSendBytes()
                }
            } else {
                flushCiphertext()
            }
        case .peerClosed:
            // Only watched while no read waits (reads notice the end themselves): the peer is gone,
            // and what it sent last is in unreadData. A reset is the error it is (SO_ERROR; the bytes
            // that came before it stay readable for unreadData); a clean close has none.
            source?.wantsPeerClose = false
            engine.noteTransportEnded()
            peerEnded()
        }
    }

    /// Bytes (or the end) arrived while no read waits for them: they stay in the kernel until a read
    /// is queued, but the peer's close is noticed now, as the original's stream events did.
    private func noReadWaiting() {
        switch SocketOps.peekEnd(fd) {
        case .success(true):
            engine.noteTransportEnded()
            peerEnded()
        case .success(false):
            source?.wantsReadable = false
            source?.wantsPeerClose = true
        case .success(nil):
            readableHint = false
        case .failure(let error):
            closeWithError(error)
        }
    }

    // MARK: Reads

    /// The peer's data ended (see EndOfStreamRule.swift): the native engine delivers callbacks
    /// inline, so none is ever in flight. A reset is the error it is (SO_ERROR; the bytes that came
    /// before it stay readable for unreadData); a clean end has none.
    func peerEnded() {
        switch EndOfStreamRule.step(.legacy, engine.endOfStreamFacts(transportReadToEnd: true)) {
        case .finishWaitingRead:
            doBytesAvailable()
        case .close, .confirmAfterCallbacks, .holdForReads, .reportReadStreamClosed, .nothing:
            let code = fd >= 0 ? SocketOps.pendingError(fd) : 0
            closeWithError(code == 0 ? nil : SystemError.posix(code, "recv"))
        }
    }

    func maybeDequeueRead() {
        guard connected, started else { return }
        switch engine.nextRead(peerEnded: false) {
        case .nothing, .busy:
            return
        case .endOfStream:
            peerEnded()
        case .start(let timeout):
            if let timeout {
                if readTimer == nil {
                    readTimer = makeTimer { $0.readTimerFired() }
                }
                readTimer?.rearm(after: timeout)
            }
            doBytesAvailable()
        case .startTLS:
            beginTLS()
        case .disconnect:
            disconnect()
        }
    }

    func doBytesAvailable() {
        let result: ReadPassResult
        if let tls {
            result = engine.runReadPass(transportReadable: readableHint || tls.hasBufferedInput, transport: tls)
        } else {
            result = engine.runReadPass(transportReadable: readableHint, transport: self)
        }
        if result.transportDrained {
            readableHint = false
        }
        if result.waitsForReadable {
            source?.wantsReadable = true
            source?.wantsPeerClose = false
        }
        let generation = self.generation
        if result.partialLength > 0, let owner = callbackOwner {
            owner.delegateForCallbacks?.onSocket(
                owner, didReadPartialDataOfLength: result.partialLength, tag: result.partialTag)
            guard goesOn(after: generation) else { return carryOver(after: generation) { $0.finishReadPass(result) } }
        }
        finishReadPass(result)
    }

    /// The completion and the failure of a read pass, after its partial report.
    private func finishReadPass(_ result: ReadPassResult) {
        let generation = self.generation
        if let (data, tag) = result.completed {
            readTimer?.disarm()
            if let owner = callbackOwner {
                owner.delegateForCallbacks?.onSocket(owner, didRead: data, withTag: tag)
            }
            guard goesOn(after: generation) else {
                return carryOver(after: generation) { $0.follow(result) }
            }
        }
        follow(result)
    }

    private func follow(_ result: ReadPassResult) {
        switch engine.followUp(after: result) {
        case .dequeueNext:
            scheduleReadDequeue()
        case .idle, .waitForReadable:
            return
        case .endOfStream:
            peerEnded()
        case .readMaxedOut:
            closeWithError(error(for: .readMaxedOut))
        case .transportFailed(let code):
            closeWithError(error(for: .transport(code)))
        }
    }

    func readTimerFired() {
        guard let query = engine.readTimeoutQuery, let owner = callbackOwner else { return }
        let generation = self.generation
        let extensionSeconds =
            delegate?.onSocket(
                owner, shouldTimeoutReadWithTag: query.tag, elapsed: query.elapsed, bytesDone: query.bytesDone) ?? 0
        guard goesOn(after: generation) else {
            return carryOver(after: generation) { $0.applyReadExtension(extensionSeconds) }
        }
        applyReadExtension(extensionSeconds)
    }

    private func applyReadExtension(_ seconds: TimeInterval) {
        if let granted = engine.extendReadTimeout(by: seconds) {
            if readTimer == nil {
                readTimer = makeTimer { $0.readTimerFired() }
            }
            readTimer?.rearm(after: granted)
        } else {
            closeWithError(AsyncSocketError(.readTimeout))
        }
    }

    // MARK: Writes

    func maybeDequeueWrite() {
        guard connected, started else { return }
        switch engine.nextWrite() {
        case .nothing, .endOfStream:
            return
        case .busy:
            // More writes behind one that waits for its flush (or for a loop it moved to).
            if tls == nil && !gather.isAccounting, case .write = engine.currentWrite {
                gatherWrites()
            }
        case .start(let timeout):
            armWriteTimer(timeout)
            if tls == nil && !gather.isAccounting {
                gatherWrites()
            } else {
                doSendBytes()
            }
        case .startTLS:
            beginTLS()
        case .disconnect:
            disconnect()
        }
    }

    func armWriteTimer(_ timeout: TimeInterval?) {
        guard let timeout else { return }
        if writeTimer == nil {
            writeTimer = makeTimer { $0.writeTimerFired() }
        }
        writeTimer?.rearm(after: timeout)
    }

    func doSendBytes() {
        let result: WritePassResult
        if let tls {
            result = engine.runWritePass(transportWritable: writableHint, transport: tls)
        } else {
            result = engine.runWritePass(transportWritable: writableHint, transport: self)
        }
        if result.waitsForWritable || tls?.hasPendingCiphertext == true {
            writableHint = false
            source?.wantsWritable = true
        }
        let generation = self.generation
        if result.partialLength > 0, let owner = callbackOwner {
            owner.delegateForCallbacks?.onSocket(
                owner, didWritePartialDataOfLength: result.partialLength, tag: result.partialTag)
            guard goesOn(after: generation) else { return carryOver(after: generation) { $0.finishWritePass(result) } }
        }
        finishWritePass(result)
    }

    /// The completion and the failure of a write pass, after its partial report.
    private func finishWritePass(_ result: WritePassResult) {
        let generation = self.generation
        if let tag = result.completedTag {
            writeTimer?.disarm()
            if let owner = callbackOwner {
                owner.delegateForCallbacks?.onSocket(owner, didWriteDataWithTag: tag)
            }
            guard goesOn(after: generation) else {
                return carryOver(after: generation) { $0.follow(result) }
            }
        }
        follow(result)
    }

    private func follow(_ result: WritePassResult) {
        switch engine.followUp(after: result) {
        case .dequeueNext:
            scheduleWriteDequeue()
        case .idle, .waitForWritable:
            return
        case .close(let code):
            closeWithError(error(for: .transport(code)))
        }
    }

    func writeTimerFired() {
        guard let query = engine.writeTimeoutQuery, let owner = callbackOwner else { return }
        let generation = self.generation
        let extensionSeconds =
            delegate?.onSocket(
                owner, shouldTimeoutWriteWithTag: query.tag, elapsed: query.elapsed, bytesDone: query.bytesDone) ?? 0
        guard goesOn(after: generation) else {
            return carryOver(after: generation) { $0.applyWriteExtension(extensionSeconds) }
        }
        applyWriteExtension(extensionSeconds)
    }

    private func applyWriteExtension(_ seconds: TimeInterval) {
        if let granted = engine.extendWriteTimeout(by: seconds) {
            if writeTimer == nil {
                writeTimer = makeTimer { $0.writeTimerFired() }
            }
            writeTimer?.rearm(after: granted)
        } else {
            closeWithError(AsyncSocketError(.writeTimeout))
        }
    }

    // MARK: TLS (2.15)

    /// Both queues reached a TLS marker: apply the settings (a failure is an error close with -1, as
    /// in the original) and start the handshake, with the bytes read ahead as its first ciphertext.
    private func beginTLS() {
        guard let (payload, prebuffered) = engine.beginTLS() else { return }
        do {
            tls = try TLSStart.transport(
                payload: payload, prebuffered: prebuffered, connectHost: connectHost ?? peerAddress?.host,
                logger: logger, over: self)
        } catch {
            switch error {
            case .settings(let reason):
                closeWithError(AsyncSocketError(.socketError, message: "Could not apply the TLS settings: \(reason)"))
            case .engine(let reason):
                closeWithError(
                    AsyncSocketError(
                        .socketError, message: "Could not apply the TLS settings: \(reason.message)",
                        underlying: reason as NSError))
            }
            return
        }
        tlsHandshaking = true
        readableHint = true
        continueHandshake()
    }

    /// Moves handshake bytes; on completion, `onSocketDidSecure` and both queues go on.
    private func continueHandshake() {
        guard let tls, tlsHandshaking else { return }
        switch tls.handshakeStep() {
        case .needsMoreCiphertext:
            readableHint = false
            source?.wantsReadable = true
            source?.wantsWritable = tls.hasPendingCiphertext
        case .trustDecisionNeeded:
            // The legacy API has no manual trust: a request for it is refused.
            tls.engine.resolveTrust(accepted: false)
            continueHandshake()
        case .complete:
            tlsHandshaking = false
            source?.wantsWritable = tls.hasPendingCiphertext
            engine.completeTLS()
            let generation = self.generation
            if let owner = callbackOwner {
                owner.delegateForCallbacks?.onSocketDidSecure(owner)
            }
            guard goesOn(after: generation) else { return carryOver(after: generation) { _ in } }
            scheduleReadDequeue()
            scheduleWriteDequeue()
        case .failed(let error):
            closeWithError(error)
        }
    }

    /// Sends ciphertext TLS still holds; stops watching writability once it is all out.
    private func flushCiphertext() {
        guard let tls else {
            source?.wantsWritable = false
            return
        }
        if case .failed(let code) = tls.flush() {
            closeWithError(SystemError.posix(code, "write"))
            return
        }
        source?.wantsWritable = tls.hasPendingCiphertext
    }

    // MARK: Errors

    /// The legacy error for an engine failure: `nil` for the peer's clean close.
    func error(for failure: TransportFailure) -> (any Error)? {
        switch failure {
        case .endOfStream: return nil
        case .readMaxedOut: return AsyncSocketError(.readMaxedOut)
        case .transport(let code):
            if code < 0, let tlsError = tls?.lastError { return tlsError }
            return SystemError.posix(code, "socket")
        }
    }

    // MARK: ByteTransport

    func read(into buffer: UnsafeMutableRawBufferPointer) -> TransportReadResult {
        DescriptorTransport.read(fd, into: buffer)
    }

    func write(_ bytes: UnsafeRawBufferPointer) -> TransportWriteResult {
        if gather.isAccounting {
            return gather.take(upTo: bytes.count)
        }
        return DescriptorTransport.write(fd, bytes)
    }
}
