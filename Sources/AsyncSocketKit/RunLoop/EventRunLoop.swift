import AsyncSocketCore
import CAsyncSocketShims
import CLibevent
import DequeModule
import Foundation
import Logging
import Synchronization

/// A per-thread run loop on libevent, playing the role `NSRunLoop`/`CFRunLoop` played for the
/// original `AsyncSocket`.
///
/// Each thread has one loop (``current``, created lazily); ``main`` is the main thread's. A loop owns
/// timers (``addTimer(after:repeating:modes:_:)``), file-descriptor sources
/// (``addFileSource(_:modes:_:)``) and blocks queued with ``perform(inModes:_:)``, each registered in a
/// set of ``RunLoopMode``s and serviced only while the loop runs in one of them. Nothing is lost while
/// the loop runs in another mode: a file descriptor stays level-triggered and a due timer fires as soon
/// as a matching mode runs.
///
/// A callback may run the loop again, in another mode or in the same one (a nested, "modal" run);
/// ``stop()`` ends the innermost run.
///
/// Only ``perform(inModes:_:)``, ``stop()`` and ``description`` may be used from other threads. Every
/// other call made on a thread that does not own the loop stops the program with a message naming the
/// call and both threads.
public final class EventRunLoop: @unchecked Sendable, CustomStringConvertible {
    // @unchecked Sendable: all state is touched on the owner thread (checked), except the inbox
    // that `perform` and `stop` fill from other threads, which is behind a `Lock`.
    /// Why ``run(mode:before:)`` returned (the values of `CFRunLoopRunInMode`'s results).
    public enum RunResult: Int, Sendable {
        /// The mode had nothing to wait for: no sources, no timers, no queued blocks (or it was ``RunLoopMode/common``).
        case finished = 1
        /// ``stop()`` was called.
        case stopped = 2
        /// The deadline passed.
        case timedOut = 3
        /// A source, a timer or a queued block was handled.
        case handledSource = 4
    }

    let ownerThread: pthread_t
    let ownerThreadID: Int32
    private let wakeFileDescriptor: Int32
    private let inbox = Lock(LoopInbox())
    /// Set by other threads after they change the inbox; lets the loop skip the lock when idle.
    private let attention = Atomic<Bool>(false)
    private var spareInboxItems: [PerformItem] = []
    private var contexts: [RunLoopMode: ModeContext] = [:]
    private var common: Set<RunLoopMode> = [.default]
    // What every pass of the loop touches: the queued blocks (`queue`), the items to run before
    // polling (`beforePolling`, and its spare for swapping), the next block's sequence number, the
    // nested runs (`frames`) with their ready registrations, the stop and invalidation flags, and
    // the keep-alive count of worker threads (``EventRunLoopThread``). Only the owner thread touches
    // them, and every access is a whole read, assignment or single mutation that never spans a call
    // out of the loop: no two accesses overlap. Debug builds (the suite, the sanitizer runs) check
    // that at run time; release builds skip the check, which cost a runtime call and a thread-local
    // lookup per access (Benchmarks/PROFILE.md).
    #if DEBUG
        private var queue = Deque<QueuedPerform>()
        private var beforePolling: [PerformItem] = []
        private var spareBeforePolling: [PerformItem] = []
        private var nextSequence: UInt64 = 0
        private var frames: [ModeContext] = []
        private var readyLists: [[EventRegistration]] = []
        private var pendingStop = false
        private var isInvalidated = false
        private var keepAliveCount = 0
    #else
        @exclusivity(unchecked) private var queue = Deque<QueuedPerform>()
        @exclusivity(unchecked) private var beforePolling: [PerformItem] = []
        @exclusivity(unchecked) private var spareBeforePolling: [PerformItem] = []
        @exclusivity(unchecked) private var nextSequence: UInt64 = 0
        @exclusivity(unchecked) private var frames: [ModeContext] = []
        @exclusivity(unchecked) private var readyLists: [[EventRegistration]] = []
        @exclusivity(unchecked) private var pendingStop = false
        @exclusivity(unchecked) private var isInvalidated = false
        @exclusivity(unchecked) private var keepAliveCount = 0
    #endif
    private var timerSequence: UInt64 = 0
    var fileSources: [ObjectIdentifier: RunLoopFileSource] = [:]
    var timers: [ObjectIdentifier: RunLoopTimer] = [:]
    /// Read by the libevent log callback on this loop's thread (see LibeventLog.swift).
    private(set) var libeventLogger: Logger?

