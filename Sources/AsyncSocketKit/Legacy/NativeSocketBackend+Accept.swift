import AsyncSocketCore
import CAsyncSocketShims
import Foundation

// Accepting: one listener per family (ListenSockets), watched by a ListenerDriver, and per connection
// the original's accept sequence (LegacyAcceptSequence.swift).

/// The listeners of an accepting socket, by family (-1: none).
struct NativeListening {
    let driver: ListenerDriver<NativeSocketBackend>
    let fd4: Int32
    let fd6: Int32
}
extension NativeSocketBackend {
    func acceptOnInterface(_ interface: String?, port: UInt16) throws {
        try checkCanStart("accept", started: started)
        engine.reset()
        let (address4, address6) = try HostNames.localAddresses(interface, port: port, operation: "acceptOnInterface")
        let sockets: (v4: Int32?, v6: Int32?)
        do {
            sockets = try ListenSockets.open(
                v4: address4, v6: address6, toleratingMissingIPv6: true, reusePort: reusesPort)
        } catch {
            if error.operation == "socket" {
                throw AsyncSocketError(.socketError, message: error.error.localizedDescription, underlying: error.error)
            }
            throw AsyncSocketError(
                .socketError, message: "\(error.error.localizedDescription) (\(error.address))", underlying: error.error
            )
        }
        if address6 != nil && sockets.v6 == nil {
            log(.debug, "no IPv6 listener: this machine cannot listen on IPv6")
        }
        loop = EventRunLoop.current
        let driver = ListenerDriver<NativeSocketBackend>(
            sockets: [sockets.v4, sockets.v6].compactMap { $0 },
            accepted: { [unowned self] child, peer in adoptAccepted(child, peer: peer) },
            failed: { [unowned self] code in
                let (level, message) = AcceptFailure.logLine(code, reported: &reportedAcceptFailure)
                log(level, message)
            })
        phase = .listening(NativeListening(driver: driver, fd4: sockets.v4 ?? -1, fd6: sockets.v6 ?? -1))
        try? driver.start(on: self)
        retainedOwner = owner
    }

    /// The legacy accept sequence for one new descriptor.
    private func adoptAccepted(_ childFD: Int32, peer: SocketAddress) {
        log(.debug, "accepted a connection", ["from": .string(peer.description), "child fd": "\(childFD)"])
        metricHandles?.accepted.increment()
        guard let owner = callbackOwner, let delegate = owner.delegate else {
            AcceptWithoutDelegate.reject(
                childFD, peer: peer, warned: &warnedNoDelegate, logger: logger,
                face: "RunLoopSocket", metadata: logMetadata.metadata())
            return
        }
        var child: RunLoopSocket? = RunLoopSocket(
            delegate: delegate, engine: .native, resolver: customResolver, logger: logger, metrics: metricsSource)
        guard let childBackend = child?.backend as? NativeSocketBackend else { return }
        childBackend.modes = modes
        childBackend.fd = childFD
        childBackend.peerAddress = peer
        LegacyAcceptSequence.run(
            listener: owner, delegate: delegate, child: &child, backend: childBackend,
            listenerLoop: loop ?? EventRunLoop.current)
    }
}

extension NativeSocketBackend: LegacyAcceptedChild {
    var closedDuringAccept: Bool { fd < 0 }

    func beginAccept() {
        phase = .accepted
        metricHandles?.opened(&countedOpen)
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
            guard case .accepted = phase, fd >= 0 else { return }
            establishConnection()
        }
    }
}
