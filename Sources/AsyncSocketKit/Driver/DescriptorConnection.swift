import AsyncSocketCore
import Foundation
import Logging

// The connection driver (Connection/) over a real descriptor: what only a socket face has, and the
// test harness does not. TLS starts from the marker's settings (TLSStart.swift), and plain-TCP
// writes go out gathered (WriteGather.swift): the current write with the ones queued behind it, in
// one system call, accounted for write by write.

/// A face of the connection driver with a descriptor under it.
package protocol DescriptorConnection: ConnectionDriving {
    /// The connected descriptor.
    var fd: Int32 { get }
    /// Gathered writes and the accounting of a batch sent together.
    var gather: WriteGather { get }
    /// The host name the TLS peer check uses.
    var tlsPeerName: String? { get }
    var logger: Logger? { get }
    /// What the connection's log lines carry now (SocketLogMetadata.swift).
    var currentLogMetadata: SocketLogMetadata { get }
    /// A gathered batch is about to go out (a flush the face had put off is not needed any more).
    func gatheredWritesFlushing()
}

extension DescriptorConnection {
    /// Starts TLS with the marker's settings (a failure closes the connection), with the bytes read
    /// ahead as its first ciphertext.
    package func beginTLS() {
        guard let (payload, prebuffered) = engine.beginTLS() else { return }
        do {
            tls = try TLSStart.transport(
                payload: payload, prebuffered: prebuffered, connectHost: tlsPeerName, logger: tlsLogger, over: self)
        } catch {
            metricHandles?.tlsFailures.increment()
            return fail(.tlsStart(error))
        }
        tlsHandshaking = true
        readableHint = true
        continueHandshake()
    }

    /// The user's logger with the connection's metadata set, for TLS's own lines (its settings'
    /// warnings).
    private var tlsLogger: Logger? {
        guard var logger else { return nil }
        for (key, value) in currentLogMetadata.metadata() {
            logger[metadataKey: key] = value
        }
        return logger
    }

    /// The transport turned writable: the handshake, the current write or TLS's pending ciphertext
    /// goes on.
    package func transportWritable() {
        writableHint = true
        if tlsHandshaking {
            continueHandshake()
        } else if engine.writeIsCurrent {
            flushGatheredWrites()
        } else {
            flushCiphertext()
        }
    }

    /// Sends the current write: with the writes queued behind it in one system call (plain TCP), or
    /// alone through a write pass (TLS, or a batch still being accounted for). Accounting makes each
    /// gathered write current in turn and reports it; the next dequeue comes once, after the batch.
    package func flushGatheredWrites() {
        guard tls == nil, !gather.isAccounting else { return writePass() }
        guard mayDequeue(.write), engine.writeIsCurrent, !isPaused(.write) else { return }
        gatheredWritesFlushing()
        guard writableHint else { return watchWritable(true) }
        let mark = deliveryMark
        let accounted = gather.flush(
            fd, engine,
            pass: {
                writePass()
                return goesOn(after: mark)
            },
            started: armWriteTimer)
        guard accounted, !engine.hasCurrentWrite, engine.queuedWriteCount > 0 || engine.disconnectsAfterWriting
        else { return }
        dequeueNextWrite()
    }
}
