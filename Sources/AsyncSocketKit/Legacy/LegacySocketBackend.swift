import AsyncSocketCore
import Foundation
import Logging

/// What a ``RunLoopSocket`` does its work with: the native libevent engine, (for migration) the
/// queue core, or AsyncSocketTesting's embedded connection. The public class only checks arguments it
/// owns and forwards here; each backend gives the same legacy behavior.
package protocol LegacySocketBackend: AnyObject {
    /// The public socket, passed to delegate calls. Backends hold it `unowned(unsafe)`, never
    /// `weak`: one weak reference gives the object a side table, after which every retain and
    /// release of it takes the runtime's slow path (a tenth of a line echo's time,
    /// Benchmarks/PROFILE.md). Safe because the socket sets it in its init and clears it in its
    /// deinit (``ownerDidGoAway()``), and a backend reads it only inside a call the socket makes
    /// (its caller holds it), into the strong reference it keeps while started, or while started
    /// without that reference, which happens only inside the accept sequence (it holds the new
    /// socket). So it is never read while nothing holds the socket, the only time its deinit can
    /// run.
    var owner: RunLoopSocket? { get set }
    /// The user's logger, if one was given.
    var logger: Logger? { get }
    /// What the socket's log lines carry now (SocketLogMetadata.swift); on the loop's thread.
    var logMetadata: SocketLogMetadata { get }
    /// Inside `onSocket(_:willDisconnectWithError:)`: the socket is closing and takes no new work.
    var isClosingWithError: Bool { get }

    /// Stops the program when called off the socket's loop thread (skipped while it has no loop).
    func checkThread(_ call: StaticString)

    func acceptOnInterface(_ interface: String?, port: UInt16) throws
    /// The next accept's listeners set SO_REUSEPORT (``RunLoopSocket/reusesPort``).
    var reusesPort: Bool { get set }
    func connectToHost(_ host: String, port: UInt16, timeout: TimeInterval) throws
    func connectToAddress(_ address: Data, viaInterface interface: Data?, timeout: TimeInterval) throws

    func disconnect()
    func disconnectAfter(reading: Bool, writing: Bool)

    func read(_ request: ReadRequest)
    func write(_ data: Data, timeout: TimeInterval, tag: Int)
    func startTLS(_ settings: Any)
    var isSecure: Bool { get }
    var negotiatedALPN: String? { get }

    var readProgress: TransferProgress { get }
    var writeProgress: TransferProgress { get }
    /// What the socket holds (``RunLoopSocket/queuedWriteBytes`` and the others).
    var queueSizes: QueueSizes { get }
    /// The write queue's watermarks: the engine's, or kept until the backend makes one.
    var writeMarks: WriteMarks? { get set }
    /// The most bytes a read to a separator holds before its separator (0: no limit), as `writeMarks`.
    var maxPrebufferSize: Int { get set }
    var canSafelySetDelegate: Bool { get }
    func enablePreBuffering()
    func unreadData() -> Data?

    func moveToRunLoop(_ loop: EventRunLoop) -> Bool
    func setRunLoopModes(_ modes: [RunLoopMode]) -> Bool
    var runLoopModes: [RunLoopMode] { get }
    var runLoop: EventRunLoop? { get }

    var isConnected: Bool { get }
    var connectedAddress: SocketAddress? { get }
    var localAddress: SocketAddress? { get }
    var isIPv4: Bool { get }
    var isIPv6: Bool { get }
    var socketFD: Int32 { get }
    var socket4FD: Int32 { get }
    var socket6FD: Int32 { get }
    var stateDescription: String { get }

    /// The public object is being destroyed: let go of anything that refers back to the backend.
    func ownerDidGoAway()
}

extension LegacySocketBackend {
    package func checkThread(_ call: StaticString) {
        guard let loop = runLoop, !loop.isCurrent else { return }
        let caller = ThreadDescription.current()
        let owner = ThreadDescription(thread: loop.ownerThread, threadID: loop.ownerThreadID)
        fatalError(
            "RunLoopSocket.\(call) called on thread \(caller), but the socket belongs to the run loop of "
                + "thread \(owner); use it on that thread only (EventRunLoop.perform reaches it)")
    }
}

extension LegacySocketBackend {
    /// Sets `options` on the connected descriptor (the socket queue keeps it open while the loop sees the
    /// socket connected); the usage error when there is none.
    func setOptions(_ options: TCPSocketOptions) throws {
        let fd = socketFD
        guard isConnected, fd >= 0 else {
            throw AsyncSocketUsageError("Attempting to set TCP options while not connected. Connect first.")
        }
        try options.apply(to: fd)
    }

    /// Throws the usage error a connect or accept (`verb`) meets without a delegate, or on a socket
    /// already `started`.
    package func checkCanStart(_ verb: String, started: Bool) throws {
        guard owner?.delegateForCallbacks != nil else {
            throw AsyncSocketUsageError("Attempting to \(verb) without a delegate. Set a delegate first.")
        }
        guard !started else {
            throw AsyncSocketUsageError(
                "Attempting to \(verb) while connected or accepting connections. Disconnect first.")
        }
    }

    /// The remote address and optional interface of `connectToAddress`, or the legacy error naming
    /// which of the two is not IPv4 or IPv6.
    package static func connectAddresses(_ addressData: Data, interface interfaceData: Data?) throws -> (
        address: SocketAddress, interface: SocketAddress?
    ) {
        guard let address = SocketAddress(data: addressData), address.isIP else {
            throw AsyncSocketError(.socketError, message: "Remote address is not IPv4 or IPv6")
        }
        guard let interfaceData else { return (address, nil) }
        guard let interface = SocketAddress(data: interfaceData), interface.isIP else {
            throw AsyncSocketError(.socketError, message: "Interface address is not IPv4 or IPv6")
        }
        return (address, interface)
    }

    /// A non-blocking stream socket for `address`'s family, bound to `interface` when one is given.
    static func makeConnectingSocket(for address: SocketAddress, boundTo interface: SocketAddress?) throws -> Int32 {
        let socket: Int32
        switch SocketOps.makeStreamSocket(family: address.family) {
        case .success(let created): socket = created
        case .failure(let error):
            throw AsyncSocketError(.socketError, message: error.localizedDescription, underlying: error)
        }
        if let interface, let code = SocketOps.bind(socket, to: interface) {
            close(socket)
            throw SystemError.posix(code, "bind")
        }
        return socket
    }
}

extension LegacySocketBackend {
    /// Logs `message` through the user's logger, if any, with the socket's metadata; on the loop's
    /// thread.
    package func log(
        _ level: Logger.Level, _ message: @autoclosure () -> Logger.Message, tag: Int? = nil,
        _ extra: @autoclosure () -> Logger.Metadata = [:]
    ) {
        logger?.log(
            level: level, message(),
            metadata: {
                var metadata = logMetadata
                metadata.tag = tag
                return metadata.metadata(extra())
            }())
    }
}
