import AsyncSocketCore
import CLibevent
import Foundation
import Logging

// Name resolution with libevent's evdns, off every socket's loop: one resolver thread owns the
// evdns base (evdns is not thread-safe), and each answer is handed back to the asking loop with
// perform, in the asker's modes. A loop never blocks on a lookup.

/// Resolves host names to addresses asynchronously with evdns.
///
/// ``system`` reads `/etc/resolv.conf` and `/etc/hosts`. A resolver made with
/// ``init(nameservers:hostsFile:timeout:logger:)`` asks only the given servers (tests point one at a small
/// DNS responder on 127.0.0.1). Numeric addresses never reach a server.
public final class HostResolver: @unchecked Sendable {
    // @unchecked Sendable: `base`, the only variable, is touched only on the worker's thread
    // (lookups reach it by `perform`); everything else is `let`.
    /// The resolver configured from `/etc/resolv.conf` and `/etc/hosts`.
    public static let system = HostResolver(kind: .system, logger: nil)

    private enum Kind {
        case system
        case custom(nameservers: [String], hostsFile: String?, timeout: TimeInterval)
    }

    private let worker: EventRunLoopThread
    /// Touched only on the worker's thread.
    private var base: OpaquePointer?
    private let setupError: String?

    /// A resolver configured from `/etc/resolv.conf` and `/etc/hosts`, like ``system``, whose
    /// libevent messages (a nameserver that stopped answering, say) go to `logger`.
    public convenience init(logger: Logger?) {
        self.init(kind: .system, logger: logger)
    }

    /// A resolver asking only `nameservers` ("127.0.0.1:5353", "[::1]:53"), after `hostsFile` when
    /// given, waiting `timeout` seconds per attempt (two attempts). libevent's messages about the
    /// servers ("Nameserver … has failed") go to `logger`, or nowhere when it is `nil`.
    public convenience init(
        nameservers: [String], hostsFile: String? = nil, timeout: TimeInterval = 1, logger: Logger? = nil
    ) {
        self.init(kind: .custom(nameservers: nameservers, hostsFile: hostsFile, timeout: timeout), logger: logger)
    }

    private init(kind: Kind, logger: Logger?) {
        worker = EventRunLoopThread(name: "HostResolver")
        let result = Lock<(SendableBase?, String?)>((nil, nil))
        let ready = DispatchSemaphore(value: 0)
        let loop = worker.loop
        loop.perform {
            loop.logger = logger
            let (base, error) = Self.makeBase(kind: kind, loop: loop)
            result.withLock { $0 = (SendableBase(base), error) }
            ready.signal()
        }
        ready.wait()
        (base, setupError) = result.withLock { ($0.0?.pointer, $0.1) }
    }

    deinit {
        let worker = self.worker
        if let base = SendableBase(base) {
            worker.loop.perform { evdns_base_free(base.pointer, 1) }
        }
        if worker.loop.isCurrent {
            // The last reference went away on the resolver's own thread (a lookup's completion released
            // the socket that held it): a thread cannot join itself, so another one ends it.
            DispatchQueue.global().async { worker.terminate() }
        } else {
            worker.terminate()
        }
    }

    private static func makeBase(kind: Kind, loop: EventRunLoop) -> (OpaquePointer?, String?) {
        let eventBase = loop.context(for: .default).base
        switch kind {
        case .system:
            let flags = EVDNS_BASE_INITIALIZE_NAMESERVERS | EVDNS_BASE_DISABLE_WHEN_INACTIVE
            guard let base = evdns_base_new(eventBase, flags) else { return (nil, "evdns_base_new failed") }
            return (base, nil)
        case .custom(let nameservers, let hostsFile, let timeout):
            guard let base = evdns_base_new(eventBase, EVDNS_BASE_DISABLE_WHEN_INACTIVE) else {
                return (nil, "evdns_base_new failed")
            }
            for server in nameservers where evdns_base_nameserver_ip_add(base, server) != 0 {
                evdns_base_free(base, 0)
                return (nil, "bad nameserver address \(server)")
            }
            _ = evdns_base_set_option(base, "timeout:", String(timeout))
            _ = evdns_base_set_option(base, "attempts:", "2")
            if let hostsFile {
                _ = evdns_base_load_hosts(base, hostsFile)
            }
            return (base, nil)
        }
    }

