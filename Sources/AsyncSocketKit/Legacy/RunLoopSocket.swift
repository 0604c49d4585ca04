import AsyncSocketCore
import Foundation
import Logging

/// The run-loop `AsyncSocket` of CocoaAsyncSocket (the final 7.4.x class), in Swift on Linux.
///
/// Every selector of the original has a Swift spelling here, and behaves as the original did: the
/// same callbacks in the same order on the socket's ``EventRunLoop`` and in its ``RunLoopMode``s,
/// the same queues, timeouts, prebuffering and `unreadData`, the same error domain and codes
/// (``AsyncSocketError``). Where this class deliberately differs, `Migration/README.md` says so.
///
/// A socket belongs to the loop of the thread that connected or accepted with it (or the one given
/// to ``moveToRunLoop(_:)``) and must be used on that thread; a call from another thread stops the
/// program with a message naming the call and both threads.
///
/// While started (connecting, connected or listening) a socket stays alive by itself, so no callback
/// is lost; it lets go once it has disconnected.
///
/// Reads, writes and `startTLS` queued after a connect call returned wait for the
/// connection: their timeouts start once connected, and they run after
/// ``RunLoopSocketDelegate/onSocket(_:didConnectToHost:port:)`` (a read may complete in the same
/// pass). A failed connect drops them without a callback for any of them. Queued before a connect or
/// accept call, they are discarded by that call, as in the original.
public final class RunLoopSocket: @unchecked Sendable, CustomStringConvertible {
    // @unchecked Sendable: its variables are touched only on the thread of the socket's loop (each
    // call checks the thread and stops the program otherwise); `backend` is `let`.
    /// What does the socket's I/O (chosen at creation; the legacy behavior is the same with both).
    ///
    /// Original: none; AsyncSocket has no counterpart.
    public enum Engine: String, Sendable, Codable, CaseIterable, CustomStringConvertible {
        /// Non-blocking descriptors watched by the socket's `EventRunLoop` (the default).
        case native
        /// A ``QueueSocket`` does the I/O on its queue; callbacks are carried to the socket's loop and
        /// given legacy semantics. The step between a ported program and ``QueueSocket``.
        case queueCore = "queue-core"

        /// "native" or "queue-core".
        public var description: String { rawValue }
    }

    package let backend: any LegacySocketBackend
    /// The engine the socket was made with.
    ///
    /// Original: none; AsyncSocket has no counterpart.
    public let engine: Engine
    private weak var storedDelegate: (any RunLoopSocketDelegate)?
    /// A listener's: the open connections it accepted, for a graceful shutdown; an accepted socket's:
    /// its listener's, which it leaves when its close is reported (ConnectionTracker.swift).
    package var tracker: ConnectionTracker?
    private var storedUserData: Int

    /// A socket with `delegate` (held weakly) and `userData` (`initWithDelegate:userData:`).
    ///
    /// `preBuffering` stands in for the original's compile-time `DEFAULT_PREBUFFERING` (`nil`: use
    /// ``defaultPreBuffering``); with it off, reads to a separator never take a byte past it.
    /// `engine` chooses what does the I/O (``Engine/native`` or ``Engine/queueCore``).
    /// `resolver` looks up host names for ``connectToHost(_:onPort:withTimeout:)`` (`nil`:
    /// ``HostResolver/system``, started on first use); `logger` receives the socket's lines (lifecycle
    /// at `.debug`, misuse and ignored calls at `.warning`); `metrics` counts what it does
    /// (``SocketMetrics``; `nil`: nothing is counted), and so do the sockets it accepts.
    public init(
        delegate: (any RunLoopSocketDelegate)? = nil, userData: Int = 0, preBuffering: Bool? = nil,
        engine: Engine = .native, resolver: HostResolver? = nil, logger: Logger? = nil,
        metrics: SocketMetrics? = nil
    ) {
        storedDelegate = delegate
        storedUserData = userData
        self.engine = engine
        let preBuffering = preBuffering ?? Self.defaultPreBuffering
        switch engine {
        case .native:
            let native = NativeSocketBackend(resolver: resolver, logger: logger, metrics: metrics)
            native.engine.configuration.prebuffering = preBuffering
            backend = native
        case .queueCore:
            backend = QueueCoreBackend(
                resolver: resolver, logger: logger, metrics: metrics, preBuffering: preBuffering)
        }
        backend.owner = self
    }

