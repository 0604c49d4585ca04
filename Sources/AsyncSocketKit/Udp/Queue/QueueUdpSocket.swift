import AsyncSocketCore
import CAsyncSocketShims
import DequeModule
import Dispatch
import Foundation
import Logging
import Synchronization

/// A UDP socket on dispatch queues: GCDAsyncUdpSocket's API, for code ported to Linux.
///
/// Its state lives on a serial socket queue; every delegate call is dispatched to the delegate
/// queue. As in the original, the descriptors (one IPv4, one IPv6, as enabled) are made lazily, by
/// a bind, a connect, the first send, ``enableBroadcast(_:)``, ``enableReusePort(_:)`` or a
/// multicast-interface call, and ``isClosed`` is `true` until then; a bind, a connect or a multicast
/// join that settles the family closes the other descriptor. Sends are queued and sent in order (a
/// run of them ready at once with one `sendmmsg`); receiving is ``receiveOnce()`` or
/// ``beginReceiving()`` until ``pauseReceiving()``, through an optional receive filter. After
/// ``close()`` the object may be used again. Where this class differs from GCDAsyncUdpSocket (a failed
/// send is reported and the socket stays open; empty datagrams are datagrams; the receive buffer is
/// never shrunk; continuous receiving stops reading while the delegate queue holds
/// `maxPendingDatagrams` undelivered datagrams; a send made in `didReceive` leaves when that batch of
/// callbacks has returned), `Migration/README.md` says so.
public final class QueueUdpSocket: @unchecked Sendable, CustomStringConvertible {
    // @unchecked Sendable: every stored variable but `pendingDeliveries`, `readingPaused`,
    // `blockingFilter`, `deliveringThread` (atomics) and `heldSends` (a mailbox, written once in `init`
    // before the object is shared) is touched only on `socketQueue`: public calls go through
    // `sync`/`async`, and the dispatch sources, timers and filter replies run there.

    /// The datagrams continuous receiving may have dispatched to the delegate queue and not yet
    /// delivered before it stops reading (the kernel's buffer holds the rest): GCDAsyncUdpSocket had
    /// no bound, and memory grew with a slow delegate.
    ///
    /// Original: none; GCDAsyncUdpSocket has no counterpart.
    public static let maxPendingDatagrams = 256

    let socketQueue: DispatchQueue
    /// The socket made its queue itself: nothing but the system's queues is above it, so a `sync` onto
    /// it cannot wait for the caller's own queue (QueueUdpSocket+Sending.swift).
    let socketQueueIsOwn: Bool
    static let queueKey = DispatchSpecificKey<UInt>()
    let identity: UInt
    let logger: Logger?
    /// The number that names this socket in log lines (SocketLogMetadata.swift).
    let logID = SocketLogID.make()
    weak var storedDelegate: (any QueueUdpSocketDelegate)? {
        didSet { delegateGeneration &+= 1 }
    }
    var storedDelegateQueue: DispatchQueue? {
        didSet { delegateGeneration &+= 1 }
    }
    var storedUserData: (any Sendable)?

    // Configuration, kept across close.
    var ipv4Enabled = true
    var ipv6Enabled = true
    var preference = IPPreference.neutral
    var maxReceive4: UInt16 = 65535
    var maxReceive6: UInt32 = 65535
    var sendBufferSize: UInt16 = 65535
    var sendFilter: SendFilter?
    var receiveFilter: ReceiveFilter?
    /// A synchronous filter on another queue is (or is about to be) set: sends are queued with
    /// `async` (QueueUdpSocket+Sending.swift says why).
    let blockingFilter = Atomic<Bool>(false)

    // The descriptors and their sources.
    var socket4: Int32 = -1
    var socket6: Int32 = -1
    var channel4: UdpChannel?
    var channel6: UdpChannel?
    var created = false
    var didBind = false
    var connecting = false
    var didConnect = false
    var cachedPeer: SocketAddress?
    /// How often the socket closed: work that left the socket queue (a lookup, a filter) is dropped
    /// when this changed meanwhile.
    var closeCount = 0

    // Sending.
    var sends = Deque<QueueUdpPacket>()
    var currentSend: QueueUdpPacket?
    /// The descriptor and destination of the current datagram (`nil`: the connected peer).
    var currentTarget: (fd: Int32, address: SocketAddress?)?
    var dequeuingSends = false
    var sendTimer: DispatchSourceTimer?
    var closesAfterSends = false
    /// Sends held back by the thread delivering a batch, joined to the send queue on the socket queue
    /// (QueueUdpSocket+Batching.swift).
    private(set) var heldSends: DispatchMailbox<QueueUdpPacket>!
    /// `pthread_self()` of the thread delivering a batch of datagrams, 0 when none is.
    let deliveringThread = Atomic<UInt>(0)

