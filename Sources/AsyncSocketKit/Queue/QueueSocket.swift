import AsyncSocketCore
import Dispatch
import Foundation
import Logging
import Synchronization

/// The modern queue-based socket, modelled on GCDAsyncSocket, on the same engine as ``RunLoopSocket``.
///
/// All state lives on a serial socket queue; every method may be called from any thread. Getters,
/// connects, accepts, `disconnect()` and ``perform(_:)`` run synchronously on the socket queue; reads,
/// writes, `startTLS` and setters are queued to it. Every delegate call is dispatched to the delegate
/// queue in the order the socket produced it. Misuse throws ``QueueSocketError`` (`badConfig`,
/// `badParam`) and never traps.
///
/// Like GCDAsyncSocket, the socket closes itself (without callbacks) when the last reference to it
/// goes away; an accepted socket nobody keeps is closed and reported with itself as the argument.
// Not `final`: RunLoopSocket's queue core runs its connections as a subclass inside this module
// (Legacy/QueueCoreSocket.swift), which overrides the few hooks marked below; nothing outside the
// module can subclass it (it is not `open`).
public class QueueSocket: @unchecked Sendable, CustomStringConvertible {
    // @unchecked Sendable: every stored variable is touched only on the socket queue (public calls
    // go through `sync`/`async`); the rest is `let`.
    let socketQueue: DispatchQueue
    /// How the calling thread knows it runs `socketQueue` (QueueSocket+SocketQueue.swift): the
    /// queue's identity in a per-thread mark, and a queue-specific value where the mark is not enough.
    let socketQueueIdentity: UInt
    let queueKey = DispatchSpecificKey<Bool>()
    /// Whether `socketQueue` came from the user (who may run blocks of their own on it): then the
    /// queue-specific value marks it too.
    let socketQueueIsUsers: Bool
    /// Whether ``markSocketQueueTargetQueue(_:)`` was ever called.
    let marksTargetQueues = Atomic<Bool>(false)
    package let logger: Logger?
    let resolver: HostResolver?
    /// The user's metrics (the sockets this one accepts get them too), and the handles of this socket's
    /// face and engine (SocketMetrics.swift).
    let metricsSource: SocketMetrics?
    package let metricHandles: SocketMetricHandles?
    /// Whether the open-connections meter counts this socket now (socket queue only).
    var countedOpen = false
    /// A listener's: the open connections it accepted, for a graceful shutdown; an accepted socket's:
    /// its listener's, which it leaves when it closes (ConnectionTracker.swift). Socket queue only.
    var tracker: ConnectionTracker?

    // Everything below is touched on `socketQueue` only.
    weak var storedDelegate: (any QueueSocketDelegate)?
    var storedDelegateQueue: DispatchQueue?
    /// Boxed: most sockets have none, and an existential kept inline would cost each 40 bytes.
    var storedUserData: UserDataBox?
    var ipv4Enabled = true
    var ipv6Enabled = true
    var ipv4Preferred = true
    var alternateDelay: TimeInterval = 0.3
    var autoDisconnect = true
    /// Whether this listener has warned that an accepted connection found no delegate.
    var warnedNoDelegate = false
    /// Whether this listener has reported an unexpected accept failure at error level.
    var reportedAcceptFailure = false

    package let engine = SocketEngine(configuration: .init(prebuffering: true))
    var phase = QueueSocketPhase.idle
    package var fd: Int32 = -1
    var listenFDs: [Int32] { listener?.sockets ?? [] }
    var unixListenPath: String?
    /// The next accept's listeners set SO_REUSEPORT (``reusesPort``).
    var reusePortOnAccept = false
    var readSource: (any DispatchSourceRead)?
    var writeSource: (any DispatchSourceWrite)?
    var readSourceSuspended = true
    var writeSourceSuspended = true
    var readTimer: (any DispatchSourceTimer)?
    var writeTimer: (any DispatchSourceTimer)?
    var connectTimer: (any DispatchSourceTimer)?
    var readsPaused = false
    var writesPaused = false
    var readStreamClosed = false
    /// The transport may have bytes for a read (the read source fired since the last short read).
    package var readableHint = false
    /// Whether a read pass runs now, and whether another was asked for meanwhile (see doReadData).
    var inReadPass = false
    var readPassRequested = false
    package var writableHint = false
    /// Gathered writes and the accounting of a batch sent together (WriteGather.swift).
    package let gather = WriteGather()
    /// Bumped by every close, so late results of earlier work recognise themselves as stale.
    var stateIndex = 0
    var connectedURL: URL?
    var peer: SocketAddress?
    package var tls: TLSTransport?
    /// Closes the connected descriptor once both its sources are cancelled and the close let go of it
    /// (tearDown, or a subclass's error close holding it for longer).
    var descriptorCloser: CancelCounter?
    package var tlsHandshaking = false
    /// The host string given to connect, for the TLS peer-name check.
    var connectHostString: String?

