import AsyncSocketCore
import CAsyncSocketShims
import Dispatch
import Foundation

// Accepting the GCD way (3.4): listeners with SO_REUSEADDR and a backlog of 1024 (port 0 with both
// families: IPv6 takes IPv4's port); per connection, on the delegate queue,
// newSocketQueueForConnection, then the child (already connected, never told didConnectToHost),
// then didAcceptNewSocket. A child nobody keeps is disconnected and reported with itself.
extension QueueSocket {
    /// Listens on `port` on every interface.
    public func accept(onPort port: UInt16) throws {
        try accept(onInterface: nil, port: port)
    }

    /// Listens on `interface`: `nil`/"" for all, "localhost"/"loopback", a name ("eth0") or an
    /// address, optionally with ":port" (used when `port` is 0).
    public func accept(onInterface interface: String?, port: UInt16) throws {
        try sync {
            try preAcceptChecks()
            var (v4, v6) = try InterfaceAddress.resolve(interface, port: port)
            if !ipv4Enabled { v4 = nil }
            if !ipv6Enabled { v6 = nil }
            guard v4 != nil || v6 != nil else {
                throw QueueSocketError(
                    .badParam, "Unknown interface. Specify valid interface by name (e.g. \"en1\") or IP address.")
            }
            engine.reset()
            var created: [Int32] = []
            do {
                if var v4 {
                    let socket = try Self.listen(on: v4)
                    created.append(socket)
                    v4.port = SocketOps.localAddress(socket)?.port ?? v4.port
                    if var v6Address = v6, v6Address.port == 0 {
                        v6Address.port = v4.port
                        v6 = v6Address
                    }
                }
                if let v6 {
                    created.append(try Self.listen(on: v6))
                }
            } catch {
                for socket in created { close(socket) }
                throw error
            }
            startListening(created)
        }
    }

    /// Listens on the Unix-domain socket at `url`, deleting any file already there (`acceptOnUrl:`).
    public func accept(onUrl url: URL) throws {
        try sync {
            try preAcceptChecks(checkFamilies: false)
            guard url.isFileURL, let address = SocketAddress.unix(path: url.path) else {
                throw QueueSocketError(.badParam, "Invalid unix domain url (not a file URL, or path too long)")
            }
            if FileManager.default.fileExists(atPath: url.path) {
                do {
                    try FileManager.default.removeItem(atPath: url.path)
                } catch {
                    throw QueueSocketError(.other, "Could not remove previous unix domain socket at given url.")
                }
            }
            engine.reset()
            let socket = try Self.listen(on: address)
            unixListenPath = url.path
            startListening([socket])
        }
    }

    private func preAcceptChecks(checkFamilies: Bool = true) throws {
        guard storedDelegate != nil else {
            throw QueueSocketError(.badConfig, "Attempting to accept without a delegate. Set a delegate first.")
        }
        guard storedDelegateQueue != nil else {
            throw QueueSocketError(
                .badConfig, "Attempting to accept without a delegate queue. Set a delegate queue first.")
        }
        guard !started else {
            throw QueueSocketError(
                .badConfig, "Attempting to accept while connected or accepting connections. Disconnect first.")
        }
        guard !checkFamilies || ipv4Enabled || ipv6Enabled else {
            throw QueueSocketError(
                .badConfig, "Both IPv4 and IPv6 have been disabled. Must enable at least one protocol first.")
        }
    }

    private static func listen(on address: SocketAddress) throws -> Int32 {
        let socket: Int32
        switch SocketOps.makeStreamSocket(family: address.family) {
        case .success(let created): socket = created
        case .failure(let error): throw error
        }
        if address.isIP {
            SocketOps.setOption(socket, level: SOL_SOCKET, name: SO_REUSEADDR)
        }
        if address.isIPv6 {
            SocketOps.setOption(socket, level: Int32(IPPROTO_IPV6), name: IPV6_V6ONLY)
        }
        if let code = SocketOps.bind(socket, to: address) {
            close(socket)
            throw SystemError.posix(code, "bind")
        }
        if let code = SocketOps.listen(socket) {
            close(socket)
            throw SystemError.posix(code, "listen")
        }
        return socket
    }

