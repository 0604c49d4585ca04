import CAsyncSocketShims
import Foundation

// The TCP options every face's connected socket takes, typed, and set on the descriptor here only (each
// face's `setOptions(_:)` finds the descriptor and calls `apply(to:)`). Values are checked before any is
// set, so a refused set changes nothing; what the kernel itself refuses comes back as its errno.

/// Options of a connected TCP socket, set with `setOptions(_:)` on ``RunLoopSocket``, ``QueueSocket``
/// and ``AsyncSocketConnection``. Each `nil` leaves the system's setting as it is. Beyond the originals,
/// which offered none of them.
public struct TCPSocketOptions: Sendable, Equatable {
    /// Keep-alive probes on an idle connection (`SO_KEEPALIVE`, `TCP_KEEPIDLE`, `TCP_KEEPINTVL`,
    /// `TCP_KEEPCNT`).
    public enum KeepAlive: Sendable, Equatable {
        /// No probes.
        case off
        /// The first probe after `idleSeconds` without traffic, then one every `intervalSeconds`; the
        /// connection fails (`ETIMEDOUT`) after `count` unanswered probes. Each at least 1.
        case on(idleSeconds: Int, intervalSeconds: Int, count: Int)
    }

    /// `TCP_NODELAY`: small writes leave at once instead of being held back to be coalesced (Nagle's
    /// algorithm off).
    public var noDelay: Bool?
    /// Keep-alive probes.
    public var keepAlive: KeepAlive?
    /// `TCP_USER_TIMEOUT`: how long, in milliseconds, sent bytes may stay unacknowledged before the
    /// connection fails with `ETIMEDOUT` (0: the system's rule).
    public var userTimeoutMilliseconds: Int?
    /// `SO_SNDBUF`: the send buffer asked for, in bytes (the kernel doubles it for its bookkeeping and
    /// caps it at `net.core.wmem_max`).
    public var sendBufferSize: Int?
    /// `SO_RCVBUF`: the receive buffer asked for, in bytes (doubled, and capped at `net.core.rmem_max`).
    public var receiveBufferSize: Int?

    /// Options that change what is given and leave the rest.
    public init(
        noDelay: Bool? = nil, keepAlive: KeepAlive? = nil, userTimeoutMilliseconds: Int? = nil,
        sendBufferSize: Int? = nil, receiveBufferSize: Int? = nil
    ) {
        self.noDelay = noDelay
        self.keepAlive = keepAlive
        self.userTimeoutMilliseconds = userTimeoutMilliseconds
        self.sendBufferSize = sendBufferSize
        self.receiveBufferSize = receiveBufferSize
    }

    /// Sets the options on `fd`, in the order declared. Throws the POSIX error `EINVAL` before setting
    /// anything for a value no socket takes (a keep-alive time or count below 1, a negative timeout or
    /// size), and the kernel's error for a set it refuses.
    package func apply(to fd: Int32) throws {
        try validate()
        var settings: [(level: Int32, name: Int32, value: Int32, label: String)] = []
        let tcp = Int32(IPPROTO_TCP)
        if let noDelay {
            settings.append((tcp, TCP_NODELAY, noDelay ? 1 : 0, "TCP_NODELAY"))
        }
        switch keepAlive {
        case .off?:
            settings.append((SOL_SOCKET, SO_KEEPALIVE, 0, "SO_KEEPALIVE"))
        case .on(let idle, let interval, let count)?:
            settings.append((SOL_SOCKET, SO_KEEPALIVE, 1, "SO_KEEPALIVE"))
            settings.append((tcp, TCP_KEEPIDLE, Int32(clamping: idle), "TCP_KEEPIDLE"))
            settings.append((tcp, TCP_KEEPINTVL, Int32(clamping: interval), "TCP_KEEPINTVL"))
            settings.append((tcp, TCP_KEEPCNT, Int32(clamping: count), "TCP_KEEPCNT"))
        case nil:
            break
        }
        if let userTimeoutMilliseconds {
            settings.append((tcp, TCP_USER_TIMEOUT, Int32(clamping: userTimeoutMilliseconds), "TCP_USER_TIMEOUT"))
        }
        if let sendBufferSize {
            settings.append((SOL_SOCKET, SO_SNDBUF, Int32(clamping: sendBufferSize), "SO_SNDBUF"))
        }
        if let receiveBufferSize {
            settings.append((SOL_SOCKET, SO_RCVBUF, Int32(clamping: receiveBufferSize), "SO_RCVBUF"))
        }
        for setting in settings {
            var value = setting.value
            guard setsockopt(fd, setting.level, setting.name, &value, socklen_t(MemoryLayout<Int32>.size)) == 0 else {
                throw SystemError.posix(ask_errno(), "setsockopt(\(setting.label))")
            }
        }
    }

    private func validate() throws {
        var checks: [(value: Int, minimum: Int, name: String)] = []
        if case .on(let idle, let interval, let count)? = keepAlive {
            checks += [(idle, 1, "TCP_KEEPIDLE"), (interval, 1, "TCP_KEEPINTVL"), (count, 1, "TCP_KEEPCNT")]
        }
        if let userTimeoutMilliseconds {
            checks.append((userTimeoutMilliseconds, 0, "TCP_USER_TIMEOUT"))
        }
        if let sendBufferSize {
            checks.append((sendBufferSize, 0, "SO_SNDBUF"))
        }
        if let receiveBufferSize {
            checks.append((receiveBufferSize, 0, "SO_RCVBUF"))
        }
        if let refused = checks.first(where: { $0.value < $0.minimum }) {
            throw SystemError.posix(EINVAL, "setsockopt(\(refused.name))")
        }
    }
}