    /// A socket with its own serial socket queue (`initWithDelegate:delegateQueue:`). `resolver`
    /// looks up host names (`nil`: ``HostResolver/system``); `logger` receives the socket's lines
    /// (lifecycle at `.debug`, misuse at `.warning`); `metrics` counts what it does (``SocketMetrics``;
    /// `nil`: nothing is counted).
    public init(
        delegate: (any QueueSocketDelegate)? = nil, delegateQueue: DispatchQueue? = nil,
        resolver: HostResolver? = nil, logger: Logger? = nil, metrics: SocketMetrics? = nil
    ) {
        _ = DispatchTimerWarmUp.done
        socketQueue = DispatchQueue(label: "GCDAsyncSocket")
        socketQueueIdentity = UInt(bitPattern: ObjectIdentifier(socketQueue))
        socketQueueIsUsers = false
        self.logger = logger
        self.resolver = resolver
        metricsSource = metrics
        metricHandles = metrics?.handles(face: Self.metricsFace, engine: Self.metricsEngine)
        storedDelegate = delegate
        storedDelegateQueue = delegateQueue
        engine.configuration.availableReadsTakeEstimate = semantics == .gcd
    }

    /// A socket whose state lives on `socketQueue` (`initWithDelegate:delegateQueue:socketQueue:`).
    /// `socketQueue` must be serial: a global (concurrent) queue throws `badConfig`; `nil` makes one.
    public init(
        delegate: (any QueueSocketDelegate)?, delegateQueue: DispatchQueue?, socketQueue: DispatchQueue?,
        resolver: HostResolver? = nil, logger: Logger? = nil, metrics: SocketMetrics? = nil
    ) throws(QueueSocketError) {
        if let socketQueue, Self.isGlobalQueue(socketQueue) {
            throw QueueSocketError(.badConfig, "The socket queue must be serial, not a global concurrent queue")
        }
        _ = DispatchTimerWarmUp.done
        self.socketQueue = socketQueue ?? DispatchQueue(label: "GCDAsyncSocket")
        socketQueueIdentity = UInt(bitPattern: ObjectIdentifier(self.socketQueue))
        socketQueueIsUsers = socketQueue != nil
        self.logger = logger
        self.resolver = resolver
        metricsSource = metrics
        metricHandles = metrics?.handles(face: Self.metricsFace, engine: Self.metricsEngine)
        storedDelegate = delegate
        storedDelegateQueue = delegateQueue
        if socketQueueIsUsers {
            self.socketQueue.setSpecific(key: queueKey, value: true)
        }
        engine.configuration.availableReadsTakeEstimate = semantics == .gcd
    }

    /// A socket without a delegate whose state lives on `socketQueue` (`initWithSocketQueue:`); set
    /// the delegate and its queue before connecting or accepting. A global (concurrent) queue throws
    /// `badConfig`; `nil` makes a serial queue.
    public convenience init(socketQueue: DispatchQueue?) throws(QueueSocketError) {
        try self.init(delegate: nil, delegateQueue: nil, socketQueue: socketQueue)
    }

    deinit {
        // Nobody can be told any more: close quietly (see closeWithoutCallback).
        closeWithoutCallback()
    }

    /// Whether `queue` is one of libdispatch's global (concurrent) queues: their labels are
    /// "com.apple.root.…" (each `DispatchQueue.global()` call returns a new wrapper object).
    static func isGlobalQueue(_ queue: DispatchQueue) -> Bool {
        queue.label.hasPrefix("com.apple.root.")
    }

    // MARK: Delegate

