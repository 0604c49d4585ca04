/// One use of the v4 API in a source file.
public struct ScanFinding: Sendable, Hashable {
    /// The file, as given or as found under a given directory.
    public let file: String
    /// The 1-based line.
    public let line: Int
    /// The 1-based column, in bytes (as clang and swiftc count).
    public let column: Int
    /// The language the file was read as.
    public let language: SourceLanguage
    /// The spelling as found: the v4 spelling, an alias, or the Swift spelling.
    public let found: String
    /// What it is and what it becomes.
    public let mapping: APIMapping

    /// A finding of `mapping`, spelled `found`, at `file`:`line`:`column`.
    public init(file: String, line: Int, column: Int, language: SourceLanguage, found: String, mapping: APIMapping) {
        self.file = file
        self.line = line
        self.column = column
        self.language = language
        self.found = found
        self.mapping = mapping
    }
}

extension ScanFinding: Encodable {
    private enum CodingKeys: String, CodingKey {
        case file, line, column, language, found, v4, kind, runLoopSocket, queueSocket, queueSocketInstead, note
        case support, unsupported
    }

    /// The finding as one flat object whose keys are always present (`null` when empty).
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(file, forKey: .file)
        try container.encode(line, forKey: .line)
        try container.encode(column, forKey: .column)
        try container.encode(language, forKey: .language)
        try container.encode(found, forKey: .found)
        try container.encode(mapping.v4, forKey: .v4)
        try container.encode(mapping.kind, forKey: .kind)
        try container.encode(mapping.runLoopSocket, forKey: .runLoopSocket)
        try container.encode(mapping.queueSocket.spelling, forKey: .queueSocket)
        try container.encode(mapping.queueSocket.instead, forKey: .queueSocketInstead)
        try container.encode(mapping.note, forKey: .note)
        try container.encode(mapping.support, forKey: .support)
        try container.encode(mapping.support.isProblem, forKey: .unsupported)
    }
}