    /// A socket on `backend` (AsyncSocketTesting's embedded connection), reporting `engine`.
    package init(
        delegate: (any RunLoopSocketDelegate)?, userData: Int = 0, engine: Engine, backend: any LegacySocketBackend
    ) {
        storedDelegate = delegate
        storedUserData = userData
        self.engine = engine
        self.backend = backend
        backend.owner = self
    }

    deinit {
        tracker?.remove(self)
        backend.ownerDidGoAway()
    }

    /// Whether new sockets, accepted ones included, start with prebuffering on: the original's
    /// compile-time `DEFAULT_PREBUFFERING` (`true`).
    public static var defaultPreBuffering: Bool {
        get { preBufferingDefault.withLock { $0 } }
        set { preBufferingDefault.withLock { $0 = newValue } }
    }

    private static let preBufferingDefault = Lock(true)

    /// The delegate, held weakly. Completions go to whoever is the delegate when they happen.
    ///
    /// Original: `delegate` (AsyncSocket).
    public var delegate: (any RunLoopSocketDelegate)? {
        get {
            checkThread("delegate")
            return storedDelegate
        }
        set {
            checkThread("setDelegate(_:)")
            storedDelegate = newValue
        }
    }

    /// The delegate for a callback the backend is making on the socket's thread (no thread check).
    package var delegateForCallbacks: (any RunLoopSocketDelegate)? { storedDelegate }

    /// `true` when nothing is queued or in progress, so a new delegate would not receive completions
    /// of work queued under the old one.
    ///
    /// Original: `canSafelySetDelegate` (AsyncSocket).
    public var canSafelySetDelegate: Bool {
        checkThread("canSafelySetDelegate")
        return backend.canSafelySetDelegate
    }

    /// A number for the application's own use.
    ///
    /// Original: `userData` (AsyncSocket).
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

    func checkThread(_ call: StaticString) {
        backend.checkThread(call)
    }

    // MARK: Accepting

    /// Listens on `port` on every IPv4 and IPv6 interface (`acceptOnPort:error:`); port 0 picks one
    /// free port for both.
    public func acceptOnPort(_ port: UInt16) throws {
        try acceptOnInterface(nil, port: port)
    }

    /// Whether the listeners of the next `acceptOnInterface(_:port:)` set `SO_REUSEPORT` (default
    /// `false`; beyond the original): other sockets of the same user that set it too may listen on the
    /// same port (another loop, another process), and the kernel spreads the incoming connections over
    /// them. Kept across a disconnect.
    public var reusesPort: Bool {
        get {
            checkThread("reusesPort")
            return backend.reusesPort
        }
        set {
            checkThread("reusesPort")
            backend.reusesPort = newValue
        }
    }

    /// Listens on `interface` (`acceptOnInterface:port:error:`): `nil` or "" for every interface,
    /// "localhost"/"loopback" for both loopback addresses, a numeric address, or a name whose first
    /// IPv4 and IPv6 addresses are used.
    ///
    /// Throws ``AsyncSocketUsageError`` without a delegate or when not disconnected, an
    /// ``AsyncSocketError`` with code `socketError` when a listener cannot be created (a busy port
    /// among them; the POSIX error is its `underlying`), or a name-resolution `NSError`.
    public func acceptOnInterface(_ interface: String?, port: UInt16) throws {
        try backend.acceptOnInterface(interface, port: port)
    }

    /// The 4.x spelling of ``acceptOnInterface(_:port:)`` (`acceptOnAddress:port:error:`).
    public func acceptOnAddress(_ address: String?, port: UInt16) throws {
        try acceptOnInterface(address, port: port)
    }

    // MARK: Connecting

    /// Connects to `host` (a name or a numeric address) without a timeout.
    ///
    /// Original: `connectToHost:onPort:error:` (AsyncSocket).
    public func connectToHost(_ host: String, onPort port: UInt16) throws {
        try connectToHost(host, onPort: port, withTimeout: -1)
    }

