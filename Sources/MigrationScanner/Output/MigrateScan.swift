/// What `asyncsocket migrate-scan` does, apart from parsing its arguments: so it runs in-process in
/// tests, with the same output and exit status as the command.
public struct MigrateScan: Sendable {
    /// The command's exit statuses.
    public enum ExitStatus: Int32, Sendable {
        /// Nothing unsupported was found (uses with stand-ins or notes are fine).
        case clean = 0
        /// Some use of API that Linux does not support was found.
        case unsupportedFound = 1
        /// A usage error, or a path that could not be read.
        case failed = 2
    }

    /// What the command prints and how it ends.
    public struct Result: Sendable, Equatable {
        /// The text for standard output.
        public var output: String
        /// The text for standard error (problems and usage errors, one per line).
        public var errors: String
        /// The exit status.
        public var status: ExitStatus
    }

    /// Files and directories to scan.
    public var paths: [String]
    /// Print a JSON array instead of lines and a summary.
    public var json: Bool
    /// Print the mapping tables (and scan nothing).
    public var mappingMarkdown: Bool
    /// Print the GCDAsyncSocket → QueueSocket table (and scan nothing).
    public var gcdMappingMarkdown: Bool
    /// Print the UDP table (and scan nothing).
    public var udpMappingMarkdown: Bool

    /// An invocation with these arguments.
    public init(
        paths: [String], json: Bool = false, mappingMarkdown: Bool = false, gcdMappingMarkdown: Bool = false,
        udpMappingMarkdown: Bool = false
    ) {
        self.paths = paths
        self.json = json
        self.mappingMarkdown = mappingMarkdown
        self.gcdMappingMarkdown = gcdMappingMarkdown
        self.udpMappingMarkdown = udpMappingMarkdown
    }

    /// Runs the invocation with `scanner`.
    public func run(scanner: APIScanner = APIScanner()) -> Result {
        let tables = [mappingMarkdown, gcdMappingMarkdown, udpMappingMarkdown].filter { $0 }.count
        if tables > 0 {
            guard paths.isEmpty, !json, tables == 1 else {
                return usageError(
                    "--mapping-markdown, --gcd-mapping-markdown and --udp-mapping-markdown take no PATH, "
                        + "no --json and no other table")
            }
            let output =
                mappingMarkdown
                ? MappingMarkdown.render()
                : gcdMappingMarkdown ? MappingMarkdown.renderGCD() : MappingMarkdown.renderUDP()
            return Result(output: output, errors: "", status: .clean)
        }
        guard !paths.isEmpty else { return usageError("missing PATH: give at least one file or directory") }
        let report = scanner.scan(paths: paths)
        var output: String
        if json {
            output = FindingText.json(report.findings) + "\n"
        } else {
            output = report.findings.map { FindingText.line($0) + "\n" }.joined()
            output += FindingText.summary(report) + "\n"
        }
        let errors = report.problems.map { "migrate-scan: \($0)\n" }.joined()
        let status: ExitStatus =
            !report.problems.isEmpty ? .failed : report.unsupported.isEmpty ? .clean : .unsupportedFound
        return Result(output: output, errors: errors, status: status)
    }

    private func usageError(_ message: String) -> Result {
        Result(output: "", errors: "migrate-scan: \(message) (see --help)\n", status: .failed)
    }
}
