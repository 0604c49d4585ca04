import AsyncSocketCore
import Dispatch
import Foundation

// What RunLoopSocket's queue-core engine needs from QueueSocket to keep legacy semantics: byte-exact
// reads to a separator, a TLS marker for every startTLS, the bytes received and not delivered kept
// for `unreadData` when a close is an error close, a connect on a descriptor the legacy delegate has
// already seen (onSocketWillConnect), and a way to report the peer's close noticed elsewhere.
// Internal: QueueSocket's public behavior stays GCDAsyncSocket's.
extension QueueSocket {
    /// Switches the socket to legacy semantics (before it starts). `peerEndedProbe` carries an
    /// end-of-stream probe (its argument) to the loop, where it must call
    /// ``legacyProbeReturned(stateIndex:)``; it is called on the socket queue.
    /// `bridge`, when given, becomes the delegate (on its queue) in the same step, so no callback
    /// takes the old path after it and overtakes one sent before.
    func adoptLegacySemantics(
        preBuffering: Bool, peerEndedProbe: @escaping @Sendable (Int) -> Void, bridge: QueueCoreBridge? = nil
    ) {
        sync {
            if let bridge {
                storedDelegate = bridge
                storedDelegateQueue = bridge.queue
            }
            semantics = .legacy
            coreBridge = bridge ?? storedDelegate as? QueueCoreBridge
            legacyEnd.probe = peerEndedProbe
            engine.configuration.prebuffering = preBuffering
        }
    }

    /// Queues a read from the legacy socket's loop and runs the dequeue it leads to before returning,
    /// on the calling thread when the socket queue is idle (no thread hop per read). Its callbacks
    /// still reach the legacy delegate on a later pass of the loop, never inside this call.
    func legacyRead(_ request: ReadRequest) {
        sync {
            guard started else { return debug("read dropped: the socket is not started") }
            if let rejection = engine.enqueueRead(request) {
                return debug("read ignored: \(rejection)")
            }
            maybeDequeueRead()
        }
    }

    /// Queues a write from the legacy socket's loop, as ``legacyRead(_:)`` does a read, and starts it.
    func legacyWrite(_ data: Data, timeout: TimeInterval, tag: Int) {
        sync {
            guard started else { return debug("write dropped: the socket is not started") }
            if let rejection = engine.enqueueWrite(data, timeout: timeout, tag: tag) {
                return debug("write ignored: \(rejection)")
            }
            maybeDequeueWrite()
        }
    }

    /// Queues a write from the legacy socket's loop without starting it: the writes the loop queues
    /// after the first of a pass start together before it next polls (``legacyFlushWrites()``), in
    /// one gathered send, as the native engine's do.
    func legacyEnqueueWrite(_ data: Data, timeout: TimeInterval, tag: Int) {
        sync {
            guard started else { return debug("write dropped: the socket is not started") }
            if let rejection = engine.enqueueWrite(data, timeout: timeout, tag: tag) {
                debug("write ignored: \(rejection)")
            }
        }
    }

    /// Starts the writes ``legacyEnqueueWrite(_:timeout:tag:)`` queued (those behind the current
    /// one join its batch).
    func legacyFlushWrites() {
        sync { maybeDequeueWrite() }
    }

    /// Turns prebuffering on (legacy `enablePreBuffering`).
    func enablePreBufferingForLegacy() {
        sync { engine.configuration.prebuffering = true }
    }

    /// What the last error close kept for willDisconnect, handed over once; from any thread, without
    /// waiting for the socket queue.
    func takeErrorClose() -> LegacyErrorClose? {
        lastErrorClose.withLock { record in
            defer { record = nil }
            return record
        }
    }

    /// Connects `socket` (made, and possibly bound, by the caller) to `address`.
    func connect(socket: Int32, to address: SocketAddress, timeout: TimeInterval) throws {
        try sync {
            guard storedDelegate != nil, storedDelegateQueue != nil, !started else {
                throw QueueSocketError(.badConfig, "Attempting to connect while connected or without a delegate")
            }
            engine.reset()
            let driver = makeConnectDriver([address], local: nil)
            try driver.adopt(socket, connectingTo: address, on: self)
            stateIndex += 1
            phase = .connecting(driver)
            if timeout >= 0 {
                let index = stateIndex
                connectTimer = armDispatchTimer(connectTimer, after: timeout) { socket in
                    guard index == socket.stateIndex, !socket.connected else { return }
                    socket.closeWithError(QueueSocketError(.connectTimeout))
                }
            }
        }
    }

    /// The peer closed its side, as seen by the legacy engine's own watch on the loop (once: the
    /// watch stops; when the read queue next runs dry, the socket remembers and ends).
    func peerClosedWhileIdle() {
        async { [self] in
            guard connected, !tlsHandshaking else { return }
            legacyEnd.peerFinished = true
            if case .read = engine.currentRead {
                readableHint = true
                doReadData()
            } else {
                // Bytes sent before the close may still wait in the kernel: the end is the
                // transport's to report, when a read meets it.
                peerEnded()
            }
        }
    }

    /// The close once the peer's end is seen: a reset is the POSIX error it is (pending in SO_ERROR
    /// when no read consumed it), as the native engine reports it; a clean end is `closed` (a nil
    /// error for the legacy delegate).
    var legacyEndError: any Error {
        let code = fd >= 0 ? SocketOps.pendingError(fd) : 0
        return code == 0 ? QueueSocketError(.closed) : SystemError.posix(code, "read")
    }

    /// Sends the probe the way callbacks go under legacy semantics: handed over here, on the socket
    /// queue, behind the callbacks sent before it.
    func sendLegacyProbe() {
        guard let probe = legacyEnd.probe else {
            closeWithError(legacyEndError)
            return
        }
        legacyEnd.probeMark = legacyEnd.callbacksSent
        probe(stateIndex)
    }

    /// The probe is back from the loop (after the callbacks sent before it, and after the reads those
    /// callbacks queued).
    func legacyProbeReturned(stateIndex index: Int) {
        async { [self] in
            guard index == stateIndex, started, connected, let mark = legacyEnd.probeMark else { return }
            legacyEnd.probeMark = nil
            peerEnded(callbacksInFlight: mark != legacyEnd.callbacksSent)
        }
    }
}

extension QueueSocket {
    /// Whether nothing is queued or in progress (legacy `canSafelySetDelegate`).
    var isIdleForLegacy: Bool { sync { engine.isIdle } }

    /// The current read's and write's progress (legacy progress methods).
    var legacyProgress: (read: TransferProgress, write: TransferProgress) {
        sync { (engine.readProgress, engine.writeProgress) }
    }

    /// The descriptor being connected or connected (legacy `socketFD`), from any thread.
    var legacySocketFD: Int32 {
        sync { fd >= 0 ? fd : connectDriver?.connectingFD ?? listenFDs.first ?? -1 }
    }

    /// The IPv4 and IPv6 descriptors (legacy `socket4FD`/`socket6FD`).
    var legacyFamilyFDs: (v4: Int32, v6: Int32) {
        sync {
            if fd >= 0 {
                let address = connectedSocketAddress
                return (address?.isIPv4 == true ? fd : -1, address?.isIPv6 == true ? fd : -1)
            }
            return (socket4, socket6)
        }
    }
}
