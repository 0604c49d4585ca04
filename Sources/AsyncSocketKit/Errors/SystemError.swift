import Foundation

/// Builders for the system errors the sockets report, as `NSError`s in their own domains.
package enum SystemError {
    /// The `kCFStreamErrorDomainNetDB` domain of name-resolution errors.
    package static let netDBDomain = "kCFStreamErrorDomainNetDB"

    /// A POSIX error for `code` (a Linux errno), with `strerror`'s text as its description and, as
    /// GCDAsyncSocket's `errnoErrorWithReason:` did, "Error in <operation>() function" as its failure
    /// reason. Without an operation, Foundation gives `strerror`'s text as the failure reason.
    package static func posix(_ code: Int32, _ operation: String? = nil) -> NSError {
        var info: [String: Any] = [NSLocalizedDescriptionKey: errnoText(code)]
        if let operation {
            info[NSLocalizedFailureReasonErrorKey] = "Error in \(operation)() function"
        }
        return NSError(domain: NSPOSIXErrorDomain, code: Int(code), userInfo: info)
    }

    /// `strerror`'s text for `code`.
    package static func errnoText(_ code: Int32) -> String {
        ErrorText.nonEmpty(String(cString: strerror(code))) ?? "Unknown error \(code)"
    }

    /// A name-resolution error for a glibc `getaddrinfo` `code` (`EAI_…`, numbered as glibc numbers
    /// them): `gai_strerror`'s text as the description; `message`, when it says more than that text,
    /// as the failure reason (else the text again, so the error prints readably).
    package static func netDB(_ code: Int32, message: String? = nil) -> NSError {
        let text = gaiText(code)
        let reason = ErrorText.nonEmpty(message) ?? text
        return NSError(
            domain: netDBDomain, code: Int(code),
            userInfo: [NSLocalizedDescriptionKey: text, NSLocalizedFailureReasonErrorKey: reason])
    }

    /// A name-resolution error for a libevent `code` (`EVUTIL_EAI_…`, as evdns reports it), carried
    /// as glibc's `EAI_…` value and text (see ``glibcEAI(fromEvutil:)``).
    package static func netDB(evutilCode code: Int32, message: String? = nil) -> NSError {
        guard let glibc = glibcEAI(fromEvutil: code) else {
            let detail = ErrorText.nonEmpty(message).map { ": \($0)" } ?? ""
            return netDB(EAI_FAIL, message: "The resolver reported libevent error \(code)\(detail)")
        }
        return netDB(glibc, message: message)
    }

    /// The error for a lookup on a resolver that could not be set up (`EVUTIL_EAI_FAIL`), saying why.
    package static func netDB(evutilCode code: Int32, resolverSetupError: String?) -> NSError {
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
    package static func glibcEAI(fromEvutil code: Int32) -> Int32? {
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
    package static func gaiText(_ code: Int32) -> String {
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
    package static func nonEmpty(_ text: String?) -> String? {
        guard let text, !text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else { return nil }
        return text
    }

    /// An `NSError`'s failure reason, else its description.
    package static func reason(of error: NSError) -> String {
        nonEmpty(error.localizedFailureReason) ?? error.localizedDescription
    }
}
