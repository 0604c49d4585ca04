import AsyncSocketCore
import Dispatch
import Foundation

// What RunLoopSocket's queue-core engine needs from QueueSocket to keep legacy semantics: byte-exact
// reads to a separator, a TLS marker for every startTLS, the bytes received and not delivered kept
// for `unreadData` when a close is an error close, a connect on a descriptor the legacy delegate has
// already seen (onSocketWillConnect), and a way to report the peer's close noticed elsewhere.
// Internal: QueueSocket's public behavior stays GCDAsyncSocket's.
extension QueueSocket {
    /// Switches the socket to legacy semantics (before it starts).
    func adoptLegacySemantics(preBuffering: Bool) {
        sync {
            legacySemantics = true
            engine.configuration.prebuffering = preBuffering
        }
    }

    /// Turns prebuffering on (legacy `enablePreBuffering`).
    func enablePreBufferingForLegacy() {
        sync { engine.configuration.prebuffering = true }
    }

    /// The bytes the last error close kept (legacy `unreadData`), handed over once.
    func takeUnreadData() -> Data? {
        sync {
            defer { lastUnreadData = nil }
            return lastUnreadData
        }
    }

    /// Connects `socket` (made, and possibly bound, by the caller) to `address`.
    func connect(socket: Int32, to address: SocketAddress, timeout: TimeInterval) throws {
        try sync {
            guard storedDelegate != nil, storedDelegateQueue != nil, !started else {
                throw QueueSocketError(.badConfig, "Attempting to connect while connected or without a delegate")
            }
            engine.reset()
            started = true
            stateIndex += 1
            startAttempt(socket, to: address, local: nil)
            if timeout >= 0 {
                let index = stateIndex
                connectTimer = armTimer(connectTimer, after: timeout) { socket in
                    guard index == socket.stateIndex, !socket.connected else { return }
                    socket.closeWithError(QueueSocketError(.connectTimeout))
                }
            }
        }
    }

    /// The peer closed its side, as seen by the legacy engine's own watch: a waiting read takes what
    /// is left and meets the end (or the reset) itself; otherwise close as at end of file, keeping the
    /// unread bytes.
    func peerClosedWhileIdle() {
        async { [self] in
            guard connected, !tlsHandshaking else { return }
            if case .read = engine.currentRead {
                bytesAvailable = max(bytesAvailable, 1)
                doReadData()
            } else {
                engine.noteTransportEnded()
                closeWithError(QueueSocketError(.closed))
            }
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
        sync { fd >= 0 ? fd : connectAttempts.first?.fd ?? listenFDs.first ?? -1 }
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
