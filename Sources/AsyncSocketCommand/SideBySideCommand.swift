import ArgumentParser
import Foundation
import Logging
import MigrationTesting

/// `asyncsocket side-by-side`: the built-in scenarios, each played against `RunLoopSocket` on both
/// engines and against the `QueueSocket` port, compared by `MigrationTesting`, printed as a report.
struct SideBySideCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "side-by-side",
        abstract: "Play built-in scenarios against RunLoopSocket (both engines) and QueueSocket, and compare.",
        discussion: """
            Each scenario is one scripted loopback peer; the same program runs on RunLoopSocket with the \
            native engine (the reference), on RunLoopSocket with the queue core, and as its QueueSocket \
            port. The report compares the bytes the peer received and the delegate calls, under \
            MigrationTesting's equivalence rules. Exit status 1 when a run differs.
            """
    )

    @Option(name: .customLong("scenario"), help: "Run only these scenarios (repeatable; see --list).")
    var scenarios: [String] = []

    @Flag(help: "List the scenarios and exit.")
    var list = false

    @Flag(help: "Print every run's trace as well.")
    var verbose = false

    @Option(help: "The longest one run may take, in seconds.")
    var timeout: Double = 20

    @Option(help: "The lowest level the programs under test log to standard error.")
    var logLevel: LogLevel = .warning

    private var logger: Logger {
        var logger = Logger(label: "side-by-side") { StreamLogHandler.standardError(label: $0) }
        logger.logLevel = logLevel.level
        return logger
    }

    func validate() throws {
        let known = SideBySideScenario.all(logger: logger).map(\.name)
        if let unknown = scenarios.first(where: { !known.contains($0) }) {
            throw ValidationError("no scenario \"\(unknown)\"; there are: \(known.joined(separator: ", "))")
        }
    }

    func run() throws {
        let all = SideBySideScenario.all(logger: logger)
        if list {
            for scenario in all {
                print("\(scenario.name): \(scenario.summary)")
            }
            return
        }
        let chosen = scenarios.isEmpty ? all : all.filter { scenarios.contains($0.name) }
        var differing: [String] = []
        for scenario in chosen {
            print("== \(scenario.name): \(scenario.summary)")
            for difference in scenario.declared {
                print("   declared: \(difference)")
            }
            let report = scenario.run(timeout: timeout)
            print(report.description.split(separator: "\n").dropFirst().joined(separator: "\n"))
            if verbose {
                for outcome in report.outcomes {
                    print("   \(outcome.name):")
                    for entry in scenario.rules.normalize(outcome.trace) {
                        print("     \(entry)")
                    }
                }
            }
            if !report.isEquivalent {
                differing.append(scenario.name)
            }
        }
        if differing.isEmpty {
            print("\(chosen.count) scenario(s): every run equivalent to RunLoopSocket (native)")
        } else {
            print("\(differing.count) of \(chosen.count) scenario(s) differ: \(differing.joined(separator: ", "))")
            throw ExitCode(1)
        }
    }
}
