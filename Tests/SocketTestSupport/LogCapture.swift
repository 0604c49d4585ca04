import AsyncSocketCore
import Foundation
import Logging

/// A swift-log handler that keeps every line it is given, for tests that check what was logged.
package final class LogCapture: Sendable {
    package struct Line: Sendable, CustomStringConvertible {
        package let level: Logger.Level
        package let message: String
        package let metadata: [String: String]
        package var description: String { "[\(level)] \(message) \(metadata)" }
    }

    private let stored = Lock<[Line]>([])

    package init() {}

    /// Everything logged so far.
    package var lines: [Line] { stored.withLock { $0 } }

    /// A logger writing here, every level.
    package var logger: Logger {
        var logger = Logger(label: "test") { _ in Handler(capture: self) }
        logger.logLevel = .trace
        return logger
    }

    /// The messages logged at `level`.
    package func messages(at level: Logger.Level) -> [String] {
        lines.filter { $0.level == level }.map(\.message)
    }

    fileprivate func append(_ line: Line) {
        stored.withLock { $0.append(line) }
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
            let all = metadata.merging(event.metadata ?? [:]) { $1 }
            capture.append(
                Line(
                    level: event.level, message: "\(event.message)",
                    metadata: all.mapValues { "\($0)" }))
        }
    }
}
