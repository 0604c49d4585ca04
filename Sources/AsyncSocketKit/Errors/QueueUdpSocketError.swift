import Foundation

/// The errors of ``QueueUdpSocket``, in domain `"GCDAsyncUdpSocketErrorDomain"` with
/// GCDAsyncUdpSocket's numbering. Bridges to `NSError`. System errors keep their own domains: a
/// failed `send`, `recvmsg` or `bind` arrives as an `NSError` in `NSPOSIXErrorDomain`, a failed name
/// lookup in `"kCFStreamErrorDomainNetDB"`.
public struct QueueUdpSocketError: Error, CustomNSError, Equatable, CustomStringConvertible, Sendable {
    /// `GCDAsyncUdpSocketError` values.
    public enum Code: Int, Sendable, CaseIterable {
        /// `GCDAsyncUdpSocketNoError`: never produced.
        case noError = 0
        /// `GCDAsyncUdpSocketBadConfigError`: no delegate or delegate queue where one is needed,
        /// bound or connected already, both IP versions disabled, a destination that does not fit
        /// the connection.
        case badConfig = 1
        /// `GCDAsyncUdpSocketBadParamError`: an unknown interface, an empty host, a malformed address.
        case badParam = 2
        /// `GCDAsyncUdpSocketSendTimeoutError`: a send waited for room longer than its timeout.
        case sendTimeout = 3
        /// `GCDAsyncUdpSocketClosedError`: the socket closed while the operation waited.
        case closed = 4
        /// `GCDAsyncUdpSocketOtherError`: anything else; the message says what.
        case other = 5
    }

    /// GCDAsyncUdpSocket's error domain.
    public static let errorDomain = "GCDAsyncUdpSocketErrorDomain"

    /// Which error.
    public let code: Code
    /// A human-readable description; never empty.
    public let message: String

    /// An error with `code` and `message` (GCDAsyncUdpSocket's text when `nil` or empty).
    public init(_ code: Code, _ message: String? = nil) {
        self.code = code
        self.message = ErrorText.nonEmpty(message) ?? Self.defaultMessage(code)
    }

    private static func defaultMessage(_ code: Code) -> String {
        switch code {
        case .noError: return "No error"
        case .badConfig: return "Invalid configuration"
        case .badParam: return "Invalid parameter"
        case .sendTimeout: return "Send operation timed out"
        case .closed: return "Socket closed"
        case .other: return "Unknown error"
        }
    }

    /// `code.rawValue`.
    public var errorCode: Int { code.rawValue }

    /// The message as description and failure reason (so Linux's `NSError` prints readably).
    public var errorUserInfo: [String: Any] {
        [NSLocalizedDescriptionKey: message, NSLocalizedFailureReasonErrorKey: message]
    }

    /// "GCDAsyncUdpSocketErrorDomain code: message".
    public var description: String { "\(Self.errorDomain) \(code.rawValue): \(message)" }

    /// Equal when the codes are.
    public static func == (a: QueueUdpSocketError, b: QueueUdpSocketError) -> Bool {
        a.code == b.code
    }
}