    // Receiving.
    var receiveMode = ReceiveMode.off
    var pendingFilterReplies = 0
    /// Delegate calls on their way to the delegate queue, in order (QueueUdpSocket+Delegate.swift);
    /// replaced when the delegate queue changes (socket queue only).
    var delegateCalls: DispatchMailbox<QueueUdpDelegateCall>?
    /// The delegate calls of this pass of the socket queue, not yet handed to `delegateCalls`.
    var stagedCalls: [QueueUdpDelegateCall] = []
    /// How often the delegate or its queue was set, and the count when `stagedCalls` last named them.
    var delegateGeneration = 0
    var stagedGeneration = 0
    var readsIPv6First = false
    /// Where datagrams are received before each is copied into its `Data` (socket queue only).
    let reader = DatagramReader(readingAhead: false)
    /// The last datagram's sender and its `sockaddr` bytes (socket queue only).
    var lastSender: (address: SocketAddress, bytes: Data)?
    /// Bound to a wildcard address: the local address each recent sender reached (socket queue only).
    var replySources = UdpReplySources()
    let pendingDeliveries = Atomic<Int>(0)
    let readingPaused = Atomic<Bool>(false)

    /// Which family a name with addresses of both is sent to or connected to.
    enum IPPreference {
        case neutral
        case ipv4
        case ipv6
    }

    enum ReceiveMode {
        case off
        case once
        case continuous
    }

    /// A socket with its own serial socket queue (`init`, `initWithDelegate:delegateQueue:`). `logger`
    /// receives a warning for each datagram dropped for being larger than the receive maximum.
    public convenience init(
        delegate: (any QueueUdpSocketDelegate)? = nil, delegateQueue: DispatchQueue? = nil, logger: Logger? = nil
    ) {
        self.init(
            delegate: delegate, delegateQueue: delegateQueue, queue: DispatchQueue(label: Self.queueName),
            queueIsOwn: true, logger: logger)
    }

    /// A socket whose state lives on `socketQueue` (`initWithDelegate:delegateQueue:socketQueue:`,
    /// `initWithSocketQueue:`; `nil` makes a serial queue). A global (concurrent) queue throws
    /// ``QueueUdpSocketError/Code/badConfig``.
    public convenience init(
        delegate: (any QueueUdpSocketDelegate)? = nil, delegateQueue: DispatchQueue? = nil,
        socketQueue: DispatchQueue?, logger: Logger? = nil
    ) throws(QueueUdpSocketError) {
        if let socketQueue, QueueSocket.isGlobalQueue(socketQueue) {
            throw QueueUdpSocketError(.badConfig, "The socket queue must be serial, not a global concurrent queue")
        }
        self.init(
            delegate: delegate, delegateQueue: delegateQueue,
            queue: socketQueue ?? DispatchQueue(label: Self.queueName), queueIsOwn: socketQueue == nil, logger: logger)
    }

    private init(
        delegate: (any QueueUdpSocketDelegate)?, delegateQueue: DispatchQueue?, queue: DispatchQueue, queueIsOwn: Bool,
        logger: Logger?
    ) {
        socketQueue = queue
        socketQueueIsOwn = queueIsOwn
        identity = UInt(bitPattern: ObjectIdentifier(queue).hashValue)
        self.logger = logger
        storedDelegate = delegate
        storedDelegateQueue = delegateQueue
        queue.setSpecific(key: Self.queueKey, value: identity)
        heldSends = DispatchMailbox(queue: queue, owner: self) { [unowned self] packets in
            sends.append(contentsOf: packets)
            dequeueSends()
        }
    }

    deinit {
        // As the original's dealloc: closed at once, nobody told.
        closeDescriptors()
    }

    // MARK: The socket queue

    var isOnSocketQueue: Bool { DispatchQueue.getSpecific(key: Self.queueKey) == identity }

    /// Runs `body` on the socket queue and waits (inline when already there).
    func sync<T>(_ body: () throws -> T) rethrows -> T {
        flushBatchSends()
        if isOnSocketQueue {
            return try body()
        }
        return try socketQueue.sync(execute: body)
    }

    /// Queues `body` on the socket queue.
    func async(_ body: @escaping @Sendable () -> Void) {
        flushBatchSends()
        socketQueue.async(execute: body)
    }

    /// Dispatches `body` to the delegate queue with the delegate of this moment (as GCD captures it),
    /// after the calls posted before it.
    func notify(_ body: @escaping @Sendable (any QueueUdpSocketDelegate) -> Void) {
        postDelegateCall(.other(body))
        scheduleDelegateCalls()
    }

