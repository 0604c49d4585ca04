import AsyncSocketCore
import Foundation

/// A transport played from a script: bytes the test feeds wait "in the kernel" until read; writes
/// are accepted up to a send capacity the test controls. Every call is counted.
package final class ScriptedTransport: ByteTransport {
    /// Bytes fed and not yet read.
    package private(set) var pending: [UInt8] = []
    private var pendingStart = 0
    /// After the pending bytes, reads report the end of the stream.
    package var ended = false
    /// A read error to report (an errno), once the pending bytes are gone.
    package var failure: Int32?
    /// Bytes a write may still take before it would block.
    package var sendCapacity = Int.max
    /// Everything written, in order.
    package private(set) var written: [UInt8] = []
    package private(set) var readCalls = 0
    package private(set) var writeCalls = 0

    package init() {}

    package var remaining: ArraySlice<UInt8> { pending[pendingStart...] }

    /// Everything written since the last call (the peer reads it).
    package func takeWritten() -> [UInt8] {
        defer { written.removeAll() }
        return written
    }

    /// Whether a level-triggered poll would report the transport readable.
    package var isReadable: Bool { pendingStart < pending.count || ended || failure != nil }

    package func feed(_ bytes: [UInt8]) {
        pending.append(contentsOf: bytes)
    }

    package func read(into buffer: UnsafeMutableRawBufferPointer) -> TransportReadResult {
        readCalls += 1
        let available = pending.count - pendingStart
        if available == 0 {
            if let failure { return .failed(failure) }
            return ended ? .endOfStream : .wouldBlock
        }
        let count = min(available, buffer.count)
        pending.withUnsafeBytes { bytes in
            buffer.baseAddress!.copyMemory(from: bytes.baseAddress! + pendingStart, byteCount: count)
        }
        pendingStart += count
        if pendingStart == pending.count {
            pending.removeAll(keepingCapacity: true)
            pendingStart = 0
        }
        return .bytes(count)
    }

    package func write(_ bytes: UnsafeRawBufferPointer) -> TransportWriteResult {
        writeCalls += 1
        guard sendCapacity > 0 else { return .wouldBlock }
        let count = min(bytes.count, sendCapacity)
        written.append(contentsOf: bytes.prefix(count))
        if sendCapacity != .max {
            sendCapacity -= count
        }
        return .bytes(count)
    }
}
