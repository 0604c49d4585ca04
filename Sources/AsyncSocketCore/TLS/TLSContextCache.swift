import COpenSSL
import Foundation

// Building an SSL context means reading and parsing the identity and trust files, which costs more
// than the handshake itself on a busy server. Engines with equal settings share one context (an
// SSL_CTX may serve many sessions at once once configured; everything per connection — the
// verification policy, the host name, SNI — lives on the SSL). A few recent settings are kept.
enum TLSContextCache {
    private static let capacity = 8
    private static let entries = Lock<[(settings: TLSSettings, context: OpaquePointer)]>([])

    /// A context for `settings`, with a reference the caller must release (SSL_CTX_free).
    static func context(for settings: TLSSettings) throws(TLSError) -> OpaquePointer {
        if let cached = entries.withLock({ entries -> OpaquePointer? in
            guard let index = entries.firstIndex(where: { $0.settings == settings }) else { return nil }
            let entry = entries.remove(at: index)
            entries.append(entry)
            SSL_CTX_up_ref(entry.context)
            return entry.context
        }) {
            return cached
        }
        let context = try TLSContextFactory.makeContext(settings: settings)
        SSL_CTX_up_ref(context)
        let evicted = entries.withLock { entries -> OpaquePointer? in
            entries.append((settings, context))
            return entries.count > capacity ? entries.removeFirst().context : nil
        }
        if let evicted {
            SSL_CTX_free(evicted)
        }
        return context
    }
}