    init(ownerThread: pthread_t, ownerThreadID: Int32) {
        Self.configureLibevent
        self.ownerThread = ownerThread
        self.ownerThreadID = ownerThreadID
        let fd = ask_eventfd_create()
        guard fd >= 0 else {
            fatalError("EventRunLoop: eventfd failed: \(String(cString: strerror(ask_errno())))")
        }
        wakeFileDescriptor = fd
    }

    deinit {
        if !isInvalidated {
            invalidate()
        }
    }

    private static let configureLibevent: Void = {
        // Only libevent's global structures (evdns among them) take these locks; each base is
        // created with EVENT_BASE_FLAG_NOLOCK because it is confined to its loop's thread.
        _ = evthread_use_pthreads()
        LibeventLog.install()
    }()

    // MARK: Finding loops

    /// The calling thread's loop, created on first use.
    public static var current: EventRunLoop {
        if let stored = pthread_getspecific(LoopThreadStorage.key) {
            return Unmanaged<EventRunLoop>.fromOpaque(stored).takeUnretainedValue()
        }
        let loop: EventRunLoop
        if ask_is_main_thread() != 0 {
            loop = main
        } else {
            loop = EventRunLoop(ownerThread: pthread_self(), ownerThreadID: ask_gettid())
        }
        pthread_setspecific(LoopThreadStorage.key, Unmanaged.passRetained(loop).toOpaque())
        return loop
    }

    /// The main thread's loop. It may be fetched from any thread, but runs and registers only on the
    /// main thread.
    public static var main: EventRunLoop {
        mainLoop.withLock { stored in
            if let stored { return stored }
            let loop = EventRunLoop(ownerThread: ask_main_pthread(), ownerThreadID: getpid())
            stored = loop
            return loop
        }
    }

    private static let mainLoop = Lock<EventRunLoop?>(nil)

    /// Whether the calling thread owns this loop.
    public var isCurrent: Bool { pthread_equal(pthread_self(), ownerThread) != 0 }

    /// One line naming the owning thread.
    public var description: String {
        "<EventRunLoop thread \(ownerThreadID)>"
    }

    // MARK: Logging

    /// Where libevent's own messages go while it works on this loop's thread (for example evdns's
    /// "Nameserver … has failed" on a ``HostResolver``'s thread), at the matching level: libevent's
    /// debug, message, warning and error severities become `.debug`, `.info`, `.warning` and
    /// `.error`, with the metadata `source: libevent`. `nil` (the default) drops them; nothing is
    /// ever written to stderr.
    public var logger: Logger? {
        get {
            checkThread("logger")
            return libeventLogger
        }
        set {
            checkThread("logger")
            libeventLogger = newValue
        }
    }

    // MARK: Modes

    /// The modes ``RunLoopMode/common`` stands for; initially `[.default]`.
    public var commonModes: Set<RunLoopMode> {
        checkThread("commonModes")
        return common
    }

    /// Adds `mode` to the common modes: everything registered in ``RunLoopMode/common`` starts being
    /// serviced in `mode` too. Adding ``RunLoopMode/common`` itself or a mode already common does nothing.
    public func addCommonMode(_ mode: RunLoopMode) {
        checkThread("addCommonMode(_:)")
        guard mode != .common, !common.contains(mode) else { return }
        common.insert(mode)
        for source in fileSources.values where source.modes.contains(.common) {
            source.updateRegistrations()
        }
        for timer in timers.values where timer.modes.contains(.common) {
            timer.updateRegistrations()
        }
    }

    /// The mode of the innermost run in progress, or `nil` when the loop is not running.
    public var currentMode: RunLoopMode? {
        checkThread("currentMode")
        return frames.last?.mode
    }

    /// The concrete modes `modes` stands for: ``RunLoopMode/common`` expanded, duplicates removed.
    func effectiveModes(_ modes: [RunLoopMode]) -> [RunLoopMode] {
        var result: [RunLoopMode] = []
        for mode in modes {
            if mode == .common {
                for commonMode in common.sorted(by: { $0.rawValue < $1.rawValue })
                where !result.contains(commonMode) {
                    result.append(commonMode)
                }
            } else if !result.contains(mode) {
                result.append(mode)
            }
        }
        return result
    }

