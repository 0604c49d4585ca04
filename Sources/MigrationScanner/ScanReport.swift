/// What a scan of paths found: the uses, the paths that could not be read, and how many files
/// were read.
public struct ScanReport: Sendable, Hashable {
    /// Every use, by file (in walking order), then line and column.
    public var findings: [ScanFinding] = []
    /// The paths that could not be read.
    public var problems: [ScanProblem] = []
    /// How many source files were read.
    public var filesScanned = 0

    /// An empty report.
    public init() {}

    /// How many files have at least one use.
    public var filesWithFindings: Int { Set(findings.map(\.file)).count }

    /// The uses of API that Linux does not support, or that AsyncSocketKit does not support yet (UDP).
    public var unsupported: [ScanFinding] { findings.filter { $0.mapping.support.isProblem } }

    /// The delegate methods that nearly match a requirement (warnings).
    public var nearMisses: [ScanFinding] { findings.filter { $0.mapping.kind == .delegateNearMiss } }

    /// The uses of API that has a stand-in on Linux.
    public var standIns: [ScanFinding] { findings.filter { $0.mapping.support == .standIn } }
}
