import DequeModule
import Foundation

// The I/O-free heart of both sockets: it decides what every read and write does with the bytes
// the transport gives and takes, and nothing else does. It never calls read(2)/write(2), never
// reads a clock and never touches a thread. A pass runs in a pull style (`runReadPass` in
// ByteTransport.swift):
//
//     beginReadPass(transportReadable: true)
//     loop: switch nextReadStep()
//           case .read(into: buffer): the transport reads into buffer, then transportRead(result)
//           case .finished(result):   the driver reports result (partial, completion, failure)
//
// and the driver carries out what dequeues return (arm a timer, start TLS, disconnect). Callbacks
// are reported only at the end of a pass, so a delegate that re-enters the socket always finds the
// engine in a consistent state. Bytes are copied once: from the transport into the read's storage (or into the
// prebuffer, for reads to a separator with prebuffering on) and from the prebuffer into a read.
//
// The state is a value: its methods work on `self` inout, which the compiler checks for exclusive
// access at compile time. Drivers reach it through `SocketEngine` (SocketEngine.swift), one checked
// access per call.
package struct EngineCore: ~Copyable {
    typealias Configuration = SocketEngine.Configuration

    var configuration: Configuration
    private var readQueue = Deque<QueuedRead>()
    var writeQueue = Deque<QueuedWrite>()
    /// Writes taken out of the queue behind the current one, for a gathered flush (see
    /// EngineCore+Gather.swift); each becomes current in turn.
    var gathered = Deque<WriteItem>()
    /// The bytes of the gathered writes (none of them has started).
    var gatheredBytes = 0
    /// The bytes of the queued, gathered and current writes not sent yet (EngineCore+Watermarks.swift).
    var queuedWriteBytes = 0
    /// The write queue's watermarks, and where the queue stands against them (EngineCore+Watermarks.swift).
    var writeWatermarks: WriteMarks?
    var aboveWriteHighWatermark = false
    var drainedToLowWatermark = false
    var currentRead: QueuedRead?
    var currentWrite: QueuedWrite?
    private var prebuffer = ByteBuffer()
    var forbidsReadsAndWrites = false
    /// A TLS marker was queued on this connection.
    var tlsQueued = false
    var disconnectsAfterReading = false
    var disconnectsAfterWriting = false
    /// The transport reported the end of the peer's data.
    var transportEnded = false
    /// Bytes examined by separator searches (for the linear-cost benchmark).
    var scannedBytes = 0
    /// The room a read of available bytes starts with: what the last one took, rounded up to a power
    /// of two, between 2 KiB and 1 MiB. A small exchange allocates little; a stream gets large reads
    /// (the item's buffer doubles while the transport keeps filling it, up to 1 MiB a read), each byte
    /// read in place.
    var availableReadSize = 2048
    /// The bytes the transport said it holds (a read source's estimate), for the next read pass
    /// when `configuration.availableReadsTakeEstimate`; 0 when not known.
    private var availableEstimate = 0

    /// The current read's progress (its bytes, its timeout with extensions).
    private var reading = ReadState()
    /// The current write's bytes sent, and its timeout with extensions.
    private(set) var writeDone = 0
    private var writeTimeout: TimeInterval = 0

    private var readPass = ReadPassState()
    private var writePass = WritePassState()

    init(configuration: Configuration) {
        self.configuration = configuration
    }

    // MARK: Queueing

    /// Queues a read; returns why it was ignored, or `nil` when it was queued.
    package mutating func enqueueRead(_ request: ReadRequest) -> String? {
        if forbidsReadsAndWrites {
            return "reads are forbidden after disconnectAfter…"
        }
        if let rejection = request.rejection {
            return rejection
        }
        var request = request
        let limit = configuration.maxPrebufferSize
        if limit > 0, case .separator(let separator, let maxLength) = request.kind, maxLength == 0 || maxLength > limit
        {
            request.kind = .separator(separator, maxLength: max(limit, separator.count))
        }
        readQueue.append(.read(ReadItem(request)))
        return nil
    }

    /// Queues a write of `data` (kept, not copied); returns why it was ignored, or `nil`.
    package mutating func enqueueWrite(_ data: Data, timeout: TimeInterval, tag: Int) -> String? {
        if forbidsReadsAndWrites {
            return "writes are forbidden after disconnectAfter…"
        }
        if data.isEmpty {
            return "the data is empty"
        }
        writeQueue.append(.write(WriteItem(data: data, timeout: timeout, tag: tag)))
        writeBytesQueued(data.count)
        return nil
    }

    /// Queues a TLS marker in both queues (not blocked by `disconnectAfter…`, as in the original).
    /// Queues a TLS marker (`startTLS`); returns why it was ignored, or `nil` when it was queued.
    /// Legacy queues one for every call, even after disconnectAfter…; GCD accepts one per connection,
    /// and none once reads and writes are forbidden.
    package mutating func enqueueTLS(settings: Any, semantics: Semantics) -> String? {
        if semantics == .gcd {
            if forbidsReadsAndWrites {
                return "startTLS is ignored after disconnectAfter…"
            }
            if tlsQueued {
                return "startTLS was called already on this connection"
            }
        }
        tlsQueued = true
        let marker = TLSMarker(settings: settings)
        readQueue.append(.tls(marker))
        writeQueue.append(.tls(marker))
        return nil
    }

    /// Queued and current items, for `description` and `canSafelySetDelegate`.
    package var queuedReadCount: Int { readQueue.count }
    package var queuedWriteCount: Int { writeQueue.count + gathered.count }
    package var isIdle: Bool {
        readQueue.isEmpty && writeQueue.isEmpty && gathered.isEmpty && currentRead == nil && currentWrite == nil
    }

    /// Bytes read ahead and not yet taken by a read.
    package var prebufferedCount: Int { prebuffer.count }

    // MARK: Disconnect-after rules

    /// Forbids further reads and writes and sets the after-flags; returns whether the condition
    /// already holds (the face then disconnects on a later pass, never inline).
    package mutating func disconnectAfter(reading: Bool, writing: Bool) -> Bool {
        forbidsReadsAndWrites = true
        disconnectsAfterReading = disconnectsAfterReading || reading
        disconnectsAfterWriting = disconnectsAfterWriting || writing
        return disconnectConditionHolds
    }

    /// Whether the after-flags ask for a disconnect now.
    package var disconnectConditionHolds: Bool {
        let readIdle = readQueue.isEmpty && currentRead == nil
        let writeIdle = writeQueue.isEmpty && gathered.isEmpty && currentWrite == nil
        if disconnectsAfterReading {
            return readIdle && (!disconnectsAfterWriting || writeIdle)
        }
        if disconnectsAfterWriting {
            return writeIdle
        }
        return false
    }

    /// Whether the current read is a read (not a TLS marker), and likewise for writes; asked without
    /// copying the entry out.
    var readIsCurrent: Bool {
        if case .read = currentRead { return true }
        return false
    }
    var writeIsCurrent: Bool {
        if case .write = currentWrite { return true }
        return false
    }

    // MARK: Dequeueing

    /// Makes the next queued read current.
    mutating func dequeueRead() -> DequeueResult {
        if currentRead != nil {
            return .busy
        }
        guard let next = readQueue.popFirst() else {
            return disconnectsAfterReading && disconnectConditionHolds ? .disconnect : .empty
        }
        currentRead = next
        switch next {
        case .read(let item):
            reading.start(item)
            return .started(timeout: item.timeout >= 0 ? item.timeout : nil)
        case .tls(let marker):
            marker.readSideReached = true
            return marker.writeSideReached ? .startTLS : .waitingForTLS
        }
    }

    /// Whether a write dequeue now could do anything: start a write or a TLS marker, or the disconnect
    /// after writing. When it could not, a dequeue the face would schedule for later may be skipped:
    /// whatever queues a write (or asks for the disconnect) dequeues by itself.
    package var writeDequeueMayAct: Bool {
        currentWrite == nil && (!gathered.isEmpty || !writeQueue.isEmpty || disconnectsAfterWriting)
    }

    /// Makes the next queued write current.
    mutating func dequeueWrite() -> DequeueResult {
        if currentWrite != nil {
            return .busy
        }
        if let item = gathered.popFirst() {
            gatheredBytes -= item.data.count
            currentWrite = .write(item)
            startWrite(item)
            return .started(timeout: item.timeout >= 0 ? item.timeout : nil)
        }
        guard let next = writeQueue.popFirst() else {
            return disconnectsAfterWriting && disconnectConditionHolds ? .disconnect : .empty
        }
        currentWrite = next
        switch next {
        case .write(let item):
            startWrite(item)
            return .started(timeout: item.timeout >= 0 ? item.timeout : nil)
        case .tls(let marker):
            marker.writeSideReached = true
            return marker.readSideReached ? .startTLS : .waitingForTLS
        }
    }

    private mutating func startWrite(_ item: WriteItem) {
        writeDone = 0
        writeTimeout = item.timeout
    }

    // MARK: Read passes

    private enum ReadTarget {
        case item
        case prebuffer
    }

    private struct ReadPassState {
        var transportMayHaveBytes = false
        var drained = false
        var bytes = 0
        var requested = 0
        var target = ReadTarget.item
        var failure: TransportFailure?
        var foundSeparator = false
        /// The step read from the transport's estimate (`availableReadsTakeEstimate`): the pass ends
        /// there, and the estimate's bytes beyond the step are left for the next read.
        var tookEstimate = false
        var estimateLeft = 0
    }

    /// Starts a read pass; `transportReadable` says whether the transport may have bytes.
    package mutating func beginReadPass(transportReadable: Bool) {
        readPass = ReadPassState()
        readPass.transportMayHaveBytes = transportReadable && !transportEnded
    }

    /// The next step of the current read pass.
    package mutating func nextReadStep() -> ReadStep {
        guard case .read(let item) = currentRead else {
            return .finished(ReadPassResult(transportDrained: readPass.drained))
        }
        while readPass.failure == nil && !isFinished(item) && reading.remainingAllowance(item) > 0 {
            if !prebuffer.isEmpty {
                takeFromPrebuffer(into: item)
                continue
            }
            guard readPass.transportMayHaveBytes else { break }
            let space: UnsafeMutableRawBufferPointer
            switch item.kind {
            case .available where configuration.availableReadsTakeEstimate && availableEstimate > 0:
                let step = min(availableEstimate, Self.largestAvailableRead)
                space = reading.writableSpace(item, minimum: step, maximum: step)
                readPass.tookEstimate = true
                readPass.estimateLeft = availableEstimate - space.count
                availableEstimate = 0
                readPass.target = .item
            case .available:
                // At most 1 MiB a read: a larger buffer is memory the allocator maps afresh each time
                // (a page fault per page the bytes land on); what is left goes to the next read.
                let room = Self.largestAvailableRead - reading.bytesDone
                guard room > 0 else { return .finished(finishReadPass(item)) }
                space = reading.writableSpace(item, minimum: min(availableReadSize, room), maximum: room)
                readPass.target = .item
            case .length:
                let remaining = reading.remainingAllowance(item)
                space = reading.writableSpace(item, minimum: remaining, maximum: remaining)
                readPass.target = .item
            case .separator(let separator, _):
                if configuration.prebuffering {
                    space = prebuffer.writableSpace(minimum: configuration.readChunk)
                    readPass.target = .prebuffer
                } else {
                    let wanted = SeparatorSearch.bytesToNextPossibleEnd(of: separator, tail: reading.bytes(item))
                    space = reading.writableSpace(item, minimum: wanted, maximum: wanted)
                    readPass.target = .item
                }
            }
            readPass.requested = space.count
            return .read(into: space)
        }
        return .finished(finishReadPass(item))
    }

    /// Reports what the transport did with the last `.read` step.
    package mutating func transportRead(_ result: TransportReadResult) {
        guard case .read(let item) = currentRead else { return }
        switch result {
        case .bytes(let count):
            switch readPass.target {
            case .item:
                reading.didWrite(item, count)
                readPass.bytes += count
                if case .separator = item.kind, reading.isComplete(item) {
                    readPass.foundSeparator = true
                }
            case .prebuffer:
                prebuffer.didWrite(count)
            }
            if readPass.tookEstimate {
                readPass.transportMayHaveBytes = false
                readPass.drained = count < readPass.requested || readPass.estimateLeft == 0
                availableEstimate = readPass.drained ? 0 : readPass.estimateLeft
            } else if count < readPass.requested {
                readPass.transportMayHaveBytes = false
                readPass.drained = true
            }
        case .wouldBlock:
            readPass.transportMayHaveBytes = false
            readPass.drained = true
        case .endOfStream:
            transportEnded = true
            readPass.transportMayHaveBytes = false
        case .failed(let code):
            readPass.transportMayHaveBytes = false
            readPass.failure = .transport(code)
        }
    }

    private func isFinished(_ item: ReadItem) -> Bool {
        switch item.kind {
        case .available: return reading.remainingAllowance(item) == 0
        case .length: return reading.remainingAllowance(item) == 0
        case .separator: return readPass.foundSeparator
        }
    }

    private mutating func takeFromPrebuffer(into item: ReadItem) {
        let available = prebuffer.readable
        let window = UnsafeRawBufferPointer(rebasing: available.prefix(reading.remainingAllowance(item)))
        var taken = window.count
        if case .separator(let separator, _) = item.kind,
            let end = SeparatorSearch.end(
                of: separator, tail: reading.bytes(item), new: window, scanned: &scannedBytes)
        {
            taken = end
            readPass.foundSeparator = true
        }
        let piece = UnsafeRawBufferPointer(rebasing: window.prefix(taken))
        if readPass.foundSeparator && reading.canAdoptWhole(item) {
            reading.adoptWhole(piece)
        } else {
            reading.append(item, piece)
        }
        prebuffer.consume(taken)
        readPass.bytes += taken
    }

    private mutating func finishReadPass(_ item: ReadItem) -> ReadPassResult {
        var result = ReadPassResult(transportDrained: readPass.drained)
        let done: Bool
        switch item.kind {
        case .available: done = reading.bytesDone > 0
        case .length: done = reading.remainingAllowance(item) == 0
        case .separator: done = readPass.foundSeparator
        }
        if done {
            if case .available = item.kind {
                availableReadSize = Self.availableReadSize(after: reading.bytesDone)
            }
            result.completed = (reading.finish(item), item.tag)
            currentRead = nil
            prebuffer.releaseIfEmpty(above: 4 * configuration.readChunk)
            result.failure = readPass.failure
            return result
        }
        if readPass.bytes > 0, !item.isAvailableKind {
            result.partialLength = readPass.bytes
            result.partialTag = item.tag
        }
        if let failure = readPass.failure {
            result.failure = failure
        } else if case .separator(_, let maxLength) = item.kind, maxLength > 0, reading.bytesDone >= maxLength {
            result.failure = .readMaxedOut
        } else if transportEnded && prebuffer.isEmpty {
            result.failure = .endOfStream
        } else {
            result.waitsForReadable = true
        }
        return result
    }

    /// The most a read of available bytes asks for in one step: 1 MiB.
    private static let largestAvailableRead = 1 << 20

    private static func availableReadSize(after bytes: Int) -> Int {
        var size = 2048
        while size < bytes && size < largestAvailableRead {
            size <<= 1
        }
        return size
    }

    /// Records how many bytes the transport says it holds (a read source's estimate), for the next
    /// read pass when `configuration.availableReadsTakeEstimate`.
    package mutating func noteAvailableEstimate(_ bytes: Int) {
        availableEstimate = max(bytes, 0)
    }

    /// Records that the transport reached its end while no read was asking for bytes.
    package mutating func noteTransportEnded() {
        transportEnded = true
    }

    // MARK: Write passes

    private struct WritePassState {
        var transportMayAccept = false
        var bytes = 0
        var requested = 0
        var failure: TransportFailure?
    }

    /// Starts a write pass; `transportWritable` says whether the transport may accept bytes.
    package mutating func beginWritePass(transportWritable: Bool) {
        writePass = WritePassState()
        writePass.transportMayAccept = transportWritable
    }

    /// The next step of the current write pass.
    package mutating func nextWriteStep() -> WriteStep {
        guard case .write(let item) = currentWrite else {
            return .finished(WritePassResult())
        }
        let complete = writeDone == item.data.count
        if writePass.failure == nil && !complete && writePass.transportMayAccept {
            writePass.requested = item.data.count - writeDone
            return .write(item.data, offset: writeDone)
        }
        var result = WritePassResult()
        if complete {
            result.completedTag = item.tag
            currentWrite = nil
            return .finished(result)
        }
        if writePass.bytes > 0 {
            result.partialLength = writePass.bytes
            result.partialTag = item.tag
        }
        result.failure = writePass.failure
        result.waitsForWritable = writePass.failure == nil
        return .finished(result)
    }

    /// Reports what the transport did with the last `.write` step.
    package mutating func transportWrote(_ result: TransportWriteResult) {
        guard case .write = currentWrite else { return }
        switch result {
        case .bytes(let count):
            writeDone += count
            writePass.bytes += count
            writeBytesSent(count)
            if count < writePass.requested {
                writePass.transportMayAccept = false
            }
        case .wouldBlock:
            writePass.transportMayAccept = false
        case .failed(let code):
            writePass.failure = .transport(code)
        }
    }

    // MARK: Progress

    /// The current read's progress; NaN and zeros when idle or at a TLS marker.
    package var readProgress: TransferProgress {
        guard case .read(let item) = currentRead else { return TransferProgress() }
        var total = 0
        if case .length(let length) = item.kind {
            total = length
        }
        let fraction = total == 0 ? 1.0 : Double(reading.bytesDone) / Double(total)
        return TransferProgress(tag: item.tag, bytesDone: reading.bytesDone, total: total, fraction: fraction)
    }

    /// The current write's progress; NaN and zeros when idle or at a TLS marker.
    package var writeProgress: TransferProgress {
        guard case .write(let item) = currentWrite else { return TransferProgress() }
        return TransferProgress(
            tag: item.tag, bytesDone: writeDone, total: item.data.count,
            fraction: Double(writeDone) / Double(item.data.count))
    }

    // MARK: Timeouts

    /// What to ask the delegate when the current read's timer fires.
    package var readTimeoutQuery: TimeoutQuery? {
        guard case .read(let item) = currentRead else { return nil }
        return TimeoutQuery(tag: item.tag, elapsed: reading.timeout, bytesDone: reading.bytesDone)
    }

    /// What to ask the delegate when the current write's timer fires.
    package var writeTimeoutQuery: TimeoutQuery? {
        guard case .write(let item) = currentWrite else { return nil }
        return TimeoutQuery(tag: item.tag, elapsed: writeTimeout, bytesDone: writeDone)
    }

    /// Applies the delegate's answer: a positive extension is added to the stored timeout and
    /// returned (re-arm a timer of exactly that length); otherwise `nil` (the read times out).
    package mutating func extendReadTimeout(by extensionSeconds: TimeInterval) -> TimeInterval? {
        guard extensionSeconds > 0, case .read = currentRead else { return nil }
        reading.timeout += extensionSeconds
        return extensionSeconds
    }

    /// The write-side counterpart of ``extendReadTimeout(by:)``.
    package mutating func extendWriteTimeout(by extensionSeconds: TimeInterval) -> TimeInterval? {
        guard extensionSeconds > 0, case .write = currentWrite else { return nil }
        writeTimeout += extensionSeconds
        return extensionSeconds
    }

    // MARK: TLS markers

    /// Both sides reached the current marker: retires nothing yet, hands over the marker's settings
    /// and the bytes read ahead (they are the first ciphertext of the handshake).
    package mutating func beginTLS() -> (settings: Any, prebuffered: Data)? {
        guard case .tls(let marker) = currentRead, case .tls(let other) = currentWrite, marker === other else {
            return nil
        }
        return (marker.settings, prebuffer.takeData())
    }

    /// The handshake finished: both markers retire.
    package mutating func completeTLS() {
        if case .tls = currentRead {
            currentRead = nil
        }
        if case .tls = currentWrite {
            currentWrite = nil
        }
    }

    // MARK: Closing and unread data

    /// Starts an error close: the current read's bytes go in front of the prebuffer and both queues
    /// are emptied, so ``unreadData`` holds everything received and not delivered.
    package mutating func prepareErrorClose() {
        if case .read(let item) = currentRead {
            reading.takePartialBytes(item, into: &prebuffer)
        }
        currentRead = nil
        currentWrite = nil
        reading = ReadState()
        writeDone = 0
        readQueue.removeAll()
        writeQueue.removeAll()
        gathered.removeAll()
        gatheredBytes = 0
        writesDropped()
    }

    /// Room to read more unread bytes from the transport into (appended after the prebuffer).
    package mutating func unreadSpace() -> UnsafeMutableRawBufferPointer {
        prebuffer.writableSpace(minimum: 256)
    }

    /// Records `count` bytes read into ``unreadSpace()``.
    package mutating func unreadDidRead(_ count: Int) {
        prebuffer.didWrite(count)
    }

    /// Everything received and not delivered: the current read's bytes, then the prebuffer (after
    /// ``prepareErrorClose()``), then what was read with ``unreadSpace()``.
    package var unreadData: Data {
        prebuffer.copyData()
    }

    /// Drops the queues, the current items, the prebuffer and the after-flags; keeps the configuration.
    package mutating func reset() {
        readQueue.removeAll()
        writeQueue.removeAll()
        gathered.removeAll()
        gatheredBytes = 0
        currentRead = nil
        currentWrite = nil
        reading = ReadState()
        writeDone = 0
        writesDropped()
        prebuffer.removeAll()
        prebuffer.releaseIfEmpty(above: 0)
        forbidsReadsAndWrites = false
        tlsQueued = false
        disconnectsAfterReading = false
        disconnectsAfterWriting = false
        transportEnded = false
    }
}
