/// Finds uses of the run-loop `AsyncSocket` ("v4") API — and of `GCDAsyncSocket`, the UDP classes and
/// the run-loop and CoreFoundation calls around them — in Objective-C and Swift source.
///
/// It reports every spelling of ``APICatalog/allEntries`` it meets outside comments and string
/// literals: selectors in message sends (also across lines), method declarations, `@selector(…)` and
/// Swift's `@objc(…)`; properties in dot syntax; class, protocol, constant and error-code names;
/// `#import`ed headers; and, in Swift, the spellings an Objective-C-bridging program used
/// (`readData(to:withTimeout:tag:)`, `AsyncSocket.crlfData()`). Where several classes share a
/// spelling, the receiver decides (`[udp localPort]` on an `AsyncUdpSocket *udp` is the UDP class's),
/// else the class the file uses. Spellings that other code shares (``MatchScope/filesUsingV4``) count
/// only in a file with an unmistakable use of a legacy socket class; ``MatchScope/knownReceiver`` ones
/// only on a receiver known to be the class. Delegate methods that nearly match a delegate requirement
/// are reported as warnings (``APIKind/delegateNearMiss``).
///
/// A scan reads each file once, in time linear in its size, and never fails on what a file holds
/// (binary bytes, bytes that are not UTF-8, unbalanced brackets): only a path that cannot be read
/// becomes a ``ScanProblem``.
public struct APIScanner: Sendable {
    private let index: CatalogIndex

    /// A scanner for the spellings of `catalog`.
    public init(catalog: [APIMapping] = APICatalog.allEntries) {
        index = CatalogIndex(catalog)
    }

    /// The uses in `source`, reported as being in `file`.
    public func scan(_ source: String, language: SourceLanguage, file: String = "<input>") -> [ScanFinding] {
        var text = source
        return text.withUTF8 { scan($0, language: language, file: file) }
    }

    /// The uses in the file at `path`, read as the language its extension names.
    public func scanFile(atPath path: String) throws(ScanProblem) -> [ScanFinding] {
        guard let language = SourceLanguage(path: path) else {
            throw ScanProblem(path: path, message: "not a .m, .mm, .h or .swift file")
        }
        return try SourceFile.withBytes(atPath: path) { scan($0, language: language, file: path) }
    }

    /// The uses in every source file at `paths` (files, or directories walked recursively). Instance
    /// variables and properties that the scanned headers declare with a legacy class
    /// (`AsyncUdpSocket *udpSocket;` in `Finder.h`) are receivers the implementation files know.
    public func scan(paths: [String]) -> ScanReport {
        var report = ScanReport()
        var files: [String] = []
        for path in paths {
            let (found, problems) = SourceTree.files(at: path)
            report.problems += problems
            files += found
        }
        let declared = declaredNames(inHeaders: files.filter { $0.hasSuffix(".h") })
        for file in files {
            do throws(ScanProblem) {
                guard let language = SourceLanguage(path: file) else {
                    throw ScanProblem(path: file, message: "not a .m, .mm, .h or .swift file")
                }
                report.findings += try SourceFile.withBytes(atPath: file) {
                    scan($0, language: language, file: file, declared: declared)
                }
                report.filesScanned += 1
            } catch {
                report.problems.append(error)
            }
        }
        return report
    }

    /// The names `headers` declare outside methods with a legacy class (a header that cannot be read
    /// is reported when it is scanned).
    private func declaredNames(inHeaders headers: [String]) -> [String: LegacyAPI] {
        var declared: [String: LegacyAPI] = [:]
        for header in headers {
            let names = try? SourceFile.withBytes(atPath: header) { source in
                var lexer = SourceLexer(source, language: .objectiveC)
                var matcher = ObjectiveCMatcher(index: index, source: source)
                while let token = lexer.next() { matcher.consume(token) }
                return matcher.fileBindings
            }
            declared.merge(names ?? [:]) { _, new in new }
        }
        return declared
    }

    private func scan(
        _ source: UnsafeBufferPointer<UInt8>, language: SourceLanguage, file: String,
        declared: [String: LegacyAPI] = [:]
    ) -> [ScanFinding] {
        var lexer = SourceLexer(source, language: language)
        let candidates: [MatchCandidate]
        let madeUp: [MadeUpFinding]
        switch language {
        case .objectiveC:
            var matcher = ObjectiveCMatcher(index: index, source: source, declared: declared)
            while let token = lexer.next() { matcher.consume(token) }
            matcher.finish()
            candidates = matcher.candidates
            madeUp = matcher.nearMisses
        case .swift:
            var matcher = SwiftMatcher(index: index, source: source)
            while let token = lexer.next() { matcher.consume(token) }
            matcher.finish()
            candidates = matcher.candidates
            madeUp = matcher.nearMisses
        }
        let found =
            CandidateResolver.resolve(candidates).map { candidate, mapping in
                ScanFinding(
                    file: file, line: candidate.line, column: candidate.column, language: language,
                    found: candidate.found, mapping: mapping)
            }
            + madeUp.map {
                ScanFinding(
                    file: file, line: $0.line, column: $0.column, language: language, found: $0.found,
                    mapping: $0.mapping)
            }
        return found.sorted { ($0.line, $0.column) < ($1.line, $1.column) }
    }
}