    /// Throws `badConfig` unless the socket has a delegate and a delegate queue (bind, connect,
    /// multicast, broadcast and reuse-port need them; sends do not).
    func requireDelegate() throws {
        guard storedDelegate != nil else {
            throw QueueUdpSocketError(.badConfig, "Attempting to use socket without a delegate. Set a delegate first.")
        }
        guard storedDelegateQueue != nil else {
            throw QueueUdpSocketError(
                .badConfig, "Attempting to use socket without a delegate queue. Set a delegate queue first.")
        }
    }

    // MARK: Delegate and user data

    /// The delegate, held weakly; setting it is asynchronous.
    ///
    /// Original: `delegate` (GCDAsyncUdpSocket).
    public var delegate: (any QueueUdpSocketDelegate)? {
        get { sync { storedDelegate } }
        set {
            let box = DelegateBox(newValue)
            async { [self] in storedDelegate = box.delegate }
        }
    }

    /// The queue delegate calls are dispatched to; setting it is asynchronous.
    ///
    /// Original: `delegateQueue` (GCDAsyncUdpSocket).
    public var delegateQueue: DispatchQueue? {
        get { sync { storedDelegateQueue } }
        set { async { [self] in storedDelegateQueue = newValue } }
    }

    /// Sets both and returns once they are in place (`synchronouslySetDelegate:delegateQueue:`).
    public func synchronouslySetDelegate(_ delegate: (any QueueUdpSocketDelegate)?, delegateQueue: DispatchQueue?) {
        sync {
            storedDelegate = delegate
            storedDelegateQueue = delegateQueue
        }
    }

    /// A value the application keeps with the socket (`userData`).
    public var userData: (any Sendable)? {
        get { sync { storedUserData } }
        set { sync { storedUserData = newValue } }
    }

    // MARK: Configuration

    /// Whether IPv4 may be used (default `true`); takes effect when the descriptors are made.
    ///
    /// Original: `isIPv4Enabled` (GCDAsyncUdpSocket).
    public var isIPv4Enabled: Bool {
        get { sync { ipv4Enabled } }
        set { sync { ipv4Enabled = newValue } }
    }

    /// Whether IPv6 may be used (default `true`); takes effect when the descriptors are made.
    ///
    /// Original: `isIPv6Enabled` (GCDAsyncUdpSocket).
    public var isIPv6Enabled: Bool {
        get { sync { ipv6Enabled } }
        set { sync { ipv6Enabled = newValue } }
    }

    /// Whether a name with addresses of both families goes to its IPv4 one (`isIPv4Preferred`).
    public var isIPv4Preferred: Bool { sync { preference == .ipv4 } }
    /// Whether a name with addresses of both families goes to its IPv6 one (`isIPv6Preferred`).
    public var isIPv6Preferred: Bool { sync { preference == .ipv6 } }
    /// Whether a name goes to whichever family the resolver lists first (the default).
    ///
    /// Original: `isIPVersionNeutral` (GCDAsyncUdpSocket).
    public var isIPVersionNeutral: Bool { sync { preference == .neutral } }

    /// `setPreferIPv4`.
    public func setPreferIPv4() { sync { preference = .ipv4 } }
    /// `setPreferIPv6`.
    public func setPreferIPv6() { sync { preference = .ipv6 } }
    /// `setIPVersionNeutral`.
    public func setIPVersionNeutral() { sync { preference = .neutral } }

    /// The largest IPv4 datagram a receive takes (default 65535). A larger one is dropped, never cut,
    /// and reported to the logger.
    ///
    /// Original: `maxReceiveIPv4BufferSize` (GCDAsyncUdpSocket).
    public var maxReceiveIPv4BufferSize: UInt16 {
        get { sync { maxReceive4 } }
        set { sync { maxReceive4 = newValue } }
    }

    /// The largest IPv6 datagram a receive takes (default 65535; above 65536 nothing changes).
    ///
    /// Original: `maxReceiveIPv6BufferSize` (GCDAsyncUdpSocket).
    public var maxReceiveIPv6BufferSize: UInt32 {
        get { sync { maxReceive6 } }
        set { sync { maxReceive6 = newValue } }
    }

    /// The send buffer the descriptors ask for when made (`maxSendBufferSize`, default 65535):
    /// `SO_SNDBUF` when larger than the system's. Unlike GCDAsyncUdpSocket it leaves the receive
    /// buffer alone (on Linux 65535 would shrink it).
    public var maxSendBufferSize: UInt16 {
        get { sync { sendBufferSize } }
        set { sync { sendBufferSize = newValue } }
    }

    // MARK: State

    /// `true` until the descriptors exist (a fresh socket is closed, as in the original), and after
    /// ``close()``.
    ///
    /// Original: `isClosed` (GCDAsyncUdpSocket).
    public var isClosed: Bool { sync { !created } }