    /// Looks `host` up (IPv4 and IPv6, TCP) and calls `completion` on the resolver's thread with the
    /// addresses, each with `port`, or with a `kCFStreamErrorDomainNetDB` error.
    /// `onlyConfiguredFamilies` asks only for the families this host has a non-loopback address of
    /// (`AI_ADDRCONFIG`, right for connecting); a lookup for its own sake asks for both.
    func resolve(
        _ host: String, port: UInt16, onlyConfiguredFamilies: Bool = true,
        completion: @escaping @Sendable (Result<[SocketAddress], NSError>) -> Void
    ) {
        if let numeric = SocketAddress.numeric(host, port: port) {
            completion(.success([numeric]))
            return
        }
        worker.loop.perform { [self] in
            guard let base else {
                completion(.failure(SystemError.netDB(evutilCode: EVUTIL_EAI_FAIL, resolverSetupError: setupError)))
                return
            }
            var hints = addrinfo()
            hints.ai_family = AF_UNSPEC
            hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
            hints.ai_flags = onlyConfiguredFamilies ? EVUTIL_AI_ADDRCONFIG : 0
            let request = Unmanaged.passRetained(PendingLookup(port: port, completion: completion)).toOpaque()
            // The callback may run before this call returns (hosts file, cached answers).
            _ = evdns_getaddrinfo(base, host, nil, &hints, lookupFinished, request)
        }
    }
}

private struct SendableBase: @unchecked Sendable {
    // @unchecked Sendable: the evdns base is used only on the worker's thread; other threads only
    // carry the pointer there.
    let pointer: OpaquePointer
    init?(_ pointer: OpaquePointer?) {
        guard let pointer else { return nil }
        self.pointer = pointer
    }
}

private final class PendingLookup {
    let port: UInt16
    let completion: @Sendable (Result<[SocketAddress], NSError>) -> Void

    init(port: UInt16, completion: @escaping @Sendable (Result<[SocketAddress], NSError>) -> Void) {
        self.port = port
        self.completion = completion
    }
}

private func lookupFinished(
    _ result: Int32, _ list: UnsafeMutablePointer<addrinfo>?, _ argument: UnsafeMutableRawPointer?
) {
    guard let argument else { return }
    let lookup = Unmanaged<PendingLookup>.fromOpaque(argument).takeRetainedValue()
    defer {
        if let list {
            evutil_freeaddrinfo(list)
        }
    }
    guard result == 0 else {
        // evdns numbers its failures as libevent does; the error carries glibc's EAI_ value and text.
        lookup.completion(.failure(SystemError.netDB(evutilCode: result)))
        return
    }
    var addresses: [SocketAddress] = []
    var node = list
    while let current = node {
        if let address = current.pointee.ai_addr {
            var socketAddress = SocketAddress(pointer: address, length: socklen_t(current.pointee.ai_addrlen))
            if socketAddress.isIP && !addresses.contains(socketAddress) {
                socketAddress.port = lookup.port
                addresses.append(socketAddress)
            }
        }
        node = current.pointee.ai_next
    }
    if addresses.isEmpty {
        lookup.completion(
            .failure(SystemError.netDB(evutilCode: EVUTIL_EAI_NONAME, message: "The name has no IPv4 or IPv6 address")))
    } else {
        lookup.completion(.success(addresses))
    }
}

extension HostResolver {
    /// Looks `host` up asynchronously and answers on `loop`'s thread, in `modes`: the run-loop
    /// `CFHost` lookup of ported code (`CFHostStartInfoResolution` with `CFHostScheduleWithRunLoop`).
    ///
    /// The answer is every IPv4 and IPv6 address found, as `sockaddr` bytes with `port` (ready for
    /// ``RunLoopSocket/connectToAddress(_:viaInterfaceAddress:withTimeout:)``), or a
    /// `kCFStreamErrorDomainNetDB` error. It arrives in a later pass of the loop, never inside this
    /// call, even for a numeric address. Call it on `loop`'s thread (the loop that will run
    /// `completion`); the lookup itself runs on the resolver's own thread, so the loop never blocks.
    public func lookup(
        _ host: String, port: UInt16 = 0, on loop: EventRunLoop = .current, modes: [RunLoopMode] = [.default],
        completion: @escaping (Result<[Data], NSError>) -> Void
    ) {
        loop.checkThread("HostResolver.lookup(_:port:on:modes:completion:)")
        // Until it answers, the lookup is something in its modes (a CFHost scheduled on the loop
        // was a source there), so a run waiting for it does not find the mode empty and return.
        let presence = loop.addReusableTimer(modes: modes) { _ in }
        let box = LookupCompletion { result in
            presence.invalidate()
            completion(result)
        }
        if let reason = HostNames.invalidReason(host) {
            let error = SystemError.netDB(EAI_NONAME, message: "Invalid host name: \(reason)")
            loop.perform(inModes: modes) { box.completion(.failure(error)) }
            return
        }
        resolve(host, port: port, onlyConfiguredFamilies: false) { result in
            let answer = result.map { $0.map(\.data) }
            loop.perform(inModes: modes) { box.completion(answer) }
        }
    }
}

/// A lookup's completion, carried to the resolver's thread and back; it only ever runs on the loop
/// thread that asked (``HostResolver/lookup(_:port:on:modes:completion:)`` checks it is called there).
private struct LookupCompletion: @unchecked Sendable {
    let completion: (Result<[Data], NSError>) -> Void
    init(_ completion: @escaping (Result<[Data], NSError>) -> Void) {
        self.completion = completion
    }
}
