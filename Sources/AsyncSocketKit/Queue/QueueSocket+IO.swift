import AsyncSocketCore
import CAsyncSocketShims
import Dispatch
import Foundation

// Reads and writes the GCD way: calls are queued to the socket queue; a read source is resumed only
// while a read waits for bytes. The passes themselves are the connection driver's (Connection/); what
// this face does its own way is in QueueSocket+Driver.swift.
extension QueueSocket: ByteTransport {
    // MARK: Public reads

    /// Reads whatever is available, at least one byte: as GCDAsyncSocket does, the bytes the read
    /// source counted when it fired (at most 1 MiB per read; the rest goes to the next one).
    ///
    /// Original: `readDataWithTimeout:tag:` (GCDAsyncSocket).
    public func readData(withTimeout timeout: TimeInterval, tag: Int) {
        enqueue(ReadRequest(kind: .available(maxLength: 0), timeout: timeout, tag: tag))
    }

    /// Reads whatever is available into `buffer` from `offset` on.
    ///
    /// Original: `readDataWithTimeout:buffer:bufferOffset:tag:` (GCDAsyncSocket).
    public func readData(withTimeout timeout: TimeInterval, buffer: NSMutableData?, bufferOffset offset: Int, tag: Int)
    {
        enqueue(
            ReadRequest(
                kind: .available(maxLength: 0), buffer: buffer, bufferOffset: offset, timeout: timeout, tag: tag))
    }

    /// Reads whatever is available, at most `maxLength` bytes (0: no limit), into `buffer`.
    ///
    /// Original: `readDataWithTimeout:buffer:bufferOffset:maxLength:tag:` (GCDAsyncSocket).
    public func readData(
        withTimeout timeout: TimeInterval, buffer: NSMutableData?, bufferOffset offset: Int, maxLength: Int, tag: Int
    ) {
        enqueue(
            ReadRequest(
                kind: .available(maxLength: maxLength), buffer: buffer, bufferOffset: offset, timeout: timeout,
                tag: tag))
    }

    /// Reads exactly `length` bytes.
    ///
    /// Original: `readDataToLength:withTimeout:tag:` (GCDAsyncSocket).
    public func readData(toLength length: Int, withTimeout timeout: TimeInterval, tag: Int) {
        enqueue(ReadRequest(kind: .length(length), timeout: timeout, tag: tag))
    }

    /// Reads exactly `length` bytes into `buffer` from `offset` on.
    ///
    /// Original: `readDataToLength:withTimeout:buffer:bufferOffset:tag:` (GCDAsyncSocket).
    public func readData(
        toLength length: Int, withTimeout timeout: TimeInterval, buffer: NSMutableData?, bufferOffset offset: Int,
        tag: Int
    ) {
        enqueue(ReadRequest(kind: .length(length), buffer: buffer, bufferOffset: offset, timeout: timeout, tag: tag))
    }

    /// Reads up to and including `data`.
    ///
    /// Original: `readDataToData:withTimeout:tag:` (GCDAsyncSocket).
    public func readData(to data: Data, withTimeout timeout: TimeInterval, tag: Int) {
        enqueue(ReadRequest(kind: .separator(SeparatorBytes.of(data), maxLength: 0), timeout: timeout, tag: tag))
    }

    /// Reads up to and including `data` into `buffer` from `offset` on.
    ///
    /// Original: `readDataToData:withTimeout:buffer:bufferOffset:tag:` (GCDAsyncSocket).
    public func readData(
        to data: Data, withTimeout timeout: TimeInterval, buffer: NSMutableData?, bufferOffset offset: Int, tag: Int
    ) {
        enqueue(
            ReadRequest(
                kind: .separator(SeparatorBytes.of(data), maxLength: 0), buffer: buffer, bufferOffset: offset,
                timeout: timeout, tag: tag))
    }

    /// Reads up to and including `data`, failing with `readMaxedOut` past `maxLength` bytes (0: none).
    ///
    /// Original: `readDataToData:withTimeout:maxLength:tag:` (GCDAsyncSocket).
    public func readData(to data: Data, withTimeout timeout: TimeInterval, maxLength: Int, tag: Int) {
        enqueue(
            ReadRequest(kind: .separator(SeparatorBytes.of(data), maxLength: maxLength), timeout: timeout, tag: tag))
    }

    /// Reads up to and including `data` into `buffer`, failing past `maxLength` bytes (0: none).
    ///
    /// Original: `readDataToData:withTimeout:buffer:bufferOffset:maxLength:tag:` (GCDAsyncSocket).
    public func readData(
        to data: Data, withTimeout timeout: TimeInterval, buffer: NSMutableData?, bufferOffset offset: Int,
        maxLength: Int, tag: Int
    ) {
        enqueue(
            ReadRequest(
                kind: .separator(SeparatorBytes.of(data), maxLength: maxLength), buffer: buffer, bufferOffset: offset,
                timeout: timeout, tag: tag))
    }