    /// Whether a connect succeeded and the socket is open.
    ///
    /// Original: `isConnected` (GCDAsyncUdpSocket).
    public var isConnected: Bool { sync { didConnect } }

    /// Before the descriptors exist: whether IPv4 is enabled; after: whether the IPv4 one is open.
    ///
    /// Original: `isIPv4` (GCDAsyncUdpSocket).
    public var isIPv4: Bool { sync { created ? socket4 >= 0 : ipv4Enabled } }

    /// Before the descriptors exist: whether IPv6 is enabled; after: whether the IPv6 one is open.
    ///
    /// Original: `isIPv6` (GCDAsyncUdpSocket).
    public var isIPv6: Bool { sync { created ? socket6 >= 0 : ipv6Enabled } }

    /// The local address (`sockaddr` bytes) of the IPv4 descriptor, else of the IPv6 one; `nil`
    /// before the descriptors exist.
    ///
    /// Original: `localAddress` (GCDAsyncUdpSocket).
    public var localAddress: Data? { sync { local(socket4 >= 0 ? socket4 : socket6)?.data } }
    /// The numeric local host of the IPv4 descriptor, else of the IPv6 one.
    ///
    /// Original: `localHost` (GCDAsyncUdpSocket).
    public var localHost: String? { sync { local(socket4 >= 0 ? socket4 : socket6)?.host } }
    /// The local port of the IPv4 descriptor, else of the IPv6 one; 0 before the descriptors exist.
    ///
    /// Original: `localPort` (GCDAsyncUdpSocket).
    public var localPort: UInt16 { sync { local(socket4 >= 0 ? socket4 : socket6)?.port ?? 0 } }
    /// The IPv4 descriptor's local address (`localAddress_IPv4`).
    public var localAddressIPv4: Data? { sync { local(socket4)?.data } }
    /// The IPv4 descriptor's local host (`localHost_IPv4`).
    public var localHostIPv4: String? { sync { local(socket4)?.host } }
    /// The IPv4 descriptor's local port (`localPort_IPv4`).
    public var localPortIPv4: UInt16 { sync { local(socket4)?.port ?? 0 } }
    /// The IPv6 descriptor's local address (`localAddress_IPv6`).
    public var localAddressIPv6: Data? { sync { local(socket6)?.data } }
    /// The IPv6 descriptor's local host (`localHost_IPv6`).
    public var localHostIPv6: String? { sync { local(socket6)?.host } }
    /// The IPv6 descriptor's local port (`localPort_IPv6`).
    public var localPortIPv6: UInt16 { sync { local(socket6)?.port ?? 0 } }

    /// The connected peer's address (`sockaddr` bytes); `nil` when not connected.
    ///
    /// Original: `connectedAddress` (GCDAsyncUdpSocket).
    public var connectedAddress: Data? { sync { cachedPeer?.data } }
    /// The connected peer's numeric host.
    ///
    /// Original: `connectedHost` (GCDAsyncUdpSocket).
    public var connectedHost: String? { sync { cachedPeer?.host } }
    /// The connected peer's port; 0 when not connected.
    ///
    /// Original: `connectedPort` (GCDAsyncUdpSocket).
    public var connectedPort: UInt16 { sync { cachedPeer?.port ?? 0 } }

    private func local(_ fd: Int32) -> SocketAddress? {
        fd >= 0 ? SocketOps.localAddress(fd) : nil
    }

    /// What a log line about `descriptor` carries (on the socket queue).
    func udpLogMetadata(descriptor: Int32) -> SocketLogMetadata {
        var metadata = SocketLogMetadata(id: logID, face: "QueueUdpSocket", engine: "dispatch")
        metadata.descriptor = descriptor
        metadata.local = local(descriptor)
        metadata.peer = cachedPeer
        return metadata
    }

    /// "QueueUdpSocket(IPv4: fd 5, IPv6: closed, bound, receiving)".
    ///
    /// Original: `description`, which every Objective-C object has; the text differs.
    public var description: String {
        sync {
            var parts = [socket4 >= 0 ? "IPv4: fd \(socket4)" : "IPv4: closed"]
            parts.append(socket6 >= 0 ? "IPv6: fd \(socket6)" : "IPv6: closed")
            if didBind { parts.append("bound") }
            if didConnect { parts.append("connected") }
            if receiveMode != .off { parts.append("receiving") }
            if !created { parts.append("closed") }
            return "QueueUdpSocket(\(parts.joined(separator: ", ")))"
        }
    }

    /// The open descriptors (IPv4 first), for tests.
    package var descriptors: [Int32] { sync { [socket4, socket6].filter { $0 >= 0 } } }
}