    func matches(_ modes: [RunLoopMode], _ mode: RunLoopMode) -> Bool {
        if modes.count == 1, modes[0].rawValue == mode.rawValue {
            return true
        }
        for candidate in modes {
            if candidate == mode || (candidate == .common && common.contains(mode)) {
                return true
            }
        }
        return false
    }

    func nextTimerSequence() -> UInt64 {
        timerSequence &+= 1
        return timerSequence
    }

    func context(for mode: RunLoopMode) -> ModeContext {
        if let context = contexts[mode] {
            return context
        }
        let context = ModeContext(mode: mode, loop: self, wakeFileDescriptor: wakeFileDescriptor)
        contexts[mode] = context
        return context
    }

    // MARK: Running

    /// Runs the loop in ``RunLoopMode/default`` until ``stop()`` is called or nothing is left to wait
    /// for (`CFRunLoopRun`).
    public func run() {
        checkThread("run()")
        while true {
            let result = runMode(.default, deadline: .max, returnAfterSourceHandled: false)
            if result == .stopped || result == .finished {
                return
            }
        }
    }

    /// Runs the loop once in `mode`: until a source, timer or block is handled, the deadline passes,
    /// ``stop()`` is called, or the mode has nothing to wait for. After running queued blocks it still
    /// polls descriptors and timers once, without waiting, and serves what is ready before it returns
    /// (as `CFRunLoopRunInMode` polls after a handled source): when the blocks run out, or after 1,024
    /// passes of blocks that keep queueing blocks, so a caller that drives the loop this way is not
    /// starved by them.
    ///
    /// A deadline in the past polls once without waiting. Running ``RunLoopMode/common`` returns
    /// ``RunResult/finished`` at once, as `CFRunLoopRunInMode` does. Unlike CoreFoundation, a timer
    /// that fires counts as a handled source.
    @discardableResult
    public func run(mode: RunLoopMode = .default, before deadline: Date) -> RunResult {
        checkThread("run(mode:before:)")
        return runMode(mode, deadline: Self.monotonicDeadline(deadline), returnAfterSourceHandled: true)
    }

    /// Runs the loop once in `mode` for at most `seconds`; see ``run(mode:before:)``.
    @discardableResult
    public func run(mode: RunLoopMode = .default, timeout seconds: TimeInterval) -> RunResult {
        checkThread("run(mode:timeout:)")
        return runMode(
            mode, deadline: Self.monotonicDeadline(seconds: seconds), returnAfterSourceHandled: true)
    }

    /// Runs the loop in ``RunLoopMode/default`` until `date` (`runUntilDate:`), also while the mode is
    /// empty: then it sleeps, still woken by ``perform(inModes:_:)`` from other threads, so a port's
    /// `[[NSRunLoop currentRunLoop] runUntilDate:…]` waits as long as it did. ``stop()`` ends it early.
    public func run(until date: Date) {
        checkThread("run(until:)")
        _ = runMode(
            .default, deadline: Self.monotonicDeadline(date), returnAfterSourceHandled: false, waitsWhenEmpty: true)
    }

    /// Makes the innermost run in progress return ``RunResult/stopped``; when the loop is not running,
    /// the next run returns at once (`CFRunLoopStop`). Callable from any thread.
    public func stop() {
        if isCurrent {
            pendingStop = true
            return
        }
        post { $0.stopRequested = true }
    }

    static func monotonicDeadline(_ date: Date) -> UInt64 {
        monotonicDeadline(seconds: date.timeIntervalSinceNow)
    }

    static func monotonicDeadline(seconds: TimeInterval) -> UInt64 {
        guard seconds.isFinite, seconds < 1e9 else { return .max }
        return ask_monotonic_ns() &+ UInt64((max(0, seconds) * 1e9).rounded(.up))
    }

