import AsyncSocketCore
import CLibevent
import Foundation

// Gathered writes for both faces (plain TCP; TLS writes go out one by one). When a write becomes
// current, the plain writes queued behind it join a batch (EngineCore+Gather.swift) and the whole
// batch goes out with one sendmsg over an iovec array kept here. What was sent is then accounted with
// ordinary write passes, write by write in FIFO order: while `isAccounting`, a face's transport write
// hands out the sent bytes (`take(upTo:)`) instead of sending. So partial and complete callbacks,
// timeouts and disconnectAfterWriting are what they would be had each write gone out alone — the bytes
// only leave sooner, together. A batch holds at most 64 KiB or 256 writes (a 4 KiB iovec array, made
// when the socket first gathers).
package final class WriteGather {
    static let byteLimit = 64 * 1024
    static let itemLimit = 256

    /// The bytes the last batch sent that write passes have not taken yet (`nil`: not accounting).
    private var credit: Int?
    /// The batch's error (0: none, or the send would block).
    private var error: Int32 = 0
    /// The iovec array, made on first use.
    private var vectors: UnsafeMutablePointer<iovec>?

    deinit {
        vectors?.deallocate()
    }

    /// Whether write passes are taking a batch's sent bytes.
    var isAccounting: Bool { credit != nil }

    /// Takes the writes queued behind the current one into its batch; returns whether the batch is
    /// full (send it now rather than wait for more).
    func gather(_ engine: SocketEngine) -> Bool {
        let pending = engine.gatherQueuedWrites(byteLimit: Self.byteLimit, itemLimit: Self.itemLimit)
        return pending >= Self.byteLimit || engine.gatheredCount + 1 >= Self.itemLimit
    }

    /// Sends the current write's rest and the gathered writes with one system call on `fd`; write
    /// passes then account for what it sent (until ``end()``).
    private func send(_ fd: Int32, _ engine: SocketEngine) {
        guard case .write(let current) = engine.currentWrite else { return }
        engine.gatherQueuedWrites(byteLimit: Self.byteLimit, itemLimit: Self.itemLimit)
        let (sent, code) = sendBatch(fd, current, engine)
        if sent >= 0 {
            credit = sent
            error = 0
        } else {
            credit = 0
            error = code == EAGAIN || code == EWOULDBLOCK ? 0 : code
        }
    }

    /// Sends the batch (see ``send(_:_:)``), then accounts for it: runs `pass` (one write pass of the
    /// socket, whose transport writes ``take(upTo:)``) and makes each gathered write current in turn,
    /// in order (`started` arms its timer). `pass` returns `false` when the socket closed or moved
    /// meanwhile: accounting stops there, and whatever is still sent but untaken stays for the
    /// socket's next write passes. Returns whether the batch was accounted to its end.
    func flush(
        _ fd: Int32, _ engine: SocketEngine, pass: () -> Bool, started: (TimeInterval?) -> Void
    ) -> Bool {
        send(fd, engine)
        while isAccounting {
            guard pass() else { return false }
            guard !engine.hasCurrentWrite, engine.gatheredCount > 0, case .start(let timeout) = engine.nextWrite()
            else { break }
            started(timeout)
        }
        end()
        return true
    }

    /// What a write pass gets while a batch is accounted: the next of the bytes it sent; once they are
    /// used up, the batch's error or "would block" (the send stopped short there), and accounting ends.
    func take(upTo count: Int) -> TransportWriteResult {
        guard let available = credit, available > 0 else {
            credit = nil
            return error != 0 ? .failed(error) : .wouldBlock
        }
        let taken = min(available, count)
        credit = available - taken
        return .bytes(taken)
    }

    /// Ends the accounting of a batch (its unsent writes go out with the next one).
    func end() {
        credit = nil
        error = 0
    }

    private func sendBatch(_ fd: Int32, _ current: WriteItem, _ engine: SocketEngine) -> (Int, Int32) {
        let count = 1 + engine.gatheredCount
        let sentBefore = engine.currentWriteDone
        if count == 1 {
            return current.data.withUnsafeBytes { bytes in
                SocketOps.send(fd, UnsafeRawBufferPointer(rebasing: bytes[sentBefore...]))
            }
        }
        let vectors = self.vectors ?? .allocate(capacity: Self.itemLimit)
        self.vectors = vectors
        return fill(vectors, from: 0, count: count, fd: fd, current: (current, sentBefore), engine: engine)
    }

    /// Points `vectors[index...]` at the unsent bytes of each write (each `Data` pinned by a nested
    /// `withUnsafeBytes`, so no bytes are copied), then sends them. Only the current write may have
    /// sent bytes already (`current.sent`); the gathered ones have not started.
    private func fill(
        _ vectors: UnsafeMutablePointer<iovec>, from index: Int, count: Int, fd: Int32,
        current: (item: WriteItem, sent: Int), engine: SocketEngine
    ) -> (Int, Int32) {
        guard index < count else {
            return SocketOps.send(fd, vectors, count: count)
        }
        let item = index == 0 ? current.item : engine.gatheredWrite(at: index - 1)
        let sent = index == 0 ? current.sent : 0
        return item.data.withUnsafeBytes { bytes in
            let unsent = UnsafeRawBufferPointer(rebasing: bytes[sent...])
            vectors[index] = iovec(
                iov_base: UnsafeMutableRawPointer(mutating: unsent.baseAddress), iov_len: unsent.count)
            return fill(vectors, from: index + 1, count: count, fd: fd, current: current, engine: engine)
        }
    }
}