    /// The delegate, held weakly; setting it is asynchronous (use ``synchronouslySetDelegate(_:)``
    /// where the old delegate must not be called after the call returns).
    ///
    /// Original: `delegate` (GCDAsyncSocket).
    public var delegate: (any QueueSocketDelegate)? {
        get { sync { storedDelegate } }
        set {
            let box = DelegateBox(newValue)
            async { [self] in storedDelegate = box.delegate }
        }
    }

    /// The queue delegate calls are dispatched to; setting it is asynchronous.
    ///
    /// Original: `delegateQueue` (GCDAsyncSocket).
    public var delegateQueue: DispatchQueue? {
        get { sync { storedDelegateQueue } }
        set { async { [self] in storedDelegateQueue = newValue } }
    }

    /// Reads the delegate and its queue together, synchronously (`getDelegate:delegateQueue:`), so
    /// the pair is one the socket really had at one moment.
    public func getDelegate(_ delegate: inout (any QueueSocketDelegate)?, delegateQueue: inout DispatchQueue?) {
        (delegate, delegateQueue) = sync { (storedDelegate, storedDelegateQueue) }
    }

    /// Sets both, asynchronously (`setDelegate:delegateQueue:`).
    public func setDelegate(_ delegate: (any QueueSocketDelegate)?, delegateQueue: DispatchQueue?) {
        let box = DelegateBox(delegate)
        async { [self] in
            storedDelegate = box.delegate
            storedDelegateQueue = delegateQueue
        }
    }

    /// Sets the delegate and returns once it is in place.
    ///
    /// Original: `synchronouslySetDelegate:` (GCDAsyncSocket).
    public func synchronouslySetDelegate(_ delegate: (any QueueSocketDelegate)?) {
        sync { storedDelegate = delegate }
    }

    /// Sets the delegate queue and returns once it is in place.
    ///
    /// Original: `synchronouslySetDelegateQueue:` (GCDAsyncSocket).
    public func synchronouslySetDelegateQueue(_ delegateQueue: DispatchQueue?) {
        sync { storedDelegateQueue = delegateQueue }
    }

    /// Sets both and returns once they are in place.
    ///
    /// Original: `synchronouslySetDelegate:delegateQueue:` (GCDAsyncSocket).
    public func synchronouslySetDelegate(_ delegate: (any QueueSocketDelegate)?, delegateQueue: DispatchQueue?) {
        sync {
            storedDelegate = delegate
            storedDelegateQueue = delegateQueue
        }
    }

    // MARK: Hooks (overridden by the queue core's QueueCoreSocket; these are GCD's behavior)

    /// The rules this socket follows where GCDAsyncSocket's and the run-loop AsyncSocket's differ.
    package var semantics: Semantics { .gcd }

    /// Dispatches `body` to the delegate queue with the delegate as it is now (GCD captures it
    /// strongly at the time of dispatch); skipped without a delegate or a queue.
    func notify(_ body: @escaping @Sendable (any QueueSocketDelegate) -> Void) {
        ask(body)
    }

    /// Hands one of the frequent callbacks to the delegate.
    func handOver(_ callback: ConnectionCallback) {
        notify { [self] in $0.deliver(callback, from: self) }
    }

    /// Asks the delegate whether a timed-out transfer gets more time; `reply` receives the answer
    /// (0: time out), on any thread.
    func askForMoreTime(
        _ direction: TransferDirection, _ query: TimeoutQuery, reply: @escaping @Sendable (TimeInterval) -> Void
    ) {
        askDelegateForMoreTime(direction, query, reply: reply)
    }

    /// The read source fired with no byte estimate and the descriptor at its end (or reset): GCD
    /// takes it for the end (`doReadEOF`).
    func readSourceMetEnd() {
        doReadEOF()
    }

    /// Whether the read source is made as soon as the socket connects (GCD: it reports the peer's
    /// close while no read waits), or only when a read first waits for bytes.
    var watchesReadableFromStart: Bool { true }

    /// Runs a read or write source's event handler (`body`) on the socket queue.
    func handleSourceEvent(_ body: () -> Void) {
        body()
    }

    /// A read waits for bytes: watch the descriptor.
    func waitForBytes() {
        watchReadable()
    }

