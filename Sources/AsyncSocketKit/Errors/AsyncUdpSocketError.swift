import Foundation

/// The errors of ``RunLoopUdpSocket``, in domain `"AsyncUdpSocketErrorDomain"` with the original
/// `AsyncUdpSocket`'s numbering.
///
/// It bridges to `NSError`, so ported code that compares `(error as NSError).domain` and `.code`
/// keeps working. System errors keep their own domains: a failed `send` or `recvfrom` arrives as an
/// `NSError` in `NSPOSIXErrorDomain`, a failed name lookup in `"kCFStreamErrorDomainNetDB"`.
public struct AsyncUdpSocketError: Error, CustomNSError, Equatable, CustomStringConvertible, Sendable {
    /// `AsyncUdpSocketError` values of the original.
    public enum Code: Int, Sendable, CaseIterable {
        /// `AsyncUdpSocketCFSocketError`: a socket could not be created, bound or connected.
        case socketError = -1
        /// `AsyncUdpSocketNoError`: never produced.
        case noError = 0
        /// `AsyncUdpSocketBadParameter`: an address of the wrong length, or of a family the socket
        /// does not have.
        case badParameter = 1
        /// `AsyncUdpSocketIPv4Unavailable`: the operation needs the IPv4 socket, which is closed.
        case ipv4Unavailable = 2
        /// `AsyncUdpSocketIPv6Unavailable`: the operation needs the IPv6 socket, which is closed.
        case ipv6Unavailable = 3
        /// `AsyncUdpSocketSendTimeoutError`: a send waited for room longer than its timeout.
        case sendTimeout = 4
        /// `AsyncUdpSocketReceiveTimeoutError`: no datagram completed a receive within its timeout.
        case receiveTimeout = 5
    }

    /// The error domain of the original.
    public static let errorDomain = "AsyncUdpSocketErrorDomain"

    /// Which error.
    public let code: Code
    /// A human-readable description; never empty.
    public let message: String
    /// The system error behind a `socketError`, when there is one.
    public let underlying: NSError?

    /// An error with the original's default description for `code`, or with `message` (an empty
    /// `message` counts as none).
    public init(_ code: Code, message: String? = nil, underlying: NSError? = nil) {
        self.code = code
        self.message = ErrorText.nonEmpty(message) ?? Self.defaultDescription(code)
        self.underlying = underlying
    }

    /// The English default descriptions of the original.
    public static func defaultDescription(_ code: Code) -> String {
        switch code {
        case .socketError: return "General CFSocket error"
        case .noError: return "No error"
        case .badParameter: return "Invalid parameter"
        case .ipv4Unavailable: return "IPv4 is unavailable due to binding/connecting using IPv6 only"
        case .ipv6Unavailable:
            return "IPv6 is unavailable due to binding/connecting using IPv4 only or is not supported on this platform"
        case .sendTimeout: return "Send operation timed out"
        case .receiveTimeout: return "Receive operation timed out"
        }
    }

    /// `code.rawValue`.
    public var errorCode: Int { code.rawValue }

    /// The description (``message``), a failure reason (the underlying error's, else the message) so
    /// Linux's `NSError` prints readably, and the underlying error when there is one.
    public var errorUserInfo: [String: Any] {
        var info: [String: Any] = [
            NSLocalizedDescriptionKey: message,
            NSLocalizedFailureReasonErrorKey: underlying.map(ErrorText.reason(of:)) ?? message,
        ]
        if let underlying {
            info[NSUnderlyingErrorKey] = underlying
        }
        return info
    }

    /// "AsyncUdpSocketErrorDomain code: message".
    public var description: String { "\(Self.errorDomain) \(code.rawValue): \(message)" }

    /// Equal when the codes are.
    public static func == (a: AsyncUdpSocketError, b: AsyncUdpSocketError) -> Bool {
        a.code == b.code
    }
}
