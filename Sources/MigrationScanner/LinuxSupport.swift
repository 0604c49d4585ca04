/// Whether a v4 API can be used on Linux through AsyncSocketKit.
public enum LinuxSupport: String, Sendable, Hashable, CaseIterable, Codable {
    /// The API works, under its ``APIMapping/runLoopSocket`` spelling.
    case supported
    /// The original thing cannot exist on Linux, but a stand-in does the same job
    /// (`getCFSocket` → `socketFD`).
    case standIn = "stand-in"
    /// Nothing takes its place: the code that uses it has to change (the note says how).
    case unsupported
}

extension LinuxSupport {
    /// Whether a use is a problem to settle before the port works: ``unsupported``.
    public var isProblem: Bool { self == .unsupported }
}
