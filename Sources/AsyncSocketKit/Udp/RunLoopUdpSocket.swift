import CAsyncSocketShims
import Dispatch
import Foundation
import Logging

/// A UDP socket on an ``EventRunLoop``: the run-loop `AsyncUdpSocket` of CocoaAsyncSocket, for code
/// ported to Linux.
///
/// The socket belongs to the loop of the thread that makes it (``EventRunLoop/current``): every call
/// must be made on that thread (another thread stops the program, as the original's assertions did)
/// and every delegate call arrives there, while the loop runs in one of the socket's modes.
///
/// Like the original it opens an IPv4 and an IPv6 socket at creation (or one, with
/// ``AddressFamilies``) and closes the one a bind, a connect or a multicast join does not use. Sends
/// and receives are queued, tried one at a time per direction, and answered through the delegate;
/// a failed or timed-out send or receive is reported and the socket stays open. The socket reads
/// only while a receive is queued: with none, datagrams wait in the kernel's buffer, which is the
/// back-pressure. A read takes the datagrams already waiting with it (at most 16, one system call),
/// and the receives queued next get them in order before the socket reads again. Where this class
/// differs from the original, `Migration/README.md` says so.
public final class RunLoopUdpSocket: @unchecked Sendable, CustomStringConvertible {
    // @unchecked Sendable: its variables are touched only on the thread of the socket's loop (each
    // public call checks the thread and stops the program otherwise).

    /// Which sockets the object opens (`init`, `initIPv4`, `initIPv6`).
    public enum AddressFamilies: Sendable {
        /// An IPv4 and an IPv6 socket (`init`, `initWithDelegate:`).
        case both
        /// Only an IPv4 socket (`initIPv4`).
        case ipv4Only
        /// Only an IPv6 socket (`initIPv6`).
        case ipv6Only
    }

    /// The original's default ``maxReceiveBufferSize``.
    public static let defaultMaxReceiveBufferSize: UInt32 = 9216

    var loop: EventRunLoop
    var modes: [RunLoopMode] = [.default]
    let logger: Logger?
    /// The number that names this socket in log lines (SocketLogMetadata.swift).
    let logID = SocketLogID.make()
    private weak var storedDelegate: (any RunLoopUdpSocketDelegate)?
    private var storedUserData: Int

    var socket4: Int32 = -1
    var socket6: Int32 = -1
    var source4: (any DatagramWatch)?
    var source6: (any DatagramWatch)?
    /// The engine the socket was made with.
    ///
    /// Original: none; AsyncUdpSocket has no counterpart.
    public let engine: RunLoopSocket.Engine
    /// The queue libdispatch watches the descriptors on (the queue-core engine only).
    let watchQueue: DispatchQueue?
    var didBind = false
    var didConnect = false
    var closed = false
    var operations = UdpOperations()
    var sendTimer: RunLoopTimer?
    var receiveTimer: RunLoopTimer?
    var sendDequeue: PerformItem?
    var receiveDequeue: PerformItem?
    var closeCheck: PerformItem?
    var didCloseReport: PerformItem?
    /// Which socket a receive tries first, alternated so neither family starves.
    var readsIPv6First = false
    /// Where datagrams are received before each is copied into its `Data`.
    let reader = DatagramReader(readingAhead: true)
    var maxReceive = RunLoopUdpSocket.defaultMaxReceiveBufferSize
    var cachedLocal: SocketAddress?
    var cachedPeer: SocketAddress?
    /// For a socket bound to a wildcard address: the local address each recent sender reached.
    var replySources = UdpReplySources()
    /// Set by a move until the socket is registered on its new loop.
    var pendingArrival: UdpArrival?
    /// How deep the loop's work on the socket is nested (`fromLoop`), and the loop a move made inside
    /// it goes to once that work is over.
    var loopEntries = 0
    var arrivalToPost: EventRunLoop?

    /// A socket with `delegate` (held weakly) and `userData` on the current thread's loop, in the
    /// default mode (`initWithDelegate:userData:`; `families` for `initIPv4` / `initIPv6`). A
    /// socket the system refuses (no descriptor left) is reported to `logger` and leaves its family
    /// unavailable (``isIPv4`` / ``isIPv6`` are `false`).
    ///
    /// `engine` chooses who watches the descriptors: the loop itself (``RunLoopSocket/Engine/native``)
    /// or libdispatch, on a queue of the socket's, with each readiness carried to the loop
    /// (``RunLoopSocket/Engine/queueCore``). The reads, the writes and every callback happen on the
    /// loop's thread, in the socket's modes, with either; the behavior is the same.
    public init(
        delegate: (any RunLoopUdpSocketDelegate)? = nil, userData: Int = 0, families: AddressFamilies = .both,
        engine: RunLoopSocket.Engine = .native, logger: Logger? = nil
    ) {
        storedDelegate = delegate
        storedUserData = userData
        self.logger = logger
        self.engine = engine
        watchQueue = engine == .queueCore ? DispatchQueue(label: "RunLoopUdpSocket") : nil
        loop = EventRunLoop.current
        if families != .ipv6Only {
            socket4 = openSocket(AF_INET)
        }
        if families != .ipv4Only {
            socket6 = openSocket(AF_INET6)
        }
        registerSources()
    }

    deinit {
        // As the original's dealloc: closed without the did-close callback (a pending one holds the
        // socket, so none is pending here).
        guard !closed else { return }
        if loop.isCurrent {
            tearDown()
        } else {
            UdpRegistrations(self).release(on: loop)
        }
    }

