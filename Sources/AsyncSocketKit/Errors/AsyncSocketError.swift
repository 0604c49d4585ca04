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

/// Builders for the system errors the sockets report, as `NSError`s in their own domains.
enum SystemError {
    /// The `kCFStreamErrorDomainNetDB` domain of name-resolution errors.
    static let netDBDomain = "kCFStreamErrorDomainNetDB"

    /// A POSIX error for `code` (a Linux errno), with `strerror`'s text as its description and, as
    /// GCDAsyncSocket's `errnoErrorWithReason:` did, "Error in <operation>() function" as its failure
    /// reason. Without an operation, Foundation gives `strerror`'s text as the failure reason.
    static func posix(_ code: Int32, _ operation: String? = nil) -> NSError {
        var info: [String: Any] = [NSLocalizedDescriptionKey: errnoText(code)]
        if let operation {
            info[NSLocalizedFailureReasonErrorKey] = "Error in \(operation)() function"
        }
        return NSError(domain: NSPOSIXErrorDomain, code: Int(code), userInfo: info)
    }

    /// `strerror`'s text for `code`.
    static func errnoText(_ code: Int32) -> String {
        ErrorText.nonEmpty(String(cString: strerror(code))) ?? "Unknown error \(code)"
    }

    /// A name-resolution error for a glibc `getaddrinfo` `code` (`EAI_…`, numbered as glibc numbers
    /// them): `gai_strerror`'s text as the description; `message`, when it says more than that text,
    /// as the failure reason (else the text again, so the error prints readably).
    static func netDB(_ code: Int32, message: String? = nil) -> NSError {
        let text = gaiText(code)
        let reason = ErrorText.nonEmpty(message) ?? text
        return NSError(
            domain: netDBDomain, code: Int(code),
            userInfo: [NSLocalizedDescriptionKey: text, NSLocalizedFailureReasonErrorKey: reason])
    }

    /// A name-resolution error for a libevent `code` (`EVUTIL_EAI_…`, as evdns reports it), carried
    /// as glibc's `EAI_…` value and text (see ``glibcEAI(fromEvutil:)``).
    static func netDB(evutilCode code: Int32, message: String? = nil) -> NSError {
        guard let glibc = glibcEAI(fromEvutil: code) else {
            let detail = ErrorText.nonEmpty(message).map { ": \($0)" } ?? ""
            return netDB(EAI_FAIL, message: "The resolver reported libevent error \(code)\(detail)")
        }
        return netDB(glibc, message: message)
    }

    /// The error for a lookup on a resolver that could not be set up (`EVUTIL_EAI_FAIL`), saying why.
    static func netDB(evutilCode code: Int32, resolverSetupError: String?) -> NSError {
        netDB(evutilCode: code, message: "The resolver could not be set up: \(resolverSetupError ?? "no evdns base")")
    }

    /// glibc's `EAI_…` value for a libevent `EVUTIL_EAI_…` code, or `nil` for a code libevent keeps
    /// to itself.
    ///
    /// libevent defines each `EVUTIL_EAI_…` as the system's `EAI_…` when it was built with the
    /// system's `getaddrinfo`, and otherwise as its own number (−901 … −911); a cancelled request is
    /// always its own −90001 (glibc's `EAI_CANCELED`, −101, here). Both numberings are mapped, so the
    /// answer is glibc's whichever way libevent was built; its texts (`evutil_gai_strerror`, BSD
    /// wording such as "nodename nor servname provided, or not known") are never used.
    static func glibcEAI(fromEvutil code: Int32) -> Int32? {
        switch code {
        case -901: return glibcEAIAddressFamily
        case -902: return EAI_AGAIN
        case -903: return EAI_BADFLAGS
        case -904: return EAI_FAIL
        case -905: return EAI_FAMILY
        case -906: return EAI_MEMORY
        case -907: return glibcEAINoData
        case -908: return EAI_NONAME
        case -909: return EAI_SERVICE
        case -910: return EAI_SOCKTYPE
        case -911: return EAI_SYSTEM
        case -90_001: return glibcEAICanceled
        case ...(-900): return nil
        default: return code  // Already the system's (glibc's) value.
        }
    }

    // glibc's values for the codes it declares only under _GNU_SOURCE (<netdb.h>).
    static let glibcEAINoData: Int32 = -5
    static let glibcEAIAddressFamily: Int32 = -9
    static let glibcEAICanceled: Int32 = -101

    /// `gai_strerror`'s text for a glibc `code`; a code glibc does not know says so with its number.
    static func gaiText(_ code: Int32) -> String {
        let text = String(cString: gai_strerror(code))
        if text.isEmpty || text.hasPrefix("Unknown error") {
            return "Unknown name resolution error (code \(code))"
        }
        return text
    }
}

/// Small helpers for the error texts.
enum ErrorText {
    /// `text` unless it is `nil` or only white space.
    static func nonEmpty(_ text: String?) -> String? {
        guard let text, !text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else { return nil }
        return text
    }

    /// An `NSError`'s failure reason, else its description.
    static func reason(of error: NSError) -> String {
        nonEmpty(error.localizedFailureReason) ?? error.localizedDescription
    }
}
