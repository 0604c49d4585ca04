import Foundation
import Logging

/// Collects what a logger logs, for tests that check warnings.
final class LogCapture: @unchecked Sendable {
    private let lock = NSLock()
    private var entries: [(level: Logger.Level, message: String)] = []

    /// A logger that writes into this capture.
    var logger: Logger {
        Logger(label: "tls-test") { _ in Handler(capture: self) }
    }

    /// The messages logged at `level`.
    func messages(at level: Logger.Level) -> [String] {
        lock.withLock { entries.filter { $0.level == level }.map(\.message) }
    }

    fileprivate func append(_ level: Logger.Level, _ message: String) {
        lock.withLock { entries.append((level, message)) }
    }

    private struct Handler: LogHandler {
        let capture: LogCapture
        var metadata: Logger.Metadata = [:]
        var logLevel: Logger.Level = .trace

        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }

        func log(event: LogEvent) {
            capture.append(event.level, event.message.description)
        }
    }
}
