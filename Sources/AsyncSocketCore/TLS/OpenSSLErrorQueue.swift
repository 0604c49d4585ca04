import CAsyncSocketShims
import COpenSSL

/// OpenSSL's thread-local error queue, read and emptied in one go so that no error outlives the
/// call that caused it (engines on the same thread share the queue).
struct OpenSSLErrorQueue {
    /// One queued error.
    struct Entry {
        let library: Int32
        let reason: Int32
        /// `ERR_error_string_n`, e.g. "error:0A000086:SSL routines::certificate verify failed".
        let text: String
    }

    let entries: [Entry]

    /// Reads every queued error, oldest first, and clears the queue.
    static func drain() -> OpenSSLErrorQueue {
        var entries: [Entry] = []
        var code = ERR_get_error()
        while code != 0 {
            var buffer = [CChar](repeating: 0, count: 256)
            ERR_error_string_n(code, &buffer, buffer.count)
            let text = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            entries.append(Entry(library: ask_tls_error_library(code), reason: ask_tls_error_reason(code), text: text))
            code = ERR_get_error()
        }
        ERR_clear_error()
        return OpenSSLErrorQueue(entries: entries)
    }

    /// The reason of the oldest error from the SSL library, the one that names the failure.
    var sslReason: Int32? {
        entries.first { $0.library == ERR_LIB_SSL }?.reason
    }

    /// Every queued error's text, for messages; empty when the queue was empty.
    var text: String {
        entries.map(\.text).joined(separator: "; ")
    }
}
