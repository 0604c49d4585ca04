/// A legacy TLS settings dictionary that cannot be used: an unknown key, a value of the wrong type,
/// or a value this library refuses (such as a protocol version below TLS 1.2).
public struct TLSSettingsError: Error, CustomStringConvertible, Sendable, Equatable {
    /// The dictionary key at fault.
    public let key: String
    /// What the key accepts.
    public let expected: String
    /// A short description of the value that was given.
    public let found: String

    /// An error for `key`, saying what it accepts and what it got.
    public init(key: String, expected: String, found: String) {
        self.key = key
        self.expected = expected
        self.found = found
    }

    /// One sentence naming the key, what it accepts and what it got.
    public var description: String {
        "TLS setting \"\(key)\": expected \(expected), got \(found)"
    }
}
