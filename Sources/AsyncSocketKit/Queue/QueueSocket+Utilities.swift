// CLibevent as well: in a compile batch where HostResolver.swift (which imports it) looks up
// SOCK_STREAM first, Clang files the declaration under CLibevent, and a file without this import
// cannot see it ("cannot find SOCK_STREAM in scope" once AsyncSocketKit has more than 50 files).
import CLibevent
import Foundation

// GCDAsyncSocket's class utilities: synchronous lookup and sockaddr helpers.
extension QueueSocket {
    /// Looks up `host` synchronously (`lookupHost:port:error:`): the `sockaddr` bytes of every IPv4
    /// and IPv6 address, each with `port`. "localhost" and "loopback" answer both loopbacks without a
    /// lookup. Throws a `kCFStreamErrorDomainNetDB` error.
    public static func lookupHost(_ host: String, port: UInt16) throws -> [Data] {
        if host == "localhost" || host == "loopback" {
            return [
                SocketAddress.ipv4(loopback: true, port: port).data,
                SocketAddress.ipv6(loopback: true, port: port).data,
            ]
        }
        guard HostNames.invalidReason(host) == nil else {
            throw SystemError.netDB(EAI_NONAME, message: "Invalid host name")
        }
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var list: UnsafeMutablePointer<addrinfo>?
        let code = getaddrinfo(host, String(port), &hints, &list)
        guard code == 0 else {
            throw SystemError.netDB(code, message: String(cString: gai_strerror(code)))
        }
        defer { freeaddrinfo(list) }
        var result: [Data] = []
        var node = list
        while let current = node {
            if let raw = current.pointee.ai_addr {
                var address = SocketAddress(pointer: raw, length: current.pointee.ai_addrlen)
                if address.isIP {
                    address.port = port
                    if !result.contains(address.data) { result.append(address.data) }
                }
            }
            node = current.pointee.ai_next
        }
        return result
    }

    /// The numeric host of a `sockaddr`, or `nil`.
    ///
    /// Original: `hostFromAddress:` (GCDAsyncSocket).
    public static func host(fromAddress address: Data) -> String? {
        SocketAddress(data: address).flatMap { $0.isIP ? $0.host : nil }
    }

    /// The port of a `sockaddr`, or 0.
    ///
    /// Original: `portFromAddress:` (GCDAsyncSocket).
    public static func port(fromAddress address: Data) -> UInt16 {
        SocketAddress(data: address)?.port ?? 0
    }

    /// Whether `address` is a `sockaddr_in`.
    ///
    /// Original: `isIPv4Address:` (GCDAsyncSocket).
    public static func isIPv4Address(_ address: Data) -> Bool {
        SocketAddress(data: address)?.isIPv4 ?? false
    }

    /// Whether `address` is a `sockaddr_in6`.
    ///
    /// Original: `isIPv6Address:` (GCDAsyncSocket).
    public static func isIPv6Address(_ address: Data) -> Bool {
        SocketAddress(data: address)?.isIPv6 ?? false
    }

    /// The host and port of a `sockaddr` (`getHost:port:fromAddress:`), or `nil`.
    public static func getHost(fromAddress address: Data) -> (host: String, port: UInt16)? {
        guard let parsed = SocketAddress(data: address), parsed.isIP, let host = parsed.host else { return nil }
        return (host, parsed.port)
    }

    /// Fills in the numeric host and port of an IPv4 or IPv6 `sockaddr` (`getHost:port:fromAddress:`);
    /// returns `false` and leaves both alone for anything else (a Unix-domain address, bad bytes).
    @discardableResult
    public static func getHost(_ host: inout String?, port: inout UInt16, fromAddress address: Data) -> Bool {
        var family: sa_family_t = 0
        return getHost(&host, port: &port, family: &family, fromAddress: address)
    }

    /// As ``getHost(_:port:fromAddress:)``, also filling in the family (`AF_INET` or `AF_INET6`)
    /// (`getHost:port:family:fromAddress:`).
    @discardableResult
    public static func getHost(
        _ host: inout String?, port: inout UInt16, family: inout sa_family_t, fromAddress address: Data
    ) -> Bool {
        guard let parsed = SocketAddress(data: address), parsed.isIP, let text = parsed.host else { return false }
        host = text
        port = parsed.port
        family = sa_family_t(parsed.isIPv4 ? AF_INET : AF_INET6)
        return true
    }

    /// Bonjour's `NSNetService` does not exist on Linux (`connectToNetService:error:`).
    @available(
        *, unavailable,
        message:
            "NSNetService (Bonjour) is not on Linux: resolve the service to a host and port (avahi-browse -r, or dns-sd) and call connect(toHost:onPort:)"
    )
    public func connect(toNetService netService: AnyObject) throws {}

    /// Queues a TLS marker (`startTLS:`): accepted once per connection, only when started and not
    /// forbidden; later calls are ignored, as in GCDAsyncSocket. `settings` takes GCDAsyncSocket's and
    /// CFStream's keys (see `TLSSettings.init(legacyDictionary:)`); settings that cannot be applied
    /// close the socket with the error naming the problem when the marker is reached.
    public func startTLS(_ settings: [String: Any]?) {
        queueTLS(SettingsBox(settings: settings ?? [:]))
    }

    /// Queues a TLS marker with typed settings; otherwise as the dictionary form.
    ///
    /// Original: `startTLS:` (GCDAsyncSocket).
    public func startTLS(_ settings: TLSSettings) {
        queueTLS(SettingsBox(settings: settings))
    }

    private func queueTLS(_ box: SettingsBox) {
        async { [self] in
            guard started else { return log(.warning, "startTLS ignored: the socket is not started") }
            if let rejection = engine.enqueueTLS(settings: box.settings, semantics: semantics) {
                return log(.warning, "startTLS ignored: \(rejection)")
            }
            maybeDequeueRead()
            maybeDequeueWrite()
        }
    }
}

extension QueueSocket {
    /// Sets TCP options on the connected socket (``TCPSocketOptions``; beyond GCDAsyncSocket), on the
    /// socket queue. Throws `badConfig` when not connected, the POSIX error for a value refused.
    public func setOptions(_ options: TCPSocketOptions) throws {
        try syncThrowing {
            guard connected, fd >= 0 else {
                throw QueueSocketError(.badConfig, "Attempting to set TCP options while not connected")
            }
            try options.apply(to: fd)
        }
    }
}

/// TLS settings (a dictionary or `TLSSettings`) handed to the socket queue.
struct SettingsBox: @unchecked Sendable {
    // @unchecked Sendable: an immutable value (a dictionary of plain values or `TLSSettings`), read
    // only on the socket queue.
    let settings: Any
}
