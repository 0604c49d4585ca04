import Foundation

/// The errors of the run-loop socket, in domain `"AsyncSocketErrorDomain"` with the final (7.4.x)
/// numbering of the original.
///
/// It bridges to `NSError`, so ported code that compares `(error as NSError).domain` and `.code`
/// keeps working. Errors that are not the socket's own keep their domain: POSIX errors arrive as
/// `NSError` in `NSPOSIXErrorDomain`, name resolution in `"kCFStreamErrorDomainNetDB"`, TLS in
/// `"kCFStreamErrorDomainSSL"`.
public struct AsyncSocketError: Error, CustomNSError, Equatable, CustomStringConvertible, Sendable {
    /// `AsyncSocketError` values of the original.
    public enum Code: Int, Sendable {
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
    /// A human-readable description.
    public let message: String
    /// The system error behind a `socketError`, when there is one.
    public let underlying: NSError?

    /// An error with the original's default description for `code`, or with `message`.
    public init(_ code: Code, message: String? = nil, underlying: NSError? = nil) {
        self.code = code
        self.message = message ?? Self.defaultDescription(code)
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

    /// `code.rawValue`.
    public var errorCode: Int { code.rawValue }

    /// The description, and the underlying error when there is one.
    public var errorUserInfo: [String: Any] {
        var info: [String: Any] = [NSLocalizedDescriptionKey: message]
        if let underlying {
            info[NSUnderlyingErrorKey] = underlying
        }
        return info
    }

    /// "AsyncSocketErrorDomain code: message".
    public var description: String { "\(Self.errorDomain) \(code.rawValue): \(message)" }

    /// Equal when the codes are.
    public static func == (a: AsyncSocketError, b: AsyncSocketError) -> Bool {
        a.code == b.code
    }
}

/// What the original raised as `AsyncSocketException` for programmer errors: connecting or accepting
/// without a delegate, or while not disconnected; a call on the wrong thread stops the program instead.
/// Thrown by the connect and accept methods; never an ``AsyncSocketError``.
public struct AsyncSocketUsageError: Error, CustomStringConvertible, Equatable, Sendable {
    /// What was wrong.
    public let message: String

    /// A usage error saying `message`.
    public init(_ message: String) {
        self.message = message
    }

    /// The message.
    public var description: String { "AsyncSocketUsageError: \(message)" }
}

/// Builders for the system errors the sockets report, as `NSError`s in their own domains.
enum SystemError {
    /// The `kCFStreamErrorDomainNetDB` domain of name-resolution errors.
    static let netDBDomain = "kCFStreamErrorDomainNetDB"

    /// A POSIX error for `code` (an errno), with `strerror`'s text and what failed.
    static func posix(_ code: Int32, _ operation: String? = nil) -> NSError {
        var info: [String: Any] = [NSLocalizedDescriptionKey: String(cString: strerror(code))]
        if let operation {
            info[NSLocalizedFailureReasonErrorKey] = "Error in \(operation)() function"
        }
        return NSError(domain: NSPOSIXErrorDomain, code: Int(code), userInfo: info)
    }

    /// A name-resolution error for a getaddrinfo/evdns `code`.
    static func netDB(_ code: Int32, message: String) -> NSError {
        NSError(domain: netDBDomain, code: Int(code), userInfo: [NSLocalizedDescriptionKey: message])
    }
}