    /// Connects to `host` (`connectToHost:onPort:withTimeout:error:`). Names are resolved
    /// asynchronously; every address is tried. `onSocketWillConnect` runs inside this call.
    /// A negative timeout means none.
    ///
    /// Throws ``AsyncSocketUsageError`` without a delegate or when not disconnected, an
    /// ``AsyncSocketError`` `canceled` when the delegate vetoes, or a name-resolution `NSError` for a
    /// malformed host. Later failures arrive as `onSocket(_:willDisconnectWithError:)`.
    public func connectToHost(_ host: String, onPort port: UInt16, withTimeout timeout: TimeInterval) throws {
        try backend.connectToHost(host, port: port, timeout: timeout)
    }

    /// Connects to a `sockaddr` in `address` without a timeout.
    ///
    /// Original: `connectToAddress:error:` (AsyncSocket).
    public func connectToAddress(_ address: Data) throws {
        try connectToAddress(address, viaInterfaceAddress: nil, withTimeout: -1)
    }

    /// Connects to a `sockaddr` in `address` with a timeout.
    ///
    /// Original: `connectToAddress:withTimeout:error:` (AsyncSocket).
    public func connectToAddress(_ address: Data, withTimeout timeout: TimeInterval) throws {
        try connectToAddress(address, viaInterfaceAddress: nil, withTimeout: timeout)
    }

    /// Connects to a `sockaddr` in `address`, binding first to `interfaceAddress` when given
    /// (`connectToAddress:viaInterfaceAddress:withTimeout:error:`).
    public func connectToAddress(
        _ address: Data, viaInterfaceAddress interfaceAddress: Data?, withTimeout timeout: TimeInterval
    ) throws {
        try backend.connectToAddress(address, viaInterface: interfaceAddress, timeout: timeout)
    }

    // MARK: Disconnecting

    /// Closes at once, dropping queued reads and writes. A started socket tells its delegate
    /// `onSocketDidDisconnect` before this call returns (never `willDisconnectWithError`).
    ///
    /// Original: `disconnect` (AsyncSocket).
    public func disconnect() {
        backend.disconnect()
    }

    /// Disconnects once every queued read has finished; later reads and writes are ignored.
    ///
    /// Original: `disconnectAfterReading` (AsyncSocket).
    public func disconnectAfterReading() {
        checkThread("disconnectAfterReading()")
        backend.disconnectAfter(reading: true, writing: false)
    }

    /// Disconnects once every queued write has finished; later reads and writes are ignored.
    ///
    /// Original: `disconnectAfterWriting` (AsyncSocket).
    public func disconnectAfterWriting() {
        checkThread("disconnectAfterWriting()")
        backend.disconnectAfter(reading: false, writing: true)
    }

    /// Disconnects once every queued read and write has finished.
    ///
    /// Original: `disconnectAfterReadingAndWriting` (AsyncSocket).
    public func disconnectAfterReadingAndWriting() {
        checkThread("disconnectAfterReadingAndWriting()")
        backend.disconnectAfter(reading: true, writing: true)
    }

    // MARK: Reading

    /// Reads whatever is available, at least one byte (`readDataWithTimeout:tag:`).
    public func readData(withTimeout timeout: TimeInterval, tag: Int) {
        read(.available(maxLength: 0), buffer: nil, offset: 0, timeout: timeout, tag: tag, "readData(withTimeout:tag:)")
    }

    /// Reads whatever is available into `buffer` from `offset` on.
    ///
    /// Original: `readDataWithTimeout:buffer:bufferOffset:tag:` (AsyncSocket).
    public func readData(withTimeout timeout: TimeInterval, buffer: NSMutableData?, bufferOffset offset: Int, tag: Int)
    {
        read(
            .available(maxLength: 0), buffer: buffer, offset: offset, timeout: timeout, tag: tag,
            "readData(withTimeout:buffer:bufferOffset:tag:)")
    }