    private func openSocket(_ family: Int32) -> Int32 {
        if let fd = UdpDescriptor.open(family: family) {
            return fd
        }
        let error = SystemError.posix(ask_errno(), "socket")
        logger?.warning(
            "RunLoopUdpSocket: no \(family == AF_INET ? "IPv4" : "IPv6") socket",
            metadata: SocketLogMetadata(
                id: logID, face: "RunLoopUdpSocket", engine: engine == .native ? "native" : "queue-core"
            ).metadata(["error": .string(error.localizedDescription)]))
        return -1
    }

    /// Stops the program when called off the socket's loop thread.
    func checkThread(_ call: StaticString) {
        loop.checkThread(call)
    }

    // MARK: Delegate and user data

    /// The delegate, held weakly (the original held it strongly; see `Migration/README.md`).
    ///
    /// Original: `delegate` (AsyncUdpSocket).
    public var delegate: (any RunLoopUdpSocketDelegate)? {
        get {
            checkThread("delegate")
            return storedDelegate
        }
        set {
            checkThread("setDelegate(_:)")
            storedDelegate = newValue
        }
    }

    /// The delegate, for a callback (no thread check: callbacks run on the loop's thread).
    var delegateForCallbacks: (any RunLoopUdpSocketDelegate)? { storedDelegate }

    /// An integer the application keeps with the socket (`userData`).
    public var userData: Int {
        get {
            checkThread("userData")
            return storedUserData
        }
        set {
            checkThread("setUserData(_:)")
            storedUserData = newValue
        }
    }

    // MARK: State

    /// Whether the socket is connected and not closed (`isConnected`).
    public var isConnected: Bool {
        checkThread("isConnected")
        return didConnect && !closed
    }

    /// Whether one of the close methods closed the socket (`isClosed`); a closed socket cannot be
    /// used again.
    public var isClosed: Bool {
        checkThread("isClosed")
        return closed
    }

    /// Whether the IPv4 socket is still open (`isIPv4`).
    public var isIPv4: Bool {
        checkThread("isIPv4")
        return socket4 >= 0
    }

    /// Whether the IPv6 socket is still open (`isIPv6`).
    public var isIPv6: Bool {
        checkThread("isIPv6")
        return socket6 >= 0
    }

    /// The largest datagram a receive takes (`maxReceiveBufferSize`, default 9216). A larger one is
    /// reported as `EMSGSIZE` to ``RunLoopUdpSocketDelegate/onUdpSocket(_:didNotReceiveDataWithTag:dueToError:)``
    /// and dropped, never cut short.
    public var maxReceiveBufferSize: UInt32 {
        get {
            checkThread("maxReceiveBufferSize")
            return maxReceive
        }
        set {
            checkThread("setMaxReceiveBufferSize(_:)")
            maxReceive = newValue
        }
    }

    /// The numeric local address of the IPv4 socket, else of the IPv6 one, once bound (by a bind, a
    /// connect or a send): `nil` before (`localHost`).
    public var localHost: String? {
        checkThread("localHost")
        return localAddress?.host
    }

    /// The local port, once bound; 0 before (`localPort`).
    public var localPort: UInt16 {
        checkThread("localPort")
        return localAddress?.port ?? 0
    }

    /// The numeric address of the connected peer; `nil` when not connected (`connectedHost`).
    public var connectedHost: String? {
        checkThread("connectedHost")
        return cachedPeer?.host
    }

    /// The connected peer's port; 0 when not connected (`connectedPort`).
    public var connectedPort: UInt16 {
        checkThread("connectedPort")
        return cachedPeer?.port ?? 0
    }

    /// The path MTU the kernel knows for the connected peer (`IP_MTU` / `IPV6_MTU`); 0 when not
    /// connected or unknown (`maximumTransmissionUnit`; the original asked the interface and, by a
    /// bug, usually answered 0).
    public var maximumTransmissionUnit: UInt {
        checkThread("maximumTransmissionUnit")
        guard didConnect, !closed else { return 0 }
        let (fd, level, name) =
            socket4 >= 0 ? (socket4, Int32(IPPROTO_IP), IP_MTU) : (socket6, Int32(IPPROTO_IPV6), IPV6_MTU)
        var mtu: Int32 = 0
        var length = socklen_t(MemoryLayout<Int32>.size)
        guard fd >= 0, getsockopt(fd, level, name, &mtu, &length) == 0, mtu > 0 else { return 0 }
        return UInt(mtu)
    }

    /// The local address, cached once the socket is bound.
    private var localAddress: SocketAddress? {
        // A connect binds too (the original did not mark it bound, so a bind after it names the connect).
        if cachedLocal == nil, didBind || didConnect {
            cachedLocal = socket4 >= 0 ? SocketOps.localAddress(socket4) : SocketOps.localAddress(socket6)
        }
        return cachedLocal
    }

    /// The socket's loop.
    ///
    /// Original: none; AsyncUdpSocket has no counterpart.
    public var runLoop: EventRunLoop { loop }

    /// The open descriptors (IPv4 first), for tests.
    package var descriptors: [Int32] {
        checkThread("descriptors")
        return [socket4, socket6].filter { $0 >= 0 }
    }

    /// "RunLoopUdpSocket(IPv4: fd 5, IPv6: fd 6, bound, …)".
    ///
    /// Original: `description`, which every Objective-C object has; the text differs.
    public var description: String {
        var parts: [String] = []
        parts.append(socket4 >= 0 ? "IPv4: fd \(socket4)" : "IPv4: closed")
        parts.append(socket6 >= 0 ? "IPv6: fd \(socket6)" : "IPv6: closed")
        if didBind { parts.append("bound") }
        if didConnect { parts.append("connected") }
        if closed { parts.append("closed") }
        if engine == .queueCore { parts.append("queue-core") }
        return "RunLoopUdpSocket(\(parts.joined(separator: ", ")))"
    }
}
