/// The languages the scanner reads.
public enum SourceLanguage: String, Sendable, Hashable, Codable {
    /// Objective-C (and Objective-C++): `.m`, `.mm`, `.h`.
    case objectiveC = "objective-c"
    /// Swift: `.swift`.
    case swift

    /// The language of a file with this name, by its extension, or `nil` for other files.
    public init?(path: String) {
        guard let dot = path.lastIndex(of: "."), !path[dot...].contains("/") else { return nil }
        switch path[path.index(after: dot)...] {
        case "m", "mm", "h": self = .objectiveC
        case "swift": self = .swift
        default: return nil
        }
    }
}