    /// Runs `mode` until a handled source (when `returnAfterSourceHandled`), the deadline, a stop, or
    /// an empty mode — unless `waitsWhenEmpty`, when an empty mode sleeps until the deadline.
    func runMode(
        _ mode: RunLoopMode, deadline: UInt64, returnAfterSourceHandled: Bool, waitsWhenEmpty: Bool = false
    ) -> RunResult {
        guard mode != .common, !isInvalidated else { return .finished }
        if takeStopRequest() {
            return .stopped
        }
        let context = self.context(for: mode)
        if !waitsWhenEmpty && isEmpty(context) {
            return .finished
        }
        let depth = frames.count
        frames.append(context)
        if readyLists.count <= depth {
            readyLists.append([])
        }
        defer { frames.removeLast() }
        var passesSincePoll = 0
        var lastPoll = ask_monotonic_ns()
        while true {
            var handled = runQueuedBlocks(in: context)
            if takeStopRequest() {
                return .stopped
            }
            if handled, passesSincePoll < Self.passesBetweenPolls, hasQueuedBlocks(for: context) {
                // A run that returns after a handled source counts passes only: its caller sees the
                // same order of callbacks however long the passes take.
                let now = ask_monotonic_ns()
                if now < deadline, returnAfterSourceHandled || now &- lastPoll < Self.nanosecondsBetweenPolls {
                    passesSincePoll += 1
                    continue
                }
            }
            passesSincePoll = 0
            if runBeforePollingItems(in: context) {
                handled = true
                if takeStopRequest() {
                    return .stopped
                }
            }
            // A run that returns after a handled block still polls once, without waiting, when the
            // blocks run out or after `passesBetweenPolls` passes of them, and serves what is ready
            // before it returns, as CFRunLoopRunInMode polls its ports after a handled source0: a caller
            // that runs the loop one handled source at a time while blocks keep queueing blocks still
            // has its descriptors and timers served.
            let returnsAfterPolling = handled && returnAfterSourceHandled
            // A block or before-polling item may have removed the mode's last source or timer (a
            // socket's close delivered by perform): polling now would wait for nothing.
            if !waitsWhenEmpty && isEmpty(context) {
                return returnsAfterPolling ? .handledSource : .finished
            }
            let wakeAt = min(deadline, context.nextTimerDeadline)
            // The emptiness check took in what other threads posted: a stop among it must not sleep.
            var blocking =
                !returnsAfterPolling && ask_monotonic_ns() < wakeAt && !hasQueuedBlocks(for: context) && !pendingStop
            if blocking {
                blocking = prepareToSleep()
            }
            let timerLimit = timerSequence &+ 1
            context.poll(blocking: blocking, wakeAt: wakeAt)
            lastPoll = ask_monotonic_ns()
            if blocking {
                inbox.withLock {
                    $0.isSleeping = false
                    $0.wakePosted = false
                }
            }
            handled = context.fireDueTimers(sequenceLimit: timerLimit) || handled
            handled = dispatchReady(depth: depth) || handled
            if takeStopRequest() {
                return .stopped
            }
            if handled && returnAfterSourceHandled {
                return .handledSource
            }
            if ask_monotonic_ns() >= deadline {
                return .timedOut
            }
            if !waitsWhenEmpty && isEmpty(context) {
                return .finished
            }
        }
    }

    /// The polling budget of a busy loop. While queued blocks keep coming, passes of them (each one
    /// the blocks queued before it began, FIFO) run back to back, and descriptors and timers are
    /// polled, without waiting, after at most this many passes or this much time since the last poll,
    /// whichever comes first. So a timer or a ready descriptor waits at most ~200 µs (plus one pass)
    /// behind a socket that keeps scheduling work. The writes a pass gathers go out before the loop
    /// polls, so the budget also decides how many echoed lines share one send: a budget of 16 passes
    /// sent one per ~17 lines, and waking the peer for each cost a third of a line echo's time
    /// (Benchmarks/PROFILE.md). In `run()` the time decides; the count only bounds a run of empty
    /// passes. A run that returns after a handled source (`run(mode:before:)`) uses the count alone.
    package static let passesBetweenPolls = 1024
    static let nanosecondsBetweenPolls: UInt64 = 200_000

    /// Whether the mode holds nothing: no source or timer, no worker keep-alive, no block queued for it
    /// (what other threads posted included). The cheap counts come first: a busy loop asks every pass.
    private func isEmpty(_ context: ModeContext) -> Bool {
        guard context.registeredCount == 0, keepAliveCount == 0 else { return false }
        absorbInbox()
        return !hasQueuedBlocks(for: context)
    }