    /// Reads whatever is available, at most `maxLength` bytes (0: no limit), into `buffer`.
    ///
    /// Original: `readDataWithTimeout:buffer:bufferOffset:maxLength:tag:` (AsyncSocket).
    public func readData(
        withTimeout timeout: TimeInterval, buffer: NSMutableData?, bufferOffset offset: Int, maxLength: Int, tag: Int
    ) {
        read(
            .available(maxLength: maxLength), buffer: buffer, offset: offset, timeout: timeout, tag: tag,
            "readData(withTimeout:buffer:bufferOffset:maxLength:tag:)")
    }

    /// Reads exactly `length` bytes (`readDataToLength:withTimeout:tag:`); 0 is ignored.
    public func readData(toLength length: Int, withTimeout timeout: TimeInterval, tag: Int) {
        read(.length(length), buffer: nil, offset: 0, timeout: timeout, tag: tag, "readData(toLength:withTimeout:tag:)")
    }

    /// Reads exactly `length` bytes into `buffer` from `offset` on.
    ///
    /// Original: `readDataToLength:withTimeout:buffer:bufferOffset:tag:` (AsyncSocket).
    public func readData(
        toLength length: Int, withTimeout timeout: TimeInterval, buffer: NSMutableData?, bufferOffset offset: Int,
        tag: Int
    ) {
        read(
            .length(length), buffer: buffer, offset: offset, timeout: timeout, tag: tag,
            "readData(toLength:withTimeout:buffer:bufferOffset:tag:)")
    }

    /// Reads up to and including `data` (`readDataToData:withTimeout:tag:`); an empty separator is ignored.
    public func readData(to data: Data, withTimeout timeout: TimeInterval, tag: Int) {
        readToData(
            data, timeout: timeout, buffer: nil, offset: 0, maxLength: 0, tag: tag, "readData(to:withTimeout:tag:)")
    }

    /// Reads up to and including `data` into `buffer` from `offset` on.
    ///
    /// Original: `readDataToData:withTimeout:buffer:bufferOffset:tag:` (AsyncSocket).
    public func readData(
        to data: Data, withTimeout timeout: TimeInterval, buffer: NSMutableData?, bufferOffset offset: Int, tag: Int
    ) {
        readToData(
            data, timeout: timeout, buffer: buffer, offset: offset, maxLength: 0, tag: tag,
            "readData(to:withTimeout:buffer:bufferOffset:tag:)")
    }

    /// Reads up to and including `data`, failing with `readMaxedOut` past `maxLength` bytes (0: none).
    ///
    /// Original: `readDataToData:withTimeout:maxLength:tag:` (AsyncSocket).
    public func readData(to data: Data, withTimeout timeout: TimeInterval, maxLength: Int, tag: Int) {
        readToData(
            data, timeout: timeout, buffer: nil, offset: 0, maxLength: maxLength, tag: tag,
            "readData(to:withTimeout:maxLength:tag:)")
    }

    /// Reads up to and including `data` into `buffer`, failing past `maxLength` bytes (0: none).
    ///
    /// Original: `readDataToData:withTimeout:buffer:bufferOffset:maxLength:tag:` (AsyncSocket).
    public func readData(
        to data: Data, withTimeout timeout: TimeInterval, buffer: NSMutableData?, bufferOffset offset: Int,
        maxLength: Int, tag: Int
    ) {
        readToData(
            data, timeout: timeout, buffer: buffer, offset: offset, maxLength: maxLength, tag: tag,
            "readData(to:withTimeout:buffer:bufferOffset:maxLength:tag:)")
    }

    private var lastSeparator: [UInt8] = []

    private func readToData(
        _ data: Data, timeout: TimeInterval, buffer: NSMutableData?, offset: Int, maxLength: Int, tag: Int,
        _ call: StaticString
    ) {
        // Reuse the last separator's bytes when it is the same (the usual case): no copy per read.
        let same =
            lastSeparator.count == data.count
            && data.withUnsafeBytes { new in lastSeparator.withUnsafeBytes { $0.elementsEqual(new) } }
        if !same {
            lastSeparator = Array(data)
        }
        read(
            .separator(lastSeparator, maxLength: maxLength), buffer: buffer, offset: offset, timeout: timeout,
            tag: tag, call)
    }