    /// Queues `data` for writing; the data is kept, not copied.
    ///
    /// Original: `writeData:withTimeout:tag:` (GCDAsyncSocket).
    public func write(_ data: Data, withTimeout timeout: TimeInterval, tag: Int) {
        socketQueue.async { [self] in
            onSocketQueue {
                enqueueOperation("write", tag: tag, { engine.enqueueWrite(data, timeout: timeout, tag: tag) }) {
                    maybeDequeueWrite()
                }
            }
        }
    }

    func enqueue(_ request: ReadRequest) {
        let request = SendableRequest(request: request)
        socketQueue.async { [self] in
            onSocketQueue {
                enqueueOperation("read", tag: request.request.tag, { engine.enqueueRead(request.request) }) {
                    maybeDequeueRead()
                }
            }
        }
    }

    /// On the socket queue: queues a read or write (`enqueue` answers why it refused it, or `nil`) and
    /// runs the dequeue it may start; before the socket is started it is dropped.
    func enqueueOperation(
        _ kind: String, tag: Int, _ enqueue: () -> String?, thenDequeue dequeue: () -> Void
    ) {
        guard started else { return log(.warning, "\(kind) dropped: the socket is not started", tag: tag) }
        if let rejection = enqueue() {
            return log(.warning, "\(kind) ignored: \(rejection)", tag: tag)
        }
        dequeue()
    }

    // MARK: Progress

    /// The current read's progress (NaN with zeros when idle).
    ///
    /// Original: `progressOfReadReturningTag:bytesDone:total:` (GCDAsyncSocket).
    public func progressOfRead(
        returningTag tag: UnsafeMutablePointer<Int>?, bytesDone: UnsafeMutablePointer<Int>?,
        total: UnsafeMutablePointer<Int>?
    ) -> Float {
        let progress = sync { engine.readProgress }
        tag?.pointee = progress.tag
        bytesDone?.pointee = progress.bytesDone
        total?.pointee = progress.total
        return Float(progress.fraction)
    }

    /// The current write's progress (NaN with zeros when idle).
    ///
    /// Original: `progressOfWriteReturningTag:bytesDone:total:` (GCDAsyncSocket).
    public func progressOfWrite(
        returningTag tag: UnsafeMutablePointer<Int>?, bytesDone: UnsafeMutablePointer<Int>?,
        total: UnsafeMutablePointer<Int>?
    ) -> Float {
        let progress = sync { engine.writeProgress }
        tag?.pointee = progress.tag
        bytesDone?.pointee = progress.bytesDone
        total?.pointee = progress.total
        return Float(progress.fraction)
    }

    // MARK: Sources

    /// Sets up the sources of a connected descriptor: the read source, resumed, unless
    /// ``watchesReadableFromStart`` says it waits for the first read that must wait for bytes
    /// (`resumeReadSource()`) or the first write that must wait for room, whichever comes first
    /// (`resumeWriteSource()`). The write source is made the first time a write waits for room
    /// (`resumeWriteSource()`): most connections never fill the kernel's send buffer, and each source
    /// costs an allocation, a registration with libdispatch's manager thread (`epoll_ctl`, a wake-up)
    /// and, at the close, a resume and a cancel (Benchmarks/PROFILE.md, "Accept, queue-core engine").
    func setUpSources() {
        // One holder to start with: the close (tearDown, or whoever `closing(with:)` handed the
        // descriptor to); each source, once made, is one more (its cancel handler).
        let remaining = CancelCounter(count: 1, closing: fd)
        descriptorCloser = remaining
        readSourceSuspended = true
        writeSourceSuspended = true
        writableHint = true
        readableHint = false
        if watchesReadableFromStart {
            makeReadSource(closer: remaining)
        }
    }

    /// Makes the read source, resumed.
    private func makeReadSource(closer: CancelCounter) {
        let read = DispatchSource.makeReadSource(fileDescriptor: fd, queue: socketQueue)
        read.setEventHandler { [weak self] in
            if let self { onSocketQueue { handleSourceEvent { readSourceFired() } } }
        }
        closer.addHolder()
        read.setCancelHandler { closer.done() }
        readSource = read
        read.activate()
        readSourceSuspended = false
    }

    /// Makes the write source, resumed (its first event says the descriptor has room).
    private func makeWriteSource(closer: CancelCounter) {
        let write = DispatchSource.makeWriteSource(fileDescriptor: fd, queue: socketQueue)
        write.setEventHandler { [weak self] in
            if let self { onSocketQueue { handleSourceEvent { writeSourceFired() } } }
        }
        closer.addHolder()
        write.setCancelHandler { closer.done() }
        writeSource = write
        write.activate()
        writeSourceSuspended = false
    }

    func suspendReadSource() {
        guard let readSource, !readSourceSuspended else { return }
        readSource.suspend()
        readSourceSuspended = true
    }

    func resumeReadSource() {
        guard let readSource else {
            if let descriptorCloser, fd >= 0 {
                makeReadSource(closer: descriptorCloser)
            }
            return
        }
        guard readSourceSuspended else { return }
        readSource.resume()
        readSourceSuspended = false
    }