    /// Called by a registration's libevent callback while its base polls.
    func collectReady(_ registration: EventRegistration) {
        readyLists[frames.count - 1].append(registration)
    }

    private func dispatchReady(depth: Int) -> Bool {
        var handled = false
        var index = 0
        while index < readyLists[depth].count {
            let registration = readyLists[depth][index]
            index += 1
            if dispatch(registration) {
                handled = true
            }
        }
        readyLists[depth].removeAll(keepingCapacity: true)
        return handled
    }

    private func dispatch(_ registration: EventRegistration) -> Bool {
        guard registration.isLive, let source = registration.fileSource, let handler = source.handler else {
            return false
        }
        switch registration.kind {
        case .readable:
            guard source.wantsReadable else { return false }
            handler(.readable)
        case .writable:
            guard source.wantsWritable else { return false }
            handler(.writable)
        case .peerClosed:
            guard source.wantsPeerClose else { return false }
            handler(.peerClosed)
        }
        return true
    }

    // MARK: Queued blocks

    /// Queues `block` to run on this loop's thread the next time the loop runs in one of `modes`
    /// (FIFO). Callable from any thread; wakes a sleeping loop at once. Blocks queued to a loop whose
    /// thread has ended are dropped.
    public func perform(inModes modes: [RunLoopMode] = [.common], _ block: @escaping @Sendable () -> Void) {
        let item = PerformItem(modes: modes, action: block)
        if isCurrent {
            schedule(item)
        } else {
            post { $0.items.append(item) }
        }
    }

    /// Queues `block` from another thread like ``perform(inModes:_:)``; `false` (dropped) when the
    /// loop's thread has ended, whose sources and timers are then already gone.
    func performFromAnotherThread(inModes modes: [RunLoopMode], _ block: @escaping @Sendable () -> Void) -> Bool {
        let item = PerformItem(modes: modes, action: block)
        return post { $0.items.append(item) }
    }

    /// Queues `block` from the loop's own thread, like ``perform(inModes:_:)`` but without requiring a
    /// `Sendable` block, since it never leaves the thread (`performSelector:afterDelay:0` in ported
    /// code). Calling it from another thread stops the program.
    public func enqueue(inModes modes: [RunLoopMode] = [.common], _ block: @escaping () -> Void) {
        checkThread("enqueue(inModes:_:)")
        schedule(PerformItem(modes: modes, action: block))
    }

    /// Queues `item` from the loop's own thread; an item already queued keeps its place.
    func schedule(_ item: PerformItem) {
        guard !item.isScheduled else { return }
        absorbInbox()
        enqueue(item)
    }

    /// Takes a queued item out; it will not run unless scheduled again.
    func cancel(_ item: PerformItem) {
        guard item.isScheduled else { return }
        item.isScheduled = false
        item.generation &+= 1
    }

    private func enqueue(_ item: PerformItem) {
        item.isScheduled = true
        item.generation &+= 1
        queue.append(QueuedPerform(item: item, generation: item.generation, sequence: nextSequence))
        nextSequence &+= 1
    }

    /// Applies `change` to the inbox and wakes the loop; `false` (nothing changed) once the loop's
    /// thread has ended.
    @discardableResult
    private func post(_ change: (inout LoopInbox) -> Void) -> Bool {
        let (accepted, wake) = inbox.withLock { state -> (Bool, Bool) in
            guard !state.isInvalidated else { return (false, false) }
            change(&state)
            guard state.isSleeping, !state.wakePosted else { return (true, false) }
            state.wakePosted = true
            return (true, true)
        }
        attention.store(true, ordering: .releasing)
        if wake {
            ask_eventfd_signal(wakeFileDescriptor)
        }
        return accepted
    }

    /// Moves what other threads posted into the loop's own queue and flags.
    private func absorbInbox() {
        guard attention.exchange(false, ordering: .acquiringAndReleasing) else { return }
        let stop = inbox.withLock { state -> Bool in
            swap(&state.items, &spareInboxItems)
            let stop = state.stopRequested
            state.stopRequested = false
            return stop
        }
        if stop {
            pendingStop = true
        }
        for item in spareInboxItems {
            enqueue(item)
        }
        spareInboxItems.removeAll(keepingCapacity: true)
    }

