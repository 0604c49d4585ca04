import AsyncSocketCore
import CAsyncSocketShims
import Foundation

// Reads and writes on the native engine: queued calls schedule a dequeue for a later pass, so nothing
// completes inside the call that queued it; readiness events run the current item's pass inline. The
// passes are the connection driver's (Connection/; NativeSocketBackend+Driver.swift says how this
// engine watches and delivers); this file holds the calls, the readiness handling and the transport.
extension NativeSocketBackend: ByteTransport {
    func read(_ request: ReadRequest) {
        if let rejection = engine.enqueueRead(request) {
            log(.warning, "read ignored: \(rejection)", tag: request.tag)
            return
        }
        if connected {
            scheduleReadDequeue()
        }
    }

    func write(_ data: Data, timeout: TimeInterval, tag: Int) {
        if let rejection = engine.enqueueWrite(data, timeout: timeout, tag: tag) {
            log(.warning, "write ignored: \(rejection)", tag: tag)
            return
        }
        if connected {
            scheduleWriteDequeue()
        }
    }

    func startTLS(_ settings: Any) {
        _ = engine.enqueueTLS(settings: settings, semantics: .legacy)
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
            readPass()
        case .writable:
            transportWritable()
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
    func bytesWaitWithoutRead() {
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

    // MARK: Errors

    /// The legacy error for a driver failure.
    func error(for failure: ConnectionFailure) -> any Error {
        failure.legacyError(tlsError: tls?.lastError)
    }

    // MARK: ByteTransport

    func read(into buffer: UnsafeMutableRawBufferPointer) -> TransportReadResult {
        let result = DescriptorTransport.read(fd, into: buffer)
        if let handles = metricHandles, case .bytes(let count) = result {
            handles.bytesRead.increment(by: count)
        }
        return result
    }

    func write(_ bytes: UnsafeRawBufferPointer) -> TransportWriteResult {
        let result = gather.isAccounting ? gather.take(upTo: bytes.count) : DescriptorTransport.write(fd, bytes)
        if let handles = metricHandles, case .bytes(let count) = result {
            handles.bytesWritten.increment(by: count)
        }
        return result
    }
}