    /// Watches the descriptor for bytes to read (GCD: the read source, made on first use).
    func watchReadable() {
        resumeReadSource()
    }

    /// Stops watching the descriptor for bytes (GCD: suspends the read source).
    func stopWatchingReadable() {
        suspendReadSource()
    }

    /// Whether the descriptor's bytes are watched with a dispatch read source (a write source made
    /// first then makes the read source before it; see `resumeWriteSource()`).
    var watchesReadableWithDispatch: Bool { true }

    /// Whether the peer's end was noticed without reading up to it (never, under GCD).
    var endNoticedWithoutRead: Bool { false }

    /// The error a close at the peer's end reports.
    var endOfStreamError: any Error { QueueSocketError(.closed) }

    /// The end waits for the callbacks already sent to arrive (never asked under GCD, whose callbacks
    /// cannot change what the end leads to): close.
    func confirmEndBehindCallbacks() {
        closeWithError(endOfStreamError)
    }

    /// A close with `error` is about to tear the socket down; returns whether something else now
    /// holds the connected descriptor (closed later through `descriptorCloser`).
    func closing(with error: (any Error)?) -> Bool { false }

    /// The socket was torn down.
    func didTearDown() {}

    /// A listener accepted `child`: the GCD sequence (QueueSocket+Accept.swift).
    func accepted(_ child: Int32, from address: SocketAddress) {
        deliverAccepted(child, from: address)
    }

    // MARK: Delegate queue

    /// Dispatches `body` to the delegate queue (GCD callbacks and questions).
    func ask(_ body: @escaping @Sendable (any QueueSocketDelegate) -> Void) {
        guard let delegate = storedDelegate, let queue = storedDelegateQueue else { return }
        let box = DelegateBox(delegate)
        queue.async {
            if let delegate = box.delegate {
                body(delegate)
            }
        }
    }

    // MARK: Configuration

    /// Whether IPv4 may be used (default `true`).
    ///
    /// Original: `isIPv4Enabled` (GCDAsyncSocket).
    public var isIPv4Enabled: Bool {
        get { sync { ipv4Enabled } }
        set { async { [self] in ipv4Enabled = newValue } }
    }

    /// Whether IPv6 may be used (default `true`).
    ///
    /// Original: `isIPv6Enabled` (GCDAsyncSocket).
    public var isIPv6Enabled: Bool {
        get { sync { ipv6Enabled } }
        set { async { [self] in ipv6Enabled = newValue } }
    }

    /// Whether a name with both kinds of addresses is tried on IPv4 first (default `true`).
    ///
    /// Original: `isIPv4PreferredOverIPv6` (GCDAsyncSocket).
    public var isIPv4PreferredOverIPv6: Bool {
        get { sync { ipv4Preferred } }
        set { async { [self] in ipv4Preferred = newValue } }
    }

    /// How long the preferred family gets before the other is tried as well (default 0.3 s).
    ///
    /// Original: `alternateAddressDelay` (GCDAsyncSocket).
    public var alternateAddressDelay: TimeInterval {
        get { sync { alternateDelay } }
        set { async { [self] in alternateDelay = newValue } }
    }

    /// Whether the peer's close of its side disconnects (default `true`); when `false` the socket
    /// reports `socketDidCloseReadStream` and stays open for writing.
    ///
    /// Original: `autoDisconnectOnClosedReadStream` (GCDAsyncSocket).
    public var autoDisconnectOnClosedReadStream: Bool {
        get { sync { autoDisconnect } }
        set { async { [self] in autoDisconnect = newValue } }
    }

    /// Anything the application wants to keep with the socket.
    ///
    /// Original: `userData` (GCDAsyncSocket).
    public var userData: (any Sendable)? {
        get { sync { storedUserData?.value } }
        set {
            let box = newValue.map(UserDataBox.init)
            async { [self] in storedUserData = box }
        }
    }

    // MARK: Logging

    /// The number that names this socket in log lines (SocketLogMetadata.swift).
    package let logID = SocketLogID.make()
    /// The face and engine log lines name.
    var logFace: String { "QueueSocket" }
    /// The face and engine the socket's metrics are dimensioned by.
    class var metricsFace: String { "QueueSocket" }
    class var metricsEngine: String { "dispatch" }
    var logEngine: String { "dispatch" }

