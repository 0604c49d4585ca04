import AsyncSocketCore
import CAsyncSocketShims
import Foundation
import Logging

// The native engine of RunLoopSocket: non-blocking descriptors watched by an EventRunLoop, every
// decision about bytes taken by the I/O-free SocketEngine. This file holds the state and the small
// shared helpers; accept, connect, I/O, closing and run-loop changes live in their own files.
//
// Lifetime: while started (connecting, connected or listening) the socket keeps its public object
// alive, so no callback is ever lost because the application let go of it; closing lets go.
final class NativeSocketBackend: LegacySocketBackend, @unchecked Sendable {
    // @unchecked Sendable: touched only on the thread of the socket's loop (the facade checks the
    // thread; work for another loop is carried there by `perform`).
    /// The public object: unowned, never weak (see LegacySocketBackend.owner).
    unowned(unsafe) var owner: RunLoopSocket?
    let engine = SocketEngine()

    var queueSizes: QueueSizes { engine.queueSizes }
    var writeMarks: WriteMarks? {
        get { engine.writeWatermarks }
        set { engine.setWriteWatermarks(newValue) }
    }
    var maxPrebufferSize: Int {
        get { engine.configuration.maxPrebufferSize }
        set { engine.configuration.maxPrebufferSize = newValue }
    }
    /// The resolver for connects by name (`nil`: the system resolver, started on first use).
    let customResolver: HostResolver?
    let logger: Logger?

    // What every pass touches: the public object while started (`retainedOwner`), the loop, the
    // descriptor's source and the transfer timers, the deferred dequeues and flush (made on first use
    // while the socket has a loop; they hold the socket strongly, so no weak load per pass, and
    // ``dropScheduledWork()`` breaks that cycle on every close and move, as the facade's deinit does),
    // the phase, the readiness hints (the transport may have bytes, or room), the generation (bumped
    // by every close, so work started for an earlier connection recognises itself as stale) and TLS
    // over the descriptor. Only the loop's thread touches them, and every access is a whole read or
    // assignment that never spans a call back into the socket: no two accesses overlap. Debug builds
    // (the suite, the sanitizer runs) check that at run time; release builds skip the check, which
    // cost a runtime call and a thread-local lookup per access (Benchmarks/PROFILE.md).
    #if DEBUG
        var retainedOwner: RunLoopSocket?
        var loop: EventRunLoop?
        var source: RunLoopFileSource?
        var readTimer: RunLoopTimer?
        var writeTimer: RunLoopTimer?
        var readDequeue: PerformItem?
        var writeDequeue: PerformItem?
        var flushItem: PerformItem?
        var phase = NativePhase.idle
        var readableHint = false
        var writableHint = false
        var generation = 0
        var tls: TLSTransport?
    #else
        @exclusivity(unchecked) var retainedOwner: RunLoopSocket?
        @exclusivity(unchecked) var loop: EventRunLoop?
        @exclusivity(unchecked) var source: RunLoopFileSource?
        @exclusivity(unchecked) var readTimer: RunLoopTimer?
        @exclusivity(unchecked) var writeTimer: RunLoopTimer?
        @exclusivity(unchecked) var readDequeue: PerformItem?
        @exclusivity(unchecked) var writeDequeue: PerformItem?
        @exclusivity(unchecked) var flushItem: PerformItem?
        @exclusivity(unchecked) var phase = NativePhase.idle
        @exclusivity(unchecked) var readableHint = false
        @exclusivity(unchecked) var writableHint = false
        @exclusivity(unchecked) var generation = 0
        @exclusivity(unchecked) var tls: TLSTransport?
    #endif

    /// Starts as one shared array, so a new socket allocates none for it.
    var modes = NativeSocketBackend.defaultModes
    var reusesPort = false
    private static let defaultModes: [RunLoopMode] = [.default]

    /// The connected (or connecting, by address) descriptor.
    var fd: Int32 = -1
    var listenFD4: Int32 { listening?.fd4 ?? -1 }
    var listenFD6: Int32 { listening?.fd6 ?? -1 }
    var connectTimer: RunLoopTimer?
    var connectDeadline: UInt64?
    var scheduledDisconnect: PerformItem?
    /// Gathered writes and the accounting of a batch sent together (WriteGather.swift).
    let gather = WriteGather()

