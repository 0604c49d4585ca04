/// A path the scanner could not read: missing, unreadable, or not a source file.
public struct ScanProblem: Error, Sendable, Hashable, CustomStringConvertible {
    /// The path as given or as found.
    public let path: String
    /// What went wrong ("No such file or directory").
    public let message: String

    /// A problem with `path`.
    public init(path: String, message: String) {
        self.path = path
        self.message = message
    }

    /// "path: message".
    public var description: String { "\(path): \(message)" }
}