    /// Logs `message` through the user's logger, if any, with the socket's metadata (on the socket
    /// queue: the descriptor and addresses are read there).
    func log(
        _ level: Logger.Level, _ message: @autoclosure () -> Logger.Message, tag: Int? = nil,
        _ extra: @autoclosure () -> Logger.Metadata = [:]
    ) {
        logger?.log(level: level, message(), metadata: logMetadata(tag: tag).metadata(extra()))
    }

    /// Logs from the caller's thread: the metadata names the socket, not its descriptor or addresses
    /// (socket-queue state).
    func logFromCaller(_ level: Logger.Level, _ message: @autoclosure () -> Logger.Message) {
        logger?.log(
            level: level, message(), metadata: SocketLogMetadata(id: logID, face: logFace, engine: logEngine).metadata()
        )
    }

    package var currentLogMetadata: SocketLogMetadata { logMetadata() }

    /// The socket's metadata now (on the socket queue).
    func logMetadata(tag: Int? = nil) -> SocketLogMetadata {
        var metadata = SocketLogMetadata(id: logID, face: logFace, engine: logEngine)
        metadata.descriptor = fd >= 0 ? fd : listenFDs.first ?? -1
        metadata.local = localSocketAddress
        metadata.peer = connectedSocketAddress
        metadata.tag = tag
        return metadata
    }

    // MARK: State

    /// `true` until connect or accept starts the socket, and again after it closes.
    ///
    /// Original: `isDisconnected` (GCDAsyncSocket).
    public var isDisconnected: Bool { sync { !started } }

    /// Whether a connection is established.
    ///
    /// Original: `isConnected` (GCDAsyncSocket).
    public var isConnected: Bool { sync { connected } }

    /// Whether TLS is up.
    ///
    /// Original: `isSecure` (GCDAsyncSocket).
    public var isSecure: Bool { sync { isSecured } }

    /// The ALPN protocol the TLS handshake agreed on, if any (a Swift addition).
    public var negotiatedALPN: String? { sync { isSecured ? tls?.engine.negotiatedALPN : nil } }

    /// The peer's numeric address.
    ///
    /// Original: `connectedHost` (GCDAsyncSocket).
    public var connectedHost: String? { sync { connectedSocketAddress?.host } }
    /// The peer's port.
    ///
    /// Original: `connectedPort` (GCDAsyncSocket).
    public var connectedPort: UInt16 { sync { connectedSocketAddress?.port ?? 0 } }
    /// The peer of a Unix-domain connection.
    ///
    /// Original: `connectedUrl` (GCDAsyncSocket).
    public var connectedUrl: URL? { sync { connectedURL } }
    /// The local numeric address.
    ///
    /// Original: `localHost` (GCDAsyncSocket).
    public var localHost: String? { sync { localSocketAddress?.host } }
    /// The local port.
    ///
    /// Original: `localPort` (GCDAsyncSocket).
    public var localPort: UInt16 { sync { localSocketAddress?.port ?? 0 } }
    /// The peer's `sockaddr` bytes.
    ///
    /// Original: `connectedAddress` (GCDAsyncSocket).
    public var connectedAddress: Data? { sync { connectedSocketAddress?.data } }
    /// The local `sockaddr` bytes.
    ///
    /// Original: `localAddress` (GCDAsyncSocket).
    public var localAddress: Data? { sync { localSocketAddress?.data } }
    /// Whether the connection (or a listener) is IPv4; `false` for Unix-domain sockets.
    ///
    /// Original: `isIPv4` (GCDAsyncSocket).
    public var isIPv4: Bool { sync { fd >= 0 ? connectedSocketAddress?.isIPv4 == true : socket4 >= 0 } }
    /// Whether the connection (or a listener) is IPv6; `false` for Unix-domain sockets.
    ///
    /// Original: `isIPv6` (GCDAsyncSocket).
    public var isIPv6: Bool { sync { fd >= 0 ? connectedSocketAddress?.isIPv6 == true : socket6 >= 0 } }

    var connectedSocketAddress: SocketAddress? {
        guard fd >= 0 else { return nil }
        if peer == nil { peer = SocketOps.peerAddress(fd) }
        return peer
    }

