/// What kind of v4 API an ``APIMapping`` describes; it also decides how the scanner recognises it.
public enum APIKind: String, Sendable, Hashable, CaseIterable, Codable {
    /// A class or protocol name (`AsyncSocket`, `AsyncSocketDelegate`), matched as an identifier.
    case type
    /// A header (`AsyncSocket.h`), matched in `#import` and `#include` lines.
    case header
    /// A method of the run-loop `AsyncSocket` class, matched as a selector.
    case method
    /// A method of the informal `AsyncSocketDelegate` protocol, matched as a selector.
    case delegateMethod = "delegate-method"
    /// A global constant (`AsyncSocketErrorDomain`), matched as an identifier.
    case constant
    /// A value of the `AsyncSocketError` enum, matched as an identifier.
    case errorCode = "error-code"
    /// A TLS setting key or value for `startTLS:`, matched as an identifier.
    case tlsSetting = "tls-setting"
    /// A method of a neighbouring class that v4-era code used (GCDAsyncSocket's iOS-only calls),
    /// matched as a selector.
    case platformMethod = "platform-method"
    /// A Foundation, CoreFoundation or Security symbol that v4 code passed to or took from the
    /// socket, matched as an identifier.
    case platformSymbol = "platform-symbol"
    /// Not in the catalog: a delegate method whose name nearly matches a delegate requirement (a wrong
    /// label or parameter type in Swift, a selector that matches no delegate method in Objective-C).
    /// The scanner makes these up as it finds them; they are warnings.
    case delegateNearMiss = "delegate-near-miss"

    /// Whether the Objective-C spelling is a selector (found in message sends, method declarations
    /// and `@selector(…)`) rather than an identifier or a header name.
    public var isSelector: Bool {
        switch self {
        case .method, .delegateMethod, .platformMethod: return true
        case .type, .header, .constant, .errorCode, .tlsSetting, .platformSymbol, .delegateNearMiss: return false
        }
    }

    /// Whether the API belongs to `AsyncSocket` itself rather than to the platform around it.
    public var isAsyncSocketAPI: Bool {
        switch self {
        case .platformMethod, .platformSymbol, .delegateNearMiss: return false
        case .type, .header, .method, .delegateMethod, .constant, .errorCode, .tlsSetting: return true
        }
    }
}