    private func read(
        _ kind: ReadKind, buffer: NSMutableData?, offset: Int, timeout: TimeInterval, tag: Int, _ call: StaticString
    ) {
        checkThread(call)
        guard !refusedWhileClosing(call) else { return }
        backend.read(ReadRequest(kind: kind, buffer: buffer, bufferOffset: offset, timeout: timeout, tag: tag))
    }

    // MARK: Writing

    /// Queues `data` for writing (`writeData:withTimeout:tag:`); the data is kept, not copied. Empty
    /// data is ignored.
    public func write(_ data: Data, withTimeout timeout: TimeInterval, tag: Int) {
        checkThread("write(_:withTimeout:tag:)")
        guard !refusedWhileClosing("write(_:withTimeout:tag:)") else { return }
        backend.write(data, timeout: timeout, tag: tag)
    }

    /// Reads, writes and TLS queued inside `onSocket(_:willDisconnectWithError:)` are dropped, as the
    /// original's full close that follows dropped them, with a warning saying so.
    private func refusedWhileClosing(_ call: StaticString) -> Bool {
        guard backend.isClosingWithError else { return false }
        backend.log(.warning, "\(call) inside onSocket(_:willDisconnectWithError:) ignored: the socket is closing")
        return true
    }

    // MARK: Progress

    /// The current read's progress (`progressOfReadReturningTag:bytesDone:total:`): NaN with zeros
    /// when no read is in progress (or at a TLS marker), 1.0 for reads without a length.
    public func progressOfRead(
        returningTag tag: UnsafeMutablePointer<Int>?, bytesDone: UnsafeMutablePointer<Int>?,
        total: UnsafeMutablePointer<Int>?
    ) -> Float {
        checkThread("progressOfRead(returningTag:bytesDone:total:)")
        return Self.report(backend.readProgress, tag, bytesDone, total)
    }

    /// The current write's progress (`progressOfWriteReturningTag:bytesDone:total:`).
    public func progressOfWrite(
        returningTag tag: UnsafeMutablePointer<Int>?, bytesDone: UnsafeMutablePointer<Int>?,
        total: UnsafeMutablePointer<Int>?
    ) -> Float {
        checkThread("progressOfWrite(returningTag:bytesDone:total:)")
        return Self.report(backend.writeProgress, tag, bytesDone, total)
    }

    /// The current read's progress as values: the fraction is NaN when idle.
    ///
    /// Original: `progressOfReadReturningTag:bytesDone:total:` (AsyncSocket), as one value.
    public var readProgress: (tag: Int, bytesDone: Int, total: Int, fraction: Float) {
        checkThread("readProgress")
        let progress = backend.readProgress
        return (progress.tag, progress.bytesDone, progress.total, Float(progress.fraction))
    }

    /// The current write's progress as values: the fraction is NaN when idle.
    ///
    /// Original: `progressOfWriteReturningTag:bytesDone:total:` (AsyncSocket), as one value.
    public var writeProgress: (tag: Int, bytesDone: Int, total: Int, fraction: Float) {
        checkThread("writeProgress")
        let progress = backend.writeProgress
        return (progress.tag, progress.bytesDone, progress.total, Float(progress.fraction))
    }

    private static func report(
        _ progress: TransferProgress, _ tag: UnsafeMutablePointer<Int>?, _ bytesDone: UnsafeMutablePointer<Int>?,
        _ total: UnsafeMutablePointer<Int>?
    ) -> Float {
        tag?.pointee = progress.tag
        bytesDone?.pointee = progress.bytesDone
        total?.pointee = progress.total
        return Float(progress.fraction)
    }

    // MARK: TLS, prebuffering, unread data

    /// Queues a TLS marker in both queues (`startTLS:`): reads and writes queued before it run in
    /// plaintext, later ones after `onSocketDidSecure`. `settings` uses the original's keys
    /// (`kCFStreamSSLPeerName`, `kCFStreamSSLIsServer`, `kCFStreamSSLCertificates`, …; see
    /// `TLSSettings.init(legacyDictionary:)`). Settings that cannot be applied — an unknown key
    /// among them — close the socket with ``AsyncSocketError`` −1 naming the problem when the marker
    /// is reached. Each call queues another marker, as in the original.
    public func startTLS(_ settings: [String: Any]?) {
        checkThread("startTLS(_:)")
        guard !refusedWhileClosing("startTLS(_:)") else { return }
        backend.startTLS(settings ?? [:])
    }