    private func startListening(_ sockets: [Int32]) {
        started = true
        stateIndex += 1
        listenFDs = sockets
        for socket in sockets {
            let source = DispatchSource.makeReadSource(fileDescriptor: socket, queue: socketQueue)
            source.setEventHandler { [weak self] in self?.acceptConnections(on: socket) }
            source.setCancelHandler { close(socket) }
            acceptSources.append(source)
            source.activate()
        }
    }

    private func acceptConnections(on socket: Int32) {
        for _ in 0..<64 {
            guard listenFDs.contains(socket) else { return }
            switch SocketOps.accept(socket) {
            case .socket(let child, let address):
                deliverAccepted(child, from: address)
            case .wouldBlock:
                return
            case .outOfResources(let code):
                debug("accept failed: \(String(cString: strerror(code)))")
                pauseAccepting()
                return
            case .failed(let code):
                debug("accept failed: \(String(cString: strerror(code)))")
                return
            }
        }
    }

    /// Out of descriptors (or memory): the waiting connection stays in the backlog and the listener
    /// stays readable, so the accept source would fire again at once, forever (the original spun
    /// here). Stop watching for a moment instead.
    private func pauseAccepting() {
        guard !acceptSourcesSuspended else { return }
        acceptSourcesSuspended = true
        for source in acceptSources {
            source.suspend()
        }
        let index = stateIndex
        socketQueue.asyncAfter(deadline: .now() + 0.1) { [weak self] in
            guard let self, index == stateIndex, acceptSourcesSuspended else { return }
            resumeAccepting()
        }
    }

    func resumeAccepting() {
        guard acceptSourcesSuspended else { return }
        acceptSourcesSuspended = false
        for source in acceptSources {
            source.resume()
        }
    }

    private func deliverAccepted(_ child: Int32, from address: SocketAddress) {
        guard let delegate = storedDelegate, let delegateQueue = storedDelegateQueue else {
            AcceptWithoutDelegate.reject(
                child, peer: address, warned: &warnedNoDelegate, logger: logger, face: "QueueSocket")
            return
        }
        let box = DelegateBox(delegate)
        let addressData = address.data
        let isUnix = unixListenPath != nil
        delegateQueue.async { [self] in
            guard let delegate = box.delegate else {
                async { [self] in
                    AcceptWithoutDelegate.reject(
                        child, peer: address, warned: &warnedNoDelegate, logger: logger, face: "QueueSocket")
                }
                return
            }
            let queue = delegate.newSocketQueueForConnection(fromAddress: addressData, on: self)
            var newSocket: QueueSocket? =
                (try? QueueSocket(
                    delegate: delegate, delegateQueue: delegateQueue, socketQueue: queue, resolver: resolver,
                    logger: logger)) ?? QueueSocket(delegate: delegate, delegateQueue: delegateQueue)
            newSocket?.adoptAccepted(child, unix: isUnix)
            delegate.socket(self, didAcceptNewSocket: newSocket!)
            if isKnownUniquelyReferenced(&newSocket) {
                // Nobody kept it: close it now, while the callback can still name it.
                newSocket?.disconnect()
            }
        }
    }

    /// On the new socket's queue (synchronously, so nothing but the caller holds the socket after):
    /// a started, connected socket with its sources set up.
    private func adoptAccepted(_ child: Int32, unix: Bool) {
        sync {
            started = true
            connected = true
            stateIndex += 1
            fd = child
            if unix {
                connectedURL = URL(fileURLWithPath: SocketOps.peerAddress(child)?.unixPath ?? "")
            }
            setUpSources()
        }
    }
}
