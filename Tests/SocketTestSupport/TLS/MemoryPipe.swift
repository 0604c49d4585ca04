import AsyncSocketCore
import Foundation

/// One end of an in-memory connection. A write lands in the other end's inbox, up to a send capacity
/// the test controls; a read takes from this end's inbox.
package final class MemoryPipeEnd: ByteTransport {
    private var inbox: [UInt8] = []
    private var inboxStart = 0
    /// The other end; set by ``MemoryPipeEnd/pair()``.
    package private(set) weak var peer: MemoryPipeEnd?
    /// Bytes a write may still send before it would block (`Int.max`: unlimited).
    package var sendCapacity = Int.max
    /// The other end closed its writing side: reads end after the inbox.
    package private(set) var peerClosedWriting = false
    package private(set) var writeCalls = 0
    package private(set) var bytesSent = 0

    /// Two connected ends.
    package static func pair() -> (MemoryPipeEnd, MemoryPipeEnd) {
        let a = MemoryPipeEnd()
        let b = MemoryPipeEnd()
        a.peer = b
        b.peer = a
        return (a, b)
    }

    package var available: Int { inbox.count - inboxStart }

    /// Ends this side's writing: the peer reads the end of the stream after what it has.
    package func closeWriting() {
        peer?.peerClosedWriting = true
    }

    /// Puts bytes into this end's inbox as if the peer had sent them.
    package func deliver(_ bytes: [UInt8]) {
        inbox.append(contentsOf: bytes)
    }

    package func read(into buffer: UnsafeMutableRawBufferPointer) -> TransportReadResult {
        guard available > 0 else { return peerClosedWriting ? .endOfStream : .wouldBlock }
        let count = min(available, buffer.count)
        inbox.withUnsafeBytes { bytes in
            buffer.copyMemory(from: UnsafeRawBufferPointer(rebasing: bytes[inboxStart..<inboxStart + count]))
        }
        inboxStart += count
        if inboxStart == inbox.count {
            inbox.removeAll(keepingCapacity: true)
            inboxStart = 0
        }
        return .bytes(count)
    }

    package func write(_ bytes: UnsafeRawBufferPointer) -> TransportWriteResult {
        writeCalls += 1
        guard let peer else { return .failed(EPIPE) }
        guard sendCapacity > 0 else { return .wouldBlock }
        let count = min(bytes.count, sendCapacity)
        peer.inbox.append(contentsOf: bytes.prefix(count))
        if sendCapacity != .max {
            sendCapacity -= count
        }
        bytesSent += count
        return .bytes(count)
    }
}