    /// Queues a TLS marker with typed settings; otherwise as the dictionary form.
    ///
    /// Original: `startTLS:` (AsyncSocket).
    public func startTLS(_ settings: TLSSettings) {
        checkThread("startTLS(_:)")
        guard !refusedWhileClosing("startTLS(_:)") else { return }
        backend.startTLS(settings)
    }

    /// Whether the TLS handshake has completed (a Swift addition).
    public var isSecure: Bool {
        checkThread("isSecure")
        return backend.isSecure
    }

    /// The ALPN protocol the TLS handshake agreed on, if any (a Swift addition).
    public var negotiatedALPN: String? {
        checkThread("negotiatedALPN")
        return backend.negotiatedALPN
    }

    /// Turns prebuffering on (it is on by default; there is no way to turn it off, as in the original).
    ///
    /// Original: `enablePreBuffering` (AsyncSocket).
    public func enablePreBuffering() {
        checkThread("enablePreBuffering()")
        backend.enablePreBuffering()
    }

    /// Everything received and not delivered — the current read's bytes, then what was read ahead,
    /// then what the socket can still give without blocking — but only inside
    /// `onSocket(_:willDisconnectWithError:)`; `nil` elsewhere. Copy it: it is gone after the close.
    ///
    /// Original: `unreadData` (AsyncSocket).
    public func unreadData() -> Data? {
        checkThread("unreadData()")
        return backend.unreadData()
    }

    // MARK: Run loops and modes

    /// Moves the socket to `runLoop` (`moveToRunLoop:`): `false` for `nil`, `true` otherwise. Call it
    /// on the socket's current loop thread; afterwards every call must be made, and every callback
    /// arrives, on the new loop's thread.
    @discardableResult
    public func moveToRunLoop(_ runLoop: EventRunLoop?) -> Bool {
        guard let runLoop else { return false }
        return backend.moveToRunLoop(runLoop)
    }

    /// Replaces the modes the socket works in (`setRunLoopModes:`): `false` for an empty list.
    @discardableResult
    public func setRunLoopModes(_ modes: [RunLoopMode]) -> Bool {
        backend.setRunLoopModes(modes)
    }

    /// Adds one mode (`addRunLoopMode:`): `false` for `nil`, `true` when already present.
    @discardableResult
    public func addRunLoopMode(_ mode: RunLoopMode?) -> Bool {
        guard let mode else { return false }
        let modes = backend.runLoopModes
        return modes.contains(mode) ? true : backend.setRunLoopModes(modes + [mode])
    }

    /// Removes one mode (`removeRunLoopMode:`): `false` for `nil` or when it is the last mode; `true`
    /// when absent. Unlike the original, the socket really stops being serviced in that mode.
    @discardableResult
    public func removeRunLoopMode(_ mode: RunLoopMode?) -> Bool {
        guard let mode else { return false }
        let modes = backend.runLoopModes
        guard modes.contains(mode) else { return true }
        guard modes.count > 1 else { return false }
        return backend.setRunLoopModes(modes.filter { $0 != mode })
    }

    /// The modes the socket works in; `[.default]` initially.
    ///
    /// Original: `runLoopModes` (AsyncSocket).
    public var runLoopModes: [RunLoopMode] {
        checkThread("runLoopModes")
        return backend.runLoopModes
    }

    /// The loop the socket is scheduled on, or `nil` before connect/accept and after disconnect.
    ///
    /// Original: none; AsyncSocket has no counterpart.
    public var runLoop: EventRunLoop? { backend.runLoop }

    // MARK: Diagnostics

    /// Whether the socket is connected (a listening socket never is).
    ///
    /// Original: `isConnected` (AsyncSocket).
    public var isConnected: Bool {
        checkThread("isConnected")
        return backend.isConnected
    }

