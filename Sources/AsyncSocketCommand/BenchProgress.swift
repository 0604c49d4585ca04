import Foundation

/// The progress display of `bench` on standard error: one line redrawn in place on a terminal; on
/// anything else, one line per finished measurement.
struct BenchProgress {
    private let isTerminal = isatty(STDERR_FILENO) != 0

    /// Shows how far the measurement `label` is.
    func update(_ label: String, elapsed: Double, done: String) {
        guard isTerminal else { return }
        write("\r\u{1B}[K\(label)  " + String(format: "%.1f s", elapsed) + "  \(done)")
    }

    /// Ends the measurement `label`'s line.
    func finish(_ label: String, elapsed: Double, done: String) {
        write((isTerminal ? "\r\u{1B}[K" : "") + "\(label)  " + String(format: "%.2f s", elapsed) + "  \(done)\n")
    }

    private func write(_ text: String) {
        FileHandle.standardError.write(Data(text.utf8))
    }
}
