import AsyncSocketCore
import Foundation

/// A transport played from a script: bytes the test feeds wait "in the kernel" until read; writes
/// are accepted up to a send capacity the test controls. Every call is counted.
final class ScriptedTransport: ByteTransport {
    /// Bytes fed and not yet read.
    private(set) var pending: [UInt8] = []
    private var pendingStart = 0
    /// After the pending bytes, reads report the end of the stream.
    var ended = false
    /// A read error to report (an errno), once the pending bytes are gone.
    var failure: Int32?
    /// Bytes a write may still take before it would block.
    var sendCapacity = Int.max
    /// Everything written, in order.
    private(set) var written: [UInt8] = []
    private(set) var readCalls = 0
    private(set) var writeCalls = 0

    var remaining: ArraySlice<UInt8> { pending[pendingStart...] }

    /// Whether a level-triggered poll would report the transport readable.
    var isReadable: Bool { pendingStart < pending.count || ended || failure != nil }

    func feed(_ bytes: [UInt8]) {
        pending.append(contentsOf: bytes)
    }

    func read(into buffer: UnsafeMutableRawBufferPointer) -> TransportReadResult {
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

    func write(_ bytes: UnsafeRawBufferPointer) -> TransportWriteResult {
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

/// A clock that moves only when the test says so; timers fire in deadline order.
final class VirtualClock {
    private(set) var now: TimeInterval = 0
    private var timers: [(deadline: TimeInterval, id: Int, action: () -> Void)] = []
    private var nextID = 0

    /// Schedules `action` `seconds` from now; returns an id for ``cancel(_:)``.
    @discardableResult
    func schedule(after seconds: TimeInterval, _ action: @escaping () -> Void) -> Int {
        nextID += 1
        timers.append((now + max(0, seconds), nextID, action))
        return nextID
    }

    func cancel(_ id: Int?) {
        guard let id else { return }
        timers.removeAll { $0.id == id }
    }

    var hasTimers: Bool { !timers.isEmpty }

    /// Moves time forward by `seconds`, firing every timer that falls due, in order.
    func advance(by seconds: TimeInterval) {
        let end = now + seconds
        while let next = timers.filter({ $0.deadline <= end }).min(by: { ($0.deadline, $0.id) < ($1.deadline, $1.id) })
        {
            timers.removeAll { $0.id == next.id }
            now = next.deadline
            next.action()
        }
        now = end
    }
}
