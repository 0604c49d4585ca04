/// What becomes of a v4 API on `QueueSocket` (the GCDAsyncSocket model).
public enum QueueSocketEquivalent: Sendable, Hashable {
    /// This spelling on `QueueSocket` or `QueueSocketDelegate`.
    case api(String)
    /// Nothing: GCDAsyncSocket has no such API; the text says what to do instead.
    case none(instead: String)

    /// The spelling, or `nil` for ``none(instead:)``.
    public var spelling: String? {
        if case .api(let spelling) = self { return spelling }
        return nil
    }

    /// What to do instead, or `nil` for ``api(_:)``.
    public var instead: String? {
        if case .none(let instead) = self { return instead }
        return nil
    }
}