    var localSocketAddress: SocketAddress? {
        if fd >= 0 { return SocketOps.localAddress(fd) }
        return listenFDs.lazy.compactMap { SocketOps.localAddress($0) }.first
    }

    var socket4: Int32 { listenFDs.first { SocketOps.localAddress($0)?.isIPv4 == true } ?? -1 }
    var socket6: Int32 { listenFDs.first { SocketOps.localAddress($0)?.isIPv6 == true } ?? -1 }

    // MARK: Advanced

    /// Runs `block` synchronously on the socket queue (`performBlock:`); inside it, ``socketFD``,
    /// ``socket4FD`` and ``socket6FD`` answer.
    public func perform(_ block: () -> Void) {
        sync(block)
    }

    /// The OpenSSL session (`SSL*`) of a socket that started TLS, or `nil`; only inside
    /// ``perform(_:)`` (outside it logs and answers `nil`, as GCDAsyncSocket's `sslContext` did).
    ///
    /// GCDAsyncSocket exposed its SecureTransport `SSLContextRef` this way; on Linux the session is
    /// OpenSSL's. Read-only use is safe (`SSL_get_version`, `SSL_get_peer_certificate`,
    /// `SSL_get_cipher_name`); changing the session under the socket is not supported.
    public var sslContext: OpaquePointer? {
        guard isOnSocketQueue else {
            logFromCaller(.warning, "sslContext is only available inside perform(_:)")
            return nil
        }
        return tls?.engine.sslHandle
    }

    /// The connected descriptor (or the Unix-domain listener); -1 outside ``perform(_:)``.
    ///
    /// Original: `socketFD` (GCDAsyncSocket).
    public var socketFD: Int32 {
        guard isOnSocketQueue else {
            logFromCaller(.warning, "socketFD is only available inside perform(_:)")
            return -1
        }
        return fd >= 0 ? fd : (unixListenPath != nil ? listenFDs.first ?? -1 : -1)
    }

    /// The IPv4 descriptor (connected or listening); -1 outside ``perform(_:)``.
    ///
    /// Original: `socket4FD` (GCDAsyncSocket).
    public var socket4FD: Int32 {
        guard isOnSocketQueue else { return -1 }
        return fd >= 0 ? (connectedSocketAddress?.isIPv4 == true ? fd : -1) : socket4
    }

    /// The IPv6 descriptor (connected or listening); -1 outside ``perform(_:)``.
    ///
    /// Original: `socket6FD` (GCDAsyncSocket).
    public var socket6FD: Int32 {
        guard isOnSocketQueue else { return -1 }
        return fd >= 0 ? (connectedSocketAddress?.isIPv6 == true ? fd : -1) : socket6
    }

    /// One line: addresses, queued work and state.
    ///
    /// Original: `description` (GCDAsyncSocket).
    public var description: String {
        let address = String(UInt(bitPattern: ObjectIdentifier(self).hashValue), radix: 16)
        let state = sync { () -> String in
            var parts = ["queued \(engine.queuedReadCount) reads \(engine.queuedWriteCount) writes"]
            if let local = localSocketAddress { parts.append("local \(local)") }
            if let remote = connectedSocketAddress { parts.append("remote \(remote)") }
            parts.append(
                connected ? "connected" : !listenFDs.isEmpty ? "accepting" : started ? "connecting" : "disconnected")
            return parts.joined(separator: ", ")
        }
        return "<QueueSocket 0x\(address) \(state)>"
    }

    // MARK: Separators

    /// CR LF.
    ///
    /// Original: `CRLFData` (GCDAsyncSocket).
    public static var crlfData: Data { Data([0x0D, 0x0A]) }
    /// CR.
    ///
    /// Original: `CRData` (GCDAsyncSocket).
    public static var crData: Data { Data([0x0D]) }
    /// LF.
    ///
    /// Original: `LFData` (GCDAsyncSocket).
    public static var lfData: Data { Data([0x0A]) }
    /// One zero byte.
    ///
    /// Original: `ZeroData` (GCDAsyncSocket).
    public static var zeroData: Data { Data([0x00]) }
}

/// A socket's `userData`.
final class UserDataBox: Sendable {
    let value: any Sendable

    init(_ value: any Sendable) {
        self.value = value
    }
}
