import ArgumentParser
import Logging

/// `--log-level`, shared by the subcommands: each makes one Logger from it and hands it to its
/// sockets through their `logger:` parameters.
struct LoggingOptions: ParsableArguments {
    @Option(help: "The lowest level logged to standard error.")
    var logLevel: LogLevel = .info

    /// A logger labelled `label` that writes to standard error at the chosen level (no global
    /// bootstrap, so a command can be run more than once in a process).
    func makeLogger(label: String) -> Logger {
        var logger = Logger(label: label) { StreamLogHandler.standardError(label: $0) }
        logger.logLevel = logLevel.level
        return logger
    }
}

/// swift-log's levels as command-line values.
enum LogLevel: String, CaseIterable, ExpressibleByArgument {
    case trace, debug, info, notice, warning, error, critical

    /// The swift-log level of the same name.
    var level: Logger.Level { Logger.Level(rawValue: rawValue) ?? .info }
}