    /// The peer's numeric address, or `nil`.
    ///
    /// Original: `connectedHost` (AsyncSocket).
    public var connectedHost: String? {
        checkThread("connectedHost")
        return backend.connectedAddress?.host
    }

    /// The peer's port, or 0.
    ///
    /// Original: `connectedPort` (AsyncSocket).
    public var connectedPort: UInt16 {
        checkThread("connectedPort")
        return backend.connectedAddress?.port ?? 0
    }

    /// The local numeric address, or `nil`.
    ///
    /// Original: `localHost` (AsyncSocket).
    public var localHost: String? {
        checkThread("localHost")
        return backend.localAddress?.host
    }

    /// The local port, or 0.
    ///
    /// Original: `localPort` (AsyncSocket).
    public var localPort: UInt16 {
        checkThread("localPort")
        return backend.localAddress?.port ?? 0
    }

    /// The peer's `sockaddr` bytes, or `nil`.
    ///
    /// Original: `connectedAddress` (AsyncSocket).
    public var connectedAddress: Data? {
        checkThread("connectedAddress")
        return backend.connectedAddress?.data
    }

    /// The local `sockaddr` bytes, or `nil`.
    ///
    /// Original: `localAddress` (AsyncSocket).
    public var localAddress: Data? {
        checkThread("localAddress")
        return backend.localAddress?.data
    }

    /// Whether an IPv4 descriptor exists (a listener may answer `true` for both families).
    ///
    /// Original: `isIPv4` (AsyncSocket).
    public var isIPv4: Bool {
        checkThread("isIPv4")
        return backend.isIPv4
    }

    /// Whether an IPv6 descriptor exists.
    ///
    /// Original: `isIPv6` (AsyncSocket).
    public var isIPv6: Bool {
        checkThread("isIPv6")
        return backend.isIPv6
    }

    /// The descriptor: the connected socket, else the one a connect by address is trying (already in
    /// `onSocketWillConnect`), else the IPv4 listener, else the IPv6 listener; -1 without one (also
    /// during a connect by name until the name is resolved). Inside
    /// `onSocket(_:willDisconnectWithError:)` it is still the open socket. The stand-in for
    /// `getCFSocket`/`getCFReadStream`/`getCFWriteStream`.
    public var socketFD: Int32 { backend.socketFD }

    /// Sets TCP options on the connected socket (``TCPSocketOptions``; beyond the original). Throws
    /// ``AsyncSocketUsageError`` when not connected, the POSIX error for a value refused (and then sets
    /// none of them when the value was checked first; see ``TCPSocketOptions``).
    public func setOptions(_ options: TCPSocketOptions) throws {
        checkThread("setOptions(_:)")
        try backend.setOptions(options)
    }

    /// The IPv4 descriptor (connected or listening), or -1.
    ///
    /// Original: none; AsyncSocket has no counterpart.
    public var socket4FD: Int32 { backend.socket4FD }

    /// The IPv6 descriptor (connected or listening), or -1.
    ///
    /// Original: none; AsyncSocket has no counterpart.
    public var socket6FD: Int32 { backend.socket6FD }

    /// One line: addresses, queued work, progress and state.
    ///
    /// Original: `description` (AsyncSocket).
    public var description: String {
        let address = String(UInt(bitPattern: ObjectIdentifier(self).hashValue), radix: 16)
        return "<RunLoopSocket 0x\(address) \(backend.stateDescription)>"
    }

    // MARK: Separators

    /// CR LF (0x0D 0x0A).
    ///
    /// Original: `CRLFData` (AsyncSocket).
    public static var crlfData: Data { Data([0x0D, 0x0A]) }
    /// CR (0x0D).
    ///
    /// Original: `CRData` (AsyncSocket).
    public static var crData: Data { Data([0x0D]) }
    /// LF (0x0A).
    ///
    /// Original: `LFData` (AsyncSocket).
    public static var lfData: Data { Data([0x0A]) }
    /// One zero byte.
    ///
    /// Original: `ZeroData` (AsyncSocket).
    public static var zeroData: Data { Data([0x00]) }
}
