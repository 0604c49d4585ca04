import Foundation

// The engine a driver holds: one `EngineCore` value (EngineCore.swift, where every decision is) in a
// class, so the socket and its passes share it. Each call below is one access to that value, checked
// for exclusivity at run time once; inside, the core works on itself inout, checked at compile time.
// Reached field by field on a class, the same work cost a run-time check per field, about a quarter
// of a line echo's time (Benchmarks/PROFILE.md).
package final class SocketEngine {
    /// Per-socket settings.
    package struct Configuration {
        /// Reads to a separator read ahead into the prebuffer (the legacy default); when off they never
        /// take a byte past the separator, leaving the rest in the transport.
        package var prebuffering: Bool
        /// Bytes asked of the transport at once when reading ahead into the prebuffer (reads of what
        /// is available size themselves, see `EngineCore.availableReadSize`).
        package var readChunk: Int
        /// A read of what is available, when the transport has said how many bytes it holds
        /// (`EngineCore.noteAvailableEstimate`), takes that many (at most 1 MiB, the rest left for
        /// the next read) in one step and completes; once the estimate is used up the transport
        /// counts as drained until it reports bytes again. GCDAsyncSocket reads its read source's
        /// estimate and then waits for the source. Without an estimate, or off (the legacy rule), a
        /// read of what is available reads until the transport has no more.
        package var availableReadsTakeEstimate: Bool
        /// The most bytes a read to a separator may hold before its separator comes (0: no limit): a
        /// read queued with no `maxLength`, or a larger one, gets this one (at least the separator's
        /// length), so a peer that never sends the separator ends in a max-out close instead of
        /// unbounded memory (beyond the originals).
        package var maxPrebufferSize: Int

        package init(
            prebuffering: Bool = true, readChunk: Int = 64 * 1024, availableReadsTakeEstimate: Bool = false,
            maxPrebufferSize: Int = 0
        ) {
            self.prebuffering = prebuffering
            self.readChunk = readChunk
            self.availableReadsTakeEstimate = availableReadsTakeEstimate
            self.maxPrebufferSize = maxPrebufferSize
        }
    }

    /// The engine's value; faces call the methods below (the pass runners reach it directly).
    ///
    /// Every access is one method call on it, and no method calls out while it runs except the pass
    /// runners, whose transports only move bytes and never reach this engine: no two accesses ever
    /// overlap. Debug builds (the test suite, the sanitizer runs) check that at run time; release
    /// builds skip the check, which cost one runtime call and a thread-local lookup per call.
    #if DEBUG
        package var core: EngineCore
    #else
        @exclusivity(unchecked) package var core: EngineCore
    #endif

    package init(configuration: Configuration = Configuration()) {
        core = EngineCore(configuration: configuration)
    }

    package var configuration: Configuration {
        get { core.configuration }
        set { core.configuration = newValue }
    }

    // MARK: Queues

    /// Queues a read; returns why it was ignored, or `nil` when it was queued.
    package func enqueueRead(_ request: ReadRequest) -> String? { core.enqueueRead(request) }

    /// Queues a write of `data` (kept, not copied); returns why it was ignored, or `nil`.
    package func enqueueWrite(_ data: Data, timeout: TimeInterval, tag: Int) -> String? {
        core.enqueueWrite(data, timeout: timeout, tag: tag)
    }

    /// Queues a TLS marker (`startTLS`) in both queues; returns why it was ignored, or `nil`. Legacy
    /// queues one for every call, even after disconnectAfter…; GCD accepts one per connection, and
    /// none once reads and writes are forbidden.
    package func enqueueTLS(settings: Any, semantics: Semantics) -> String? {
        core.enqueueTLS(settings: settings, semantics: semantics)
    }

    /// Queued and current items, for `description` and `canSafelySetDelegate`.
    package var queuedReadCount: Int { core.queuedReadCount }
    package var queuedWriteCount: Int { core.queuedWriteCount }
    package var isIdle: Bool { core.isIdle }
    package var currentRead: QueuedRead? { core.currentRead }
    package var currentWrite: QueuedWrite? { core.currentWrite }
    /// Whether the current read entry is a read (not a TLS marker); cheaper than matching
    /// ``currentRead``, which copies the entry out.
    package var readIsCurrent: Bool { core.readIsCurrent }
    /// Whether the current write entry is a write (not a TLS marker).
    package var writeIsCurrent: Bool { core.writeIsCurrent }
    /// Whether any write entry (a write or a TLS marker) is current.
    package var hasCurrentWrite: Bool { core.currentWrite != nil }
    /// The bytes of the current write sent so far.
    package var currentWriteDone: Int { core.writeDone }

    /// Bytes read ahead and not yet taken by a read.
    package var prebufferedCount: Int { core.prebufferedCount }

    // MARK: Queued bytes and watermarks (EngineCore+Watermarks.swift)

    /// The bytes of the queued, gathered and current writes not sent yet.
    package var queuedWriteBytes: Int { core.queuedWriteBytes }
    /// What the socket holds now (bytes and entries of both queues, the prebuffer).
    package var queueSizes: QueueSizes { core.queueSizes }
    /// Whether the queued write bytes are within the watermarks (always, with none set).
    package var isWritable: Bool { core.isWritable }
    /// The watermarks set, if any.
    package var writeWatermarks: WriteMarks? { core.writeWatermarks }

    /// Sets (or removes) the write watermarks; re-decides ``isWritable`` without a report.
    package func setWriteWatermarks(_ marks: WriteMarks?) { core.setWriteWatermarks(marks) }

    /// Whether the write queue drained to the low watermark since the last call (reported once).
    package func takeDrainedToLowWatermark() -> Bool { core.takeDrainedToLowWatermark() }

    // MARK: Flags

    package var disconnectsAfterReading: Bool { core.disconnectsAfterReading }
    package var disconnectsAfterWriting: Bool { core.disconnectsAfterWriting }
    /// The transport reported the end of the peer's data.
    package var transportEnded: Bool { core.transportEnded }
    /// Bytes examined by separator searches (for the linear-cost benchmark).
    package var scannedBytes: Int { core.scannedBytes }

    // MARK: Disconnect-after rules

    /// Forbids further reads and writes and sets the after-flags; returns whether the condition
    /// already holds (the face then disconnects on a later pass, never inline).
    package func disconnectAfter(reading: Bool, writing: Bool) -> Bool {
        core.disconnectAfter(reading: reading, writing: writing)
    }

    /// Whether the after-flags ask for a disconnect now.
    package var disconnectConditionHolds: Bool { core.disconnectConditionHolds }

    /// Whether a write dequeue now could do anything (see `EngineCore`).
    package var writeDequeueMayAct: Bool { core.writeDequeueMayAct }

    // MARK: Dequeues and follow-ups (Rules/PassFollowUp.swift)

    /// Makes the next queued read current; `peerEnded`: the face knows the peer's data has ended.
    package func nextRead(peerEnded: Bool) -> DequeueStep { core.nextRead(peerEnded: peerEnded) }

    /// Makes the next queued write current.
    package func nextWrite() -> DequeueStep { core.nextWrite() }

    /// What follows a read pass's `result` (asked after its callbacks were delivered).
    package func followUp(after result: ReadPassResult, peerEnded: Bool = false) -> ReadFollowUp {
        core.followUp(after: result, peerEnded: peerEnded)
    }

    /// What follows a write pass's `result` (asked after its callbacks were delivered).
    package func followUp(after result: WritePassResult) -> WriteFollowUp { core.followUp(after: result) }

    /// The end-of-stream facts the engine knows; the face adds what only it knows.
    package func endOfStreamFacts(
        transportReadToEnd: Bool, callbacksInFlight: Bool = false, autoDisconnect: Bool = true,
        readStreamReported: Bool = false
    ) -> EndOfStreamFacts {
        core.endOfStreamFacts(
            transportReadToEnd: transportReadToEnd, callbacksInFlight: callbacksInFlight,
            autoDisconnect: autoDisconnect, readStreamReported: readStreamReported)
    }

    // MARK: Passes

    /// Records how many bytes the transport says it holds, for the next read pass (see
    /// `Configuration.availableReadsTakeEstimate`).
    package func noteAvailableEstimate(_ bytes: Int) { core.noteAvailableEstimate(bytes) }

    /// Records that the transport reached its end while no read was asking for bytes.
    package func noteTransportEnded() { core.noteTransportEnded() }

    /// Starts a write pass step by step (the tests drive one so; drivers run `runWritePass(transportWritable:transport:)`).
    package func beginWritePass(transportWritable: Bool) { core.beginWritePass(transportWritable: transportWritable) }

    /// The next step of the current write pass.
    package func nextWriteStep() -> WriteStep { core.nextWriteStep() }

    /// Reports what the transport did with the last `.write` step.
    package func transportWrote(_ result: TransportWriteResult) { core.transportWrote(result) }

    // MARK: Gathered writes (EngineCore+Gather.swift)

    /// How many writes are gathered behind the current one.
    package var gatheredCount: Int { core.gatheredCount }

    /// Whether the next queued entry is a plain write (one a gathered flush would take).
    package var nextQueuedIsWrite: Bool { core.nextQueuedIsWrite }

    /// The gathered write at `index` (0: the one right behind the current write).
    package func gatheredWrite(at index: Int) -> WriteItem { core.gatheredWrite(at: index) }

    /// Moves writes queued behind the current plain write into its batch, within `itemLimit` writes
    /// and `byteLimit` unsent bytes; returns the batch's unsent bytes (0: the current entry is not a
    /// plain write).
    @discardableResult
    package func gatherQueuedWrites(byteLimit: Int, itemLimit: Int) -> Int {
        core.gatherQueuedWrites(byteLimit: byteLimit, itemLimit: itemLimit)
    }

    // MARK: Progress and timeouts

    /// The current read's progress; NaN and zeros when idle or at a TLS marker.
    package var readProgress: TransferProgress { core.readProgress }
    /// The current write's progress; NaN and zeros when idle or at a TLS marker.
    package var writeProgress: TransferProgress { core.writeProgress }
    /// What to ask the delegate when the current read's timer fires.
    package var readTimeoutQuery: TimeoutQuery? { core.readTimeoutQuery }
    /// What to ask the delegate when the current write's timer fires.
    package var writeTimeoutQuery: TimeoutQuery? { core.writeTimeoutQuery }

    /// Applies the delegate's answer: a positive extension is added to the stored timeout and
    /// returned (re-arm a timer of exactly that length); otherwise `nil` (the read times out).
    package func extendReadTimeout(by extensionSeconds: TimeInterval) -> TimeInterval? {
        core.extendReadTimeout(by: extensionSeconds)
    }

    /// The write-side counterpart of ``extendReadTimeout(by:)``.
    package func extendWriteTimeout(by extensionSeconds: TimeInterval) -> TimeInterval? {
        core.extendWriteTimeout(by: extensionSeconds)
    }

    // MARK: TLS markers

    /// Both sides reached the current marker: hands over the marker's settings and the bytes read
    /// ahead (the first ciphertext of the handshake).
    package func beginTLS() -> (settings: Any, prebuffered: Data)? { core.beginTLS() }

    /// The handshake finished: both markers retire.
    package func completeTLS() { core.completeTLS() }

    // MARK: Closing and unread data

    /// Starts an error close: the current read's bytes go in front of the prebuffer and both queues
    /// are emptied, so ``unreadData`` holds everything received and not delivered.
    package func prepareErrorClose() { core.prepareErrorClose() }

    /// Room to read more unread bytes from the transport into (appended after the prebuffer).
    package func unreadSpace() -> UnsafeMutableRawBufferPointer { core.unreadSpace() }

    /// Records `count` bytes read into ``unreadSpace()``.
    package func unreadDidRead(_ count: Int) { core.unreadDidRead(count) }

    /// Everything received and not delivered (see ``prepareErrorClose()``).
    package var unreadData: Data { core.unreadData }

    /// Drops the queues, the current items, the prebuffer and the after-flags; keeps the configuration.
    package func reset() { core.reset() }
}