    func suspendWriteSource() {
        guard let writeSource, !writeSourceSuspended else { return }
        writeSource.suspend()
        writeSourceSuspended = true
    }

    /// Makes the write source on first use, after the read source: on Linux, libdispatch keeps one
    /// epoll registration per descriptor for its sources, and files a read source registered while
    /// the write source is armed with the writers, where it is told of room to write and never of
    /// bytes to read (the queue core, whose read source waits for the first read that must wait,
    /// stalled so; Benchmarks/QUEUE-CORE.md).
    func resumeWriteSource() {
        guard let writeSource else {
            if let descriptorCloser, fd >= 0 {
                if readSource == nil && watchesReadableWithDispatch {
                    makeReadSource(closer: descriptorCloser)
                }
                makeWriteSource(closer: descriptorCloser)
            }
            return
        }
        guard writeSourceSuspended else { return }
        writeSource.resume()
        writeSourceSuspended = false
    }

    private func readSourceFired() {
        guard let readSource else { return }
        let estimate = Int(clamping: readSource.data)
        readableHint = estimate > 0
        engine.noteAvailableEstimate(estimate)
        if !readableHint {
            // libdispatch measures an event's bytes after epoll reports them, so a read pass running
            // meanwhile may already have taken them: a zero estimate is the end (or a reset) only
            // when the descriptor says so; with nothing there the event is stale, and the source
            // fires again when bytes come.
            switch SocketOps.readiness(fd) {
            case .nothing: return
            case .bytes: readableHint = true
            case .endOrError: break
            }
        }
        descriptorReadable()
    }

    /// The descriptor can be read (`readableHint`: bytes wait; otherwise its end or an error): the
    /// handshake goes on, or a read pass runs, or the end is met. The read source's handler calls it,
    /// and the queue core's loop when it sees the descriptor readable (QueueCoreReadWatch.swift).
    func descriptorReadable() {
        if tlsHandshaking {
            continueHandshake()
        } else if readableHint {
            doReadData()
        } else {
            readSourceMetEnd()
        }
    }

    /// The write source fires once per resume: it is resumed again whenever a write waits.
    private func writeSourceFired() {
        suspendWriteSource()
        transportWritable()
    }

    // MARK: Reads

    /// Runs read passes. A completion dequeues the next read at once (GCD), which would run its
    /// pass inside this one: with thousands of reads queued and their bytes already read ahead,
    /// that recursion overflowed a dispatch thread's stack. A pass asked for while one runs is run
    /// by the outer call instead, right after the current one returns (nothing follows the nested
    /// calls, so the order is the same).
    func doReadData() {
        guard !inReadPass else {
            readPassRequested = true
            return
        }
        inReadPass = true
        defer { inReadPass = false }
        repeat {
            readPassRequested = false
            readPass()
        } while readPassRequested
    }

    package var peerEndNoticed: Bool { endNoticedWithoutRead }

    /// The read source met the peer's end.
    func doReadEOF() {
        engine.noteTransportEnded()
        peerEnded()
    }

    // MARK: Timers

    /// Arms `timer` (made on first use) to fire once after `seconds`.
    func armDispatchTimer(
        _ timer: (any DispatchSourceTimer)?, after seconds: TimeInterval, _ fired: @escaping (QueueSocket) -> Void
    ) -> any DispatchSourceTimer {
        let timer = timer ?? makeTimer(fired)
        timer.schedule(deadline: .now() + max(0, seconds), repeating: .never)
        return timer
    }

    private func makeTimer(_ fired: @escaping (QueueSocket) -> Void) -> any DispatchSourceTimer {
        let timer = DispatchSource.makeTimerSource(queue: socketQueue)
        let handler = TimerHandler(fired)
        timer.setEventHandler { [weak self] in
            if let self { onSocketQueue { handler.fired(self) } }
        }
        timer.schedule(deadline: .distantFuture)
        timer.activate()
        return timer
    }

    func disarm(_ timer: (any DispatchSourceTimer)?) {
        timer?.schedule(deadline: .distantFuture)
    }

    // MARK: ByteTransport

    package func read(into buffer: UnsafeMutableRawBufferPointer) -> TransportReadResult {
        let result = DescriptorTransport.read(fd, into: buffer)
        if let handles = metricHandles, case .bytes(let count) = result {
            handles.bytesRead.increment(by: count)
        }
        return result
    }

    package func write(_ bytes: UnsafeRawBufferPointer) -> TransportWriteResult {
        let result = gather.isAccounting ? gather.take(upTo: bytes.count) : DescriptorTransport.write(fd, bytes)
        if let handles = metricHandles, case .bytes(let count) = result {
            handles.bytesWritten.increment(by: count)
        }
        return result
    }

}

/// A read request handed to the socket queue (its caller buffer is used only there).
struct SendableRequest: @unchecked Sendable {
    let request: ReadRequest
}

/// A timer's action (touched only on the socket queue).
final class TimerHandler: @unchecked Sendable {
    let fired: (QueueSocket) -> Void
    init(_ fired: @escaping (QueueSocket) -> Void) {
        self.fired = fired
    }
}
