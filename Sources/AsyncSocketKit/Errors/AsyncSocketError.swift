import Foundation

/// The errors of the run-loop socket, in domain `"AsyncSocketErrorDomain"` with the final (7.4.x)
/// numbering of the original.
///
/// It bridges to `NSError`, so ported code that compares `(error as NSError).domain` and `.code`
/// keeps working. Errors that are not the socket's own keep their domain: POSIX errors arrive as
/// `NSError` in `NSPOSIXErrorDomain`, name resolution in `"kCFStreamErrorDomainNetDB"`, TLS in
/// `"kCFStreamErrorDomainSSL"`.
///
/// Every form of the error reads as a sentence: `localizedDescription` is ``message``; printing the
/// error (`"\(error)"`) gives ``description``; and the bridged `NSError` carries a failure reason
/// (the underlying error's, else the message), because swift-corelibs-foundation prints an
/// `NSError` as `Error Domain=… Code=… "<localizedFailureReason>"` and would print `"(null)"`
/// without one.
public struct AsyncSocketError: Error, CustomNSError, Equatable, CustomStringConvertible, Sendable {
    /// `AsyncSocketError` values of the original.
    public enum Code: Int, Sendable, CaseIterable {
        /// `AsyncSocketCFSocketError`: a socket could not be created, bound, listened on or connected.
        case socketError = -1
        /// `AsyncSocketNoError`: never produced.
        case noError = 0
        /// `AsyncSocketCanceledError`: `onSocketWillConnect(_:)` returned `false`.
        case canceled = 1
        /// `AsyncSocketConnectTimeoutError`: the connect timeout passed.
        case connectTimeout = 2
        /// `AsyncSocketReadMaxedOutError`: a read to a separator reached its maximum length.
        case readMaxedOut = 3
        /// `AsyncSocketReadTimeoutError`: a read timed out and was not extended.
        case readTimeout = 4
        /// `AsyncSocketWriteTimeoutError`: a write timed out and was not extended.
        case writeTimeout = 5
    }

    /// The error domain of the original.
    public static let errorDomain = "AsyncSocketErrorDomain"

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
        case .canceled: return "Connection canceled"
        case .connectTimeout: return "Attempt to connect to host timed out"
        case .readMaxedOut: return "Read operation reached set maximum length"
        case .readTimeout: return "Read operation timed out"
        case .writeTimeout: return "Write operation timed out"
        }
    }

    /// Why it failed, as the bridged `NSError`'s `localizedFailureReason`: the underlying error's
    /// reason ("Error in connect() function") when there is one, else the message. The original set
    /// no failure reason; this one is here so the error prints readably on Linux.
    var failureReason: String {
        if let underlying {
            return ErrorText.reason(of: underlying)
        }
        return message
    }

    /// `code.rawValue`.
    public var errorCode: Int { code.rawValue }

    /// The description (``message``); a failure reason (the underlying error's, else the message),
    /// without which Linux's `NSError` prints `"(null)"`; and the underlying error when there is one.
    public var errorUserInfo: [String: Any] {
        var info: [String: Any] = [
            NSLocalizedDescriptionKey: message,
            NSLocalizedFailureReasonErrorKey: failureReason,
        ]
        if let underlying {
            info[NSUnderlyingErrorKey] = underlying
        }
        return info
    }

    /// "AsyncSocketErrorDomain code: message", followed by the underlying error's reason in
    /// parentheses when the message does not already say it.
    public var description: String {
        var text = "\(Self.errorDomain) \(code.rawValue): \(message)"
        if underlying != nil, !message.contains(failureReason) {
            text += " (\(failureReason))"
        }
        return text
    }

    /// Equal when the codes are.
    public static func == (a: AsyncSocketError, b: AsyncSocketError) -> Bool {
        a.code == b.code
    }
}

/// What the original raised as `AsyncSocketException` for programmer errors: connecting or accepting
/// without a delegate, or while not disconnected; a call on the wrong thread stops the program instead.
/// Thrown by the connect and accept methods; never an ``AsyncSocketError``.
///
/// Its `localizedDescription`, its bridged `NSError`'s failure reason and its printed form all
/// carry ``message``.
public struct AsyncSocketUsageError: Error, CustomStringConvertible, Equatable, Sendable, LocalizedError {
    /// What was wrong; never empty.
    public let message: String

    /// A usage error saying `message` (an empty `message` becomes a generic sentence).
    public init(_ message: String) {
        self.message = ErrorText.nonEmpty(message) ?? "The socket was used in a way the original did not allow"
    }

    /// The message.
    public var description: String { "AsyncSocketUsageError: \(message)" }

    /// The message, as `localizedDescription` (the original exception's reason).
    public var errorDescription: String? { message }

    /// The message again, so the bridged `NSError` prints it on Linux (whose `NSError` description
    /// shows the failure reason).
    public var failureReason: String? { message }
}