    private func takeStopRequest() -> Bool {
        absorbInbox()
        guard pendingStop else { return false }
        pendingStop = false
        return true
    }

    /// Marks the loop asleep unless something arrived meanwhile (then it must poll without waiting).
    private func prepareToSleep() -> Bool {
        inbox.withLock { state in
            if !state.items.isEmpty || state.stopRequested {
                return false
            }
            state.isSleeping = true
            return true
        }
    }

    /// Runs `item` once, the next time the loop, running in one of the item's modes, is about to poll
    /// for descriptors and timers (whether it will wait or not): CFRunLoop's "before waiting"
    /// observers. A socket flushes the writes it gathered during the passes before. Scheduling an
    /// item already waiting does nothing; ``cancel(_:)`` takes it out.
    func runBeforePolling(_ item: PerformItem) {
        guard !item.isScheduled else { return }
        item.isScheduled = true
        beforePolling.append(item)
    }

    /// Runs the before-polling items of this mode (a nested run inside one sees the rest too).
    private func runBeforePollingItems(in context: ModeContext) -> Bool {
        guard !beforePolling.isEmpty else { return false }
        swap(&beforePolling, &spareBeforePolling)
        var handled = false
        for item in spareBeforePolling where item.isScheduled {
            guard matches(item.modes, context.mode) else {
                beforePolling.append(item)
                continue
            }
            item.isScheduled = false
            item.action()
            handled = true
        }
        spareBeforePolling.removeAll(keepingCapacity: true)
        return handled
    }

    private func hasQueuedBlocks(for context: ModeContext) -> Bool {
        queue.contains { $0.isCurrent && matches($0.item.modes, context.mode) }
    }

    /// Runs, in FIFO order, the blocks for this mode that were queued before the pass began; blocks
    /// queued meanwhile wait for the next pass, as CoreFoundation does.
    private func runQueuedBlocks(in context: ModeContext) -> Bool {
        absorbInbox()
        let limit = nextSequence
        var handled = false
        var skipped: [QueuedPerform] = []
        while !queue.isEmpty, queue[queue.startIndex].sequence < limit {
            let entry = queue.removeFirst()
            guard entry.isCurrent else { continue }
            guard matches(entry.item.modes, context.mode) else {
                skipped.append(entry)
                continue
            }
            entry.item.isScheduled = false
            entry.item.action()
            handled = true
        }
        if !skipped.isEmpty {
            queue.prepend(contentsOf: skipped)
        }
        return handled
    }

    // MARK: Worker threads and shutdown

    func retainForWorker() {
        keepAliveCount += 1
    }

    /// Asks a worker loop to end its thread (see ``EventRunLoopThread``).
    func requestTermination() {
        post {
            $0.terminateRequested = true
            $0.stopRequested = true
        }
    }

    var isTerminationRequested: Bool {
        inbox.withLock { $0.terminateRequested }
    }

    /// Frees every libevent object and file descriptor of the loop; blocks queued later are dropped.
    /// Runs on the owning thread when it exits, or in `deinit`.
    func invalidate() {
        guard !isInvalidated else { return }
        isInvalidated = true
        inbox.withLock {
            $0.isInvalidated = true
            $0.items.removeAll()
        }
        for source in Array(fileSources.values) {
            source.cancel()
        }
        for timer in Array(timers.values) {
            timer.invalidate()
        }
        queue.removeAll()
        beforePolling.removeAll()
        for context in contexts.values {
            context.invalidate()
        }
        contexts.removeAll()
        close(wakeFileDescriptor)
    }

    // MARK: Thread affinity

    @inline(__always)
    func checkThread(_ call: StaticString) {
        if pthread_equal(pthread_self(), ownerThread) == 0 {
            threadViolation(call)
        }
    }

    private func threadViolation(_ call: StaticString) -> Never {
        let caller = ThreadDescription.current()
        let owner = ThreadDescription(thread: ownerThread, threadID: ownerThreadID)
        fatalError(
            "EventRunLoop.\(call) called on thread \(caller), but this loop belongs to thread \(owner); "
                + "only perform(inModes:_:) and stop() may be used from other threads")
    }
}
