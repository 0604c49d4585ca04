import AsyncSocketCore
import CAsyncSocketShims
import Foundation

// Accepting: one listener per family, and per connection the original's accept sequence
// (LegacyAcceptSequence.swift).
extension NativeSocketBackend {
    func acceptOnInterface(_ interface: String?, port: UInt16) throws {
        try checkCanStart("accept")
        engine.reset()
        let (address4, address6) = try Self.listenAddresses(interface, port: port)
        var listeners: [Int32] = []
        do {
            var boundPort = port
            if var address4 {
                let socket = try Self.listen(on: address4)
                listeners.append(socket)
                listenFD4 = socket
                boundPort = SocketOps.localAddress(socket)?.port ?? port
                address4.port = boundPort
            }
            if var address6 {
                address6.port = boundPort
                do {
                    let socket = try Self.listen(on: address6)
                    listeners.append(socket)
                    listenFD6 = socket
                } catch let error as AsyncSocketError where address4 != nil && Self.isMissingIPv6(error) {
                    // A machine without IPv6 still listens on IPv4 for "all interfaces".
                    debug("no IPv6 listener: \(error.message)")
                }
            }
        } catch {
            for socket in listeners {
                close(socket)
            }
            listenFD4 = -1
            listenFD6 = -1
            throw error
        }
        loop = EventRunLoop.current
        for socket in listeners {
            attachListener(socket)
        }
        started = true
        retainedOwner = owner
    }

    private static func isMissingIPv6(_ error: AsyncSocketError) -> Bool {
        guard let code = error.underlying?.code else { return false }
        return code == Int(EAFNOSUPPORT) || code == Int(EADDRNOTAVAIL)
    }

    /// The IPv4 and IPv6 addresses `interface` stands for (1.6).
    static func listenAddresses(_ interface: String?, port: UInt16) throws -> (SocketAddress?, SocketAddress?) {
        guard let interface, !interface.isEmpty else {
            return (.ipv4(loopback: false, port: port), .ipv6(loopback: false, port: port))
        }
        if interface == "localhost" || interface == "loopback" {
            return (.ipv4(loopback: true, port: port), .ipv6(loopback: true, port: port))
        }
        if let reason = invalidHostReason(interface) {
            throw SystemError.netDB(EAI_NONAME, message: "Invalid interface: \(reason)")
        }
        if let numeric = SocketAddress.numeric(interface, port: port) {
            return numeric.isIPv4 ? (numeric, nil) : (nil, numeric)
        }
        var hints = addrinfo()
        hints.ai_flags = AI_PASSIVE
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var list: UnsafeMutablePointer<addrinfo>?
        let code = getaddrinfo(interface, String(port), &hints, &list)
        guard code == 0 else {
            throw SystemError.netDB(code, message: String(cString: gai_strerror(code)))
        }
        defer { freeaddrinfo(list) }
        var address4: SocketAddress?
        var address6: SocketAddress?
        var node = list
        while let current = node {
            if let raw = current.pointee.ai_addr {
                let address = SocketAddress(pointer: raw, length: current.pointee.ai_addrlen)
                if address.isIPv4 && address4 == nil { address4 = address }
                if address.isIPv6 && address6 == nil { address6 = address }
            }
            node = current.pointee.ai_next
        }
        guard address4 != nil || address6 != nil else {
            throw AsyncSocketUsageError("acceptOnInterface: \(interface) has no usable IPv4 or IPv6 address")
        }
        return (address4, address6)
    }

    /// A listening socket bound to `address` with SO_REUSEADDR (IPv6 only for IPv6 addresses).
    private static func listen(on address: SocketAddress) throws -> Int32 {
        let socket: Int32
        switch SocketOps.makeStreamSocket(family: address.family) {
        case .success(let created): socket = created
        case .failure(let error):
            throw AsyncSocketError(.socketError, message: error.localizedDescription, underlying: error)
        }
        SocketOps.setOption(socket, level: SOL_SOCKET, name: SO_REUSEADDR)
        if address.isIPv6 {
            SocketOps.setOption(socket, level: Int32(IPPROTO_IPV6), name: IPV6_V6ONLY)
        }
        if let code = SocketOps.bind(socket, to: address) ?? SocketOps.listen(socket) {
            close(socket)
            let error = SystemError.posix(code, "bind")
            throw AsyncSocketError(
                .socketError, message: "\(error.localizedDescription) (\(address))", underlying: error)
        }
        return socket
    }

    func attachListener(_ socket: Int32) {
        guard let loop else { return }
        let source = loop.addFileSource(socket, modes: modes) { [self] _ in
            acceptConnections(on: socket)
        }
        source.wantsReadable = true
        listenSources.append(source)
    }

    /// Accepts what is waiting (a bounded number per event, so one busy listener cannot starve the loop).
    private func acceptConnections(on socket: Int32) {
        for _ in 0..<64 {
            guard started, socket == listenFD4 || socket == listenFD6 else { return }
            switch SocketOps.accept(socket) {
            case .socket(let child, _):
                adoptAccepted(child)
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

    /// Out of descriptors: stop listening for a moment instead of spinning on a readable listener.
    private func pauseAccepting() {
        guard let loop, acceptPauseTimer == nil else { return }
        for source in listenSources {
            source.wantsReadable = false
        }
        acceptPauseTimer = loop.addTimer(after: 0.1, modes: modes) { [weak self] _ in
            guard let self else { return }
            acceptPauseTimer = nil
            for source in listenSources {
                source.wantsReadable = true
            }
        }
    }

    /// The accept sequence of 2.5 for one new descriptor.
    private func adoptAccepted(_ childFD: Int32) {
        guard let owner, let delegate = owner.delegate else {
            AcceptWithoutDelegate.reject(
                childFD, peer: SocketOps.peerAddress(childFD), warned: &warnedNoDelegate, logger: logger,
                face: "RunLoopSocket")
            return
        }
        var child: RunLoopSocket? = RunLoopSocket(
            delegate: delegate, engine: .native, resolver: customResolver, logger: logger)
        guard let childBackend = child?.backend as? NativeSocketBackend else { return }
        childBackend.modes = modes
        childBackend.fd = childFD
        childBackend.peerAddress = SocketOps.peerAddress(childFD)
        LegacyAcceptSequence.run(
            listener: owner, delegate: delegate, child: &child, backend: childBackend,
            listenerLoop: loop ?? EventRunLoop.current)
    }
}

extension NativeSocketBackend: LegacyAcceptedChild {
    var closedDuringAccept: Bool { fd < 0 }

    func beginAccept() {
        started = true
    }

    func refuseAccept(keeping child: RunLoopSocket) {
        retainedOwner = child
        disconnect()
    }

    func finishAccept(on childLoop: EventRunLoop, keeping child: RunLoopSocket) {
        retainedOwner = child
        loop = childLoop
        childLoop.perform(inModes: modes) { [self] in
            // On the child's own loop: register it and report the connection.
            guard started, fd >= 0, !connected else { return }
            establishConnection()
        }
    }
}