    var closingWithError = false
    /// The error close is the peer's clean end of stream (a nil error).
    var closingAtEnd = false
    /// Whether this listener has warned that an accepted connection found no delegate.
    var warnedNoDelegate = false
    /// Whether this listener has reported an unexpected accept failure at error level.
    var reportedAcceptFailure = false
    /// The number that names this socket in log lines.
    let logID = SocketLogID.make()
    /// The user's metrics (the sockets this one accepts get them too), and the handles of this socket's
    /// face and engine (SocketMetrics.swift).
    let metricsSource: SocketMetrics?
    let metricHandles: SocketMetricHandles?
    /// Whether the open-connections meter counts this socket now.
    var countedOpen = false
    var isClosingWithError: Bool { closingWithError }
    var peerAddress: SocketAddress?
    /// The host string of a connect by name (for `description` and the TLS peer-name check).
    var connectHost: String?
    var tlsHandshaking = false

    init(resolver: HostResolver?, logger: Logger?, metrics: SocketMetrics?) {
        self.customResolver = resolver
        self.logger = logger
        metricsSource = metrics
        metricHandles = metrics?.handles(face: "RunLoopSocket", engine: "native")
    }

    /// The public object for callbacks (which come only while started): the strong reference, or,
    /// inside the accept sequence before the child is kept, the unowned one (the sequence holds it).
    var callbackOwner: RunLoopSocket? { retainedOwner ?? (started ? owner : nil) }

    var delegate: (any RunLoopSocketDelegate)? { callbackOwner?.delegateForCallbacks }

    // MARK: Scheduling on the socket's loop, in its modes

    /// Schedules one of the socket's items; its modes are always the socket's (setRunLoopModes
    /// updates every item).
    func schedule(_ item: PerformItem) {
        guard let loop else { return }
        assert(loop.isCurrent, "a socket's work is scheduled from its own loop's thread only")
        loop.schedule(item)
    }

    /// Whether the work after a delegate callback goes on here: not when the callback closed the
    /// socket, nor when it moved the socket to another loop. When it does not, the caller hands the
    /// rest of its work to ``carryOver(after:_:)``; the closure is formed only on that path, so a
    /// callback costs no allocation.
    func goesOn(after generation: Int) -> Bool {
        guard generation == self.generation else { return false }
        guard let loop else { return true }
        return loop.isCurrent
    }

    /// After a callback that moved the socket, runs `rest` on the new loop once the move has
    /// registered everything again (which schedules the dequeues itself); after a close, nothing.
    func carryOver(after generation: Int, _ rest: @escaping (NativeSocketBackend) -> Void) {
        guard generation == self.generation, let loop, !loop.isCurrent else { return }
        let box = NativeRest(body: rest)
        loop.perform(inModes: modes) { [self] in
            guard generation == self.generation, self.loop === loop else { return }
            box.body(self)
        }
    }

    func scheduleReadDequeue() {
        guard loop != nil else { return }
        if readDequeue == nil {
            readDequeue = PerformItem(modes: modes) { [self] in maybeDequeueRead() }
        }
        schedule(readDequeue!)
    }

    func scheduleWriteDequeue() {
        guard loop != nil else { return }
        if writeDequeue == nil {
            writeDequeue = PerformItem(modes: modes) { [self] in maybeDequeueWrite() }
        }
        schedule(writeDequeue!)
    }

    func scheduleDisconnect() {
        guard loop != nil else { return }
        if scheduledDisconnect == nil {
            scheduledDisconnect = PerformItem(modes: modes) { [self] in disconnect() }
        }
        schedule(scheduledDisconnect!)
    }

    /// Cancels the deferred actions and lets go of them (they hold the socket). A socket moving to
    /// another loop gets new items there: the old loop's queue may still hold entries of the old
    /// ones, which that loop's thread reads as it skips them.
    func dropScheduledWork() {
        if let loop {
            for item in [readDequeue, writeDequeue, scheduledDisconnect, flushItem] {
                if let item { loop.cancel(item) }
            }
        }
        readDequeue = nil
        writeDequeue = nil
        scheduledDisconnect = nil
        flushItem = nil
    }

