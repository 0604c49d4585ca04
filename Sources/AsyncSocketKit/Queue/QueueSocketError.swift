import Foundation

/// The errors of ``QueueSocket``, in domain `"GCDAsyncSocketErrorDomain"` with GCDAsyncSocket's 0–8
/// numbering. Bridges to `NSError`. Errors that are not the socket's own keep their domain (POSIX,
/// `"kCFStreamErrorDomainNetDB"`, `"kCFStreamErrorDomainSSL"`).
///
/// `localizedDescription` is ``message``, and so is the bridged `NSError`'s failure reason (which
/// GCDAsyncSocket did not set): swift-corelibs-foundation prints an `NSError` as
/// `Error Domain=… Code=… "<localizedFailureReason>"`, and would print `"(null)"` without one.
public struct QueueSocketError: Error, CustomNSError, Equatable, CustomStringConvertible, Sendable {
    /// `GCDAsyncSocketError` values.
    public enum Code: Int, Sendable, CaseIterable {
        /// Never produced.
        case noError = 0
        /// No delegate or delegate queue, already connected or accepting, or both IP versions disabled.
        case badConfig = 1
        /// An invalid argument: empty host, malformed address, unknown interface, disabled family, bad URL.
        case badParam = 2
        /// The connect timeout passed.
        case connectTimeout = 3
        /// A read timed out and was not extended.
        case readTimeout = 4
        /// A write timed out and was not extended.
        case writeTimeout = 5
        /// A read to a separator reached its maximum length.
        case readMaxedOut = 6
        /// The peer closed the connection ("Socket closed by remote peer").
        case closed = 7
        /// Anything else; the message says what.
        case other = 8
    }

    /// GCDAsyncSocket's error domain.
    public static let errorDomain = "GCDAsyncSocketErrorDomain"

    /// Which error.
    public let code: Code
    /// A human-readable description; never empty.
    public let message: String

    /// An error with `code` and `message` (GCDAsyncSocket's text when `nil` or empty).
    public init(_ code: Code, _ message: String? = nil) {
        self.code = code
        self.message = ErrorText.nonEmpty(message) ?? Self.defaultMessage(code)
    }

    private static func defaultMessage(_ code: Code) -> String {
        switch code {
        case .noError: return "No error"
        case .badConfig: return "Invalid configuration"
        case .badParam: return "Invalid parameter"
        case .connectTimeout: return "Attempt to connect to host timed out"
        case .readTimeout: return "Read operation timed out"
        case .writeTimeout: return "Write operation timed out"
        case .readMaxedOut: return "Read operation reached set maximum length"
        case .closed: return "Socket closed by remote peer"
        case .other: return "Unknown error"
        }
    }

    /// `code.rawValue`.
    public var errorCode: Int { code.rawValue }
    /// The message as `NSLocalizedDescriptionKey`, and again as `NSLocalizedFailureReasonErrorKey` so
    /// the bridged `NSError` prints readably on Linux.
    public var errorUserInfo: [String: Any] {
        [NSLocalizedDescriptionKey: message, NSLocalizedFailureReasonErrorKey: message]
    }
    /// "GCDAsyncSocketErrorDomain code: message".
    public var description: String { "\(Self.errorDomain) \(code.rawValue): \(message)" }

    /// Equal when the codes are.
    public static func == (a: QueueSocketError, b: QueueSocketError) -> Bool {
        a.code == b.code
    }
}
