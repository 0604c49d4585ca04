import Foundation
import MigrationScanner

/// The package's root directory (this file is Tests/MigrationTests/MigrationScanner/…).
let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent().path

/// `(line, column, found)` of each finding, for compact expectations.
func places(_ findings: [ScanFinding]) -> [Place] {
    findings.map { Place($0.line, $0.column, $0.found) }
}

/// Where a finding is and what was found there.
struct Place: Equatable, CustomStringConvertible {
    let line: Int
    let column: Int
    let found: String

    init(_ line: Int, _ column: Int, _ found: String) {
        self.line = line
        self.column = column
        self.found = found
    }

    var description: String { "\(line):\(column) \(found)" }
}

/// A fresh directory under the system's temporary directory, removed when `body` returns.
func withTemporaryDirectory<T>(_ body: (String) throws -> T) throws -> T {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("migrate-scan-\(UUID().uuidString)").path
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: path) }
    return try body(path)
}

/// Writes `text` to `path`, creating the directories on the way.
func write(_ text: String, to path: String) throws {
    try write(Data(text.utf8), to: path)
}

/// Writes `data` to `path`, creating the directories on the way.
func write(_ data: Data, to path: String) throws {
    let url = URL(fileURLWithPath: path)
    try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
    try data.write(to: url)
}