    /// A reusable timer on the socket's loop in its modes.
    func makeTimer(_ fired: @escaping (NativeSocketBackend) -> Void) -> RunLoopTimer? {
        guard let loop else { return nil }
        return loop.addReusableTimer(modes: modes) { [weak self] _ in
            guard let self else { return }
            fired(self)
        }
    }

    var currentLogMetadata: SocketLogMetadata { logMetadata }

    /// The socket's metadata now.
    var logMetadata: SocketLogMetadata {
        var metadata = SocketLogMetadata(id: logID, face: "RunLoopSocket", engine: "native")
        metadata.descriptor = socketFD
        metadata.local = localAddress
        metadata.peer = connectedAddress
        return metadata
    }

    // MARK: Diagnostics

    /// Inside willDisconnect the original's streams still existed: "connected" unless the read stream
    /// had reached its end (a clean close by the peer).
    var isConnected: Bool { connected && fd >= 0 && !(closingWithError && closingAtEnd) }

    var connectedAddress: SocketAddress? {
        guard fd >= 0 else { return nil }
        return peerAddress ?? SocketOps.peerAddress(fd)
    }

    var localAddress: SocketAddress? {
        if fd >= 0 { return SocketOps.localAddress(fd) }
        if listenFD4 >= 0 { return SocketOps.localAddress(listenFD4) }
        if listenFD6 >= 0 { return SocketOps.localAddress(listenFD6) }
        return nil
    }

    var isIPv4: Bool {
        if fd >= 0 { return (connectedAddress ?? localAddress)?.isIPv4 ?? false }
        return listenFD4 >= 0
    }

    var isIPv6: Bool {
        if fd >= 0 { return (connectedAddress ?? localAddress)?.isIPv6 ?? false }
        return listenFD6 >= 0
    }

    /// The connected descriptor, else the one a connect is trying (a connect by address makes it
    /// before `onSocketWillConnect`), else a listening one.
    var socketFD: Int32 {
        if fd >= 0 { return fd }
        if case .askingWillConnect(let socket) = phase { return socket }
        if let connecting = connecting?.driver?.connectingFD { return connecting }
        return listenFD4 >= 0 ? listenFD4 : listenFD6
    }
    var socket4FD: Int32 { fd >= 0 ? (isIPv4 ? fd : -1) : listenFD4 }
    var socket6FD: Int32 { fd >= 0 ? (isIPv6 ? fd : -1) : listenFD6 }

    var runLoop: EventRunLoop? { loop }
    var isSecure: Bool { tls != nil && !tlsHandshaking }
    var negotiatedALPN: String? { isSecure ? tls?.engine.negotiatedALPN : nil }
    var runLoopModes: [RunLoopMode] { modes }

    var readProgress: TransferProgress { engine.readProgress }
    var writeProgress: TransferProgress { engine.writeProgress }
    var canSafelySetDelegate: Bool { engine.isIdle }

    func enablePreBuffering() {
        engine.configuration.prebuffering = true
    }

    var stateDescription: String {
        var parts: [String] = []
        if let local = localAddress {
            parts.append("local \(local.host ?? "?") \(local.port)")
        }
        if let remote = connectedAddress {
            parts.append("remote \(remote.host ?? "?") \(remote.port)")
        }
        parts.append("has queued \(engine.queuedReadCount) reads \(engine.queuedWriteCount) writes")
        let read = engine.readProgress
        let write = engine.writeProgress
        parts.append(read.fraction.isNaN ? "no current read" : "current read \(Int(read.fraction * 100))% done")
        parts.append(write.fraction.isNaN ? "no current write" : "current write \(Int(write.fraction * 100))% done")
        if engine.disconnectsAfterReading { parts.append("will disconnect after reads") }
        if engine.disconnectsAfterWriting { parts.append("will disconnect after writes") }
        if listenFD4 >= 0 || listenFD6 >= 0 {
            parts.append("listening")
        } else if connecting != nil {
            parts.append("connecting\(connectHost.map { " to \($0)" } ?? "")")
        } else if !isConnected {
            parts.append("not connected")
        }
        return parts.joined(separator: ", ")
    }
}

/// Work carried to the loop a socket moved to (used there only).
struct NativeRest: @unchecked Sendable {
    let body: (NativeSocketBackend) -> Void
}
