import AsyncSocketKit
import Foundation

/// Why a socket closed, with the legacy and the modern error numbering mapped onto one another
/// (legacy `readMaxedOut` 3 is GCD's 6, legacy connect timeout 2 is GCD's 3, and so on).
public enum CloseReason: Hashable, Sendable, CustomStringConvertible {
    /// The program closed it: `disconnect()` or a `disconnectAfter…` (legacy: `didDisconnect` alone;
    /// modern: a `nil` error).
    case byUser
    /// The peer closed the connection (legacy: `willDisconnect` with `nil`; modern: `closed`, 7).
    case byPeer
    /// The connect timeout passed.
    case connectTimeout
    /// A read timed out and was not extended.
    case readTimeout
    /// A write timed out and was not extended.
    case writeTimeout
    /// A read to a separator reached its maximum length.
    case readMaxedOut
    /// A system error, by `errno` value (a reset, a refused connection…).
    case posix(Int)
    /// A TLS failure, by its `kCFStreamErrorDomainSSL` code.
    case tls(Int)
    /// Name resolution failed, by its `kCFStreamErrorDomainNetDB` code.
    case nameResolution(Int)
    /// Any other error.
    case other(domain: String, code: Int)

    /// The reason a legacy socket gives in `onSocket(_:willDisconnectWithError:)`: `nil` is the peer's
    /// close.
    public init(legacyError error: (any Error)?) {
        guard let error else {
            self = .byPeer
            return
        }
        let nsError = error as NSError
        if nsError.domain == AsyncSocketError.errorDomain {
            switch AsyncSocketError.Code(rawValue: nsError.code) {
            case .connectTimeout?: self = .connectTimeout
            case .readMaxedOut?: self = .readMaxedOut
            case .readTimeout?: self = .readTimeout
            case .writeTimeout?: self = .writeTimeout
            default:
                if let underlying = (error as? AsyncSocketError)?.underlying {
                    self = CloseReason(foreign: underlying)
                } else {
                    self = .other(domain: nsError.domain, code: nsError.code)
                }
            }
            return
        }
        self = CloseReason(foreign: nsError)
    }

    /// The reason a modern socket gives in `socketDidDisconnect(_:withError:)`: `nil` is a close by
    /// the program.
    public init(modernError error: (any Error)?) {
        guard let error else {
            self = .byUser
            return
        }
        let nsError = error as NSError
        guard nsError.domain == QueueSocketError.errorDomain else {
            self = CloseReason(foreign: nsError)
            return
        }
        switch QueueSocketError.Code(rawValue: nsError.code) {
        case .connectTimeout?: self = .connectTimeout
        case .readTimeout?: self = .readTimeout
        case .writeTimeout?: self = .writeTimeout
        case .readMaxedOut?: self = .readMaxedOut
        case .closed?: self = .byPeer
        default: self = .other(domain: nsError.domain, code: nsError.code)
        }
    }

    /// A UDP socket's failure: the timeouts of both UDP classes as ``readTimeout`` / ``writeTimeout``,
    /// the shared domains as for TCP, `nil` as ``byUser`` (a close the program asked for).
    public init(udpError error: (any Error)?) {
        guard let error else {
            self = .byUser
            return
        }
        let nsError = error as NSError
        switch (nsError.domain, nsError.code) {
        case (AsyncUdpSocketError.errorDomain, AsyncUdpSocketError.Code.receiveTimeout.rawValue):
            self = .readTimeout
        case (AsyncUdpSocketError.errorDomain, AsyncUdpSocketError.Code.sendTimeout.rawValue),
            (QueueUdpSocketError.errorDomain, QueueUdpSocketError.Code.sendTimeout.rawValue):
            self = .writeTimeout
        default:
            self = CloseReason(foreign: nsError)
        }
    }

    /// Errors in the domains both sockets share.
    private init(foreign error: NSError) {
        switch error.domain {
        case NSPOSIXErrorDomain: self = .posix(error.code)
        case TLSError.errorDomain: self = .tls(error.code)
        case "kCFStreamErrorDomainNetDB": self = .nameResolution(error.code)
        default: self = .other(domain: error.domain, code: error.code)
        }
    }

    /// A short form: `byPeer`, `posix(104)`, …
    public var description: String {
        switch self {
        case .byUser: return "byUser"
        case .byPeer: return "byPeer"
        case .connectTimeout: return "connectTimeout"
        case .readTimeout: return "readTimeout"
        case .writeTimeout: return "writeTimeout"
        case .readMaxedOut: return "readMaxedOut"
        case .posix(let code): return "posix(\(code))"
        case .tls(let code): return "tls(\(code))"
        case .nameResolution(let code): return "nameResolution(\(code))"
        case .other(let domain, let code): return "\(domain) \(code)"
        }
    }
}
