import Foundation

// TLS stacked on another ByteTransport (the socket). Plaintext is never copied here: reads decrypt
// straight into the caller's buffer and writes encrypt straight from the caller's bytes. Ciphertext
// passes through two fixed buffers: `incoming` (from the lower transport into the engine) and
// `outgoing` (from the engine to the lower transport). What the lower transport cannot take yet
// stays in `outgoing` and in the engine until `flush()`; `hasPendingCiphertext` tells the driver
// to watch for writability even when no write of its own is pending.

/// A ``ByteTransport`` that runs a ``TLSEngine`` over another transport.
///
/// Drive ``handshakeStep()`` until it returns `.complete` (calling it whenever the lower transport
/// becomes readable, or writable while ``hasPendingCiphertext``), then use ``read(into:)`` and
/// ``write(_:)`` as with any transport. `.failed` results from this transport carry either the
/// lower transport's errno (positive) or the failed ``TLSError``'s code (negative, see
/// ``lastError``).
package final class TLSTransport: ByteTransport {
    /// The TLS session.
    package let engine: TLSEngine
    /// The transport the ciphertext travels over.
    package let lower: any ByteTransport
    /// The TLS failure behind the last `.failed` result (or the truncation behind an `.endOfStream`
    /// when the peer closed without close_notify).
    package private(set) var lastError: TLSError?
    /// The errno of a lower-transport failure during the handshake.
    package private(set) var lowerFailure: Int32?
    /// Whether the lower transport reported the end of the peer's data.
    package private(set) var lowerEnded = false

    /// Plaintext encrypted per ``write(_:)`` call, so ciphertext backs up by at most about this much.
    static let plaintextPerWrite = 64 * 1024
    private static let incomingCapacity = 32 * 1024
    private static let outgoingCapacity = 80 * 1024

    private let incoming: UnsafeMutableRawBufferPointer
    private let outgoing: UnsafeMutableRawBufferPointer
    private var outgoingStart = 0
    private var outgoingEnd = 0
    /// A lower-transport read failure seen after some plaintext was returned; reported next.
    private var deferredReadFailure: Int32?
    /// The engine may hold ciphertext or plaintext no read has asked for yet.
    private var inputMayRemain = false

    /// TLS by `engine` over `lower`. Bytes already read from `lower` for the session (read ahead past
    /// the end of the plaintext phase) must be fed to the engine first.
    package init(engine: TLSEngine, lower: any ByteTransport) {
        self.engine = engine
        self.lower = lower
        incoming = .allocate(byteCount: Self.incomingCapacity, alignment: 16)
        outgoing = .allocate(byteCount: Self.outgoingCapacity, alignment: 16)
    }

    deinit {
        incoming.deallocate()
        outgoing.deallocate()
    }

    /// Whether ciphertext is waiting for the lower transport: watch for writability and call
    /// ``flush()``.
    package var hasPendingCiphertext: Bool {
        outgoingStart < outgoingEnd || engine.pendingCiphertext > 0
    }

    /// Whether a read may return plaintext without the lower transport becoming readable: records
    /// that arrived with the end of the handshake, or the rest of what a read that filled its buffer
    /// left behind. A read that comes back short clears it. Run a read pass without waiting for
    /// readability while this is `true` and a read is waiting.
    package var hasBufferedInput: Bool {
        inputMayRemain || engine.hasBufferedPlaintext
    }

    // MARK: Handshake

    /// Moves handshake bytes both ways until the handshake needs bytes the lower transport does not
    /// have yet, finishes, fails, or waits for a trust decision. Any alert is sent before a failure
    /// is returned, as far as the lower transport takes it.
    package func handshakeStep() -> HandshakeStatus {
        while true {
            let status = engine.handshake()
            let flushed = flush()
            if case .failed(let error) = status {
                lastError = error
                return status
            }
            if case .failed(let errno) = flushed {
                return failHandshake(errno)
            }
            if status == .complete {
                inputMayRemain = true
            }
            guard status == .needsMoreCiphertext, !lowerEnded else { return status }
            switch lower.read(into: incoming) {
            case .bytes(let count) where count > 0:
                engine.feedCiphertext(UnsafeRawBufferPointer(rebasing: incoming.prefix(count)))
            case .bytes, .endOfStream:
                lowerEnded = true
                engine.peerClosed()
            case .wouldBlock:
                return .needsMoreCiphertext
            case .failed(let errno):
                return failHandshake(errno)
            }
        }
    }

    private func failHandshake(_ errno: Int32) -> HandshakeStatus {
        lowerFailure = errno
        let error = TLSError(
            code: .closedAbort,
            message: "TLS handshake failed: the connection failed (errno \(errno): \(String(cString: strerror(errno))))"
        )
        lastError = error
        return .failed(error)
    }

    // MARK: Reading

    /// Fills `buffer` with plaintext as far as the buffered and readable ciphertext allows; a short
    /// read means the lower transport had nothing more. close_notify (and a peer that closed after
    /// the handshake without one) is `.endOfStream`; a TLS failure is `.failed` with the error's
    /// negative code, the error itself in ``lastError``.
    package func read(into buffer: UnsafeMutableRawBufferPointer) -> TransportReadResult {
        guard engine.isHandshakeComplete else {
            return lastError.map { .failed(Int32($0.code.rawValue)) } ?? .wouldBlock
        }
        var total = 0
        inputMayRemain = true
        while total < buffer.count {
            let result = engine.readPlaintext(into: UnsafeMutableRawBufferPointer(rebasing: buffer[total...]))
            if engine.pendingCiphertext > 0 {
                // A key update answered while reading; the driver sees hasPendingCiphertext if it backs up.
                _ = flush()
            }
            switch result {
            case .bytes(let count):
                guard count > 0 else { return total > 0 ? .bytes(total) : .wouldBlock }
                total += count
            case .closed:
                return total > 0 ? .bytes(total) : .endOfStream
            case .failed(let error):
                if total > 0 {
                    return .bytes(total)
                }
                lastError = error
                return error.code == .closedAbort && lowerEnded ? .endOfStream : .failed(Int32(error.code.rawValue))
            case .needsMoreCiphertext:
                if let failure = pullCiphertext() {
                    inputMayRemain = false
                    return total > 0 ? .bytes(total) : failure
                }
            }
        }
        return .bytes(total)
    }

    /// Reads ciphertext from the lower transport into the engine; returns what to report when there
    /// is none to be had now.
    private func pullCiphertext() -> TransportReadResult? {
        if let failure = deferredReadFailure {
            return .failed(failure)
        }
        if lowerEnded {
            return .endOfStream
        }
        switch lower.read(into: incoming) {
        case .bytes(let count) where count > 0:
            engine.feedCiphertext(UnsafeRawBufferPointer(rebasing: incoming.prefix(count)))
            return nil
        case .bytes, .endOfStream:
            lowerEnded = true
            engine.peerClosed()
            return nil
        case .wouldBlock:
            return .wouldBlock
        case .failed(let errno):
            deferredReadFailure = errno
            return .failed(errno)
        }
    }

    // MARK: Writing

    /// Encrypts `bytes` in records of up to 64 KiB and sends the ciphertext down, for as long as the
    /// lower transport takes it: a short count means the lower transport is full, as with a socket.
    /// `.wouldBlock` while earlier ciphertext is still waiting (or before the handshake has completed).
    /// Accepted bytes are committed even if part of their ciphertext has to wait: check
    /// ``hasPendingCiphertext`` after the last write.
    package func write(_ bytes: UnsafeRawBufferPointer) -> TransportWriteResult {
        switch flush() {
        case .failed(let errno): return .failed(errno)
        case .wouldBlock: return .wouldBlock
        case .bytes: break
        }
        guard !bytes.isEmpty else { return .bytes(0) }
        var total = 0
        while total < bytes.count {
            let slice = UnsafeRawBufferPointer(rebasing: bytes[total...].prefix(Self.plaintextPerWrite))
            switch engine.writePlaintext(slice) {
            case .bytes(0):
                return total > 0 ? .bytes(total) : .wouldBlock
            case .bytes(let count):
                total += count
                switch flush() {
                case .failed(let errno): return total > 0 ? .bytes(total) : .failed(errno)
                case .wouldBlock: return .bytes(total)
                case .bytes: continue
                }
            case .failed(let error):
                lastError = error
                return total > 0 ? .bytes(total) : .failed(Int32(error.code.rawValue))
            }
        }
        return .bytes(total)
    }

    /// Sends pending ciphertext down: `.bytes` (the count sent now) when nothing is left, `.wouldBlock`
    /// when some still waits, `.failed` with the lower transport's errno.
    @discardableResult
    package func flush() -> TransportWriteResult {
        var total = 0
        while true {
            if outgoingStart == outgoingEnd {
                outgoingStart = 0
                outgoingEnd = engine.takeCiphertext(into: outgoing)
                if outgoingEnd == 0 {
                    return .bytes(total)
                }
            }
            let pending = UnsafeRawBufferPointer(rebasing: outgoing[outgoingStart..<outgoingEnd])
            switch lower.write(pending) {
            case .bytes(let count) where count > 0:
                outgoingStart += count
                total += count
            case .bytes, .wouldBlock:
                return .wouldBlock
            case .failed(let errno):
                return .failed(errno)
            }
        }
    }

    /// Queues close_notify (after a completed handshake) and sends what the lower transport takes.
    @discardableResult
    package func sendCloseNotify() -> TransportWriteResult {
        engine.close()
        return flush()
    }
}
