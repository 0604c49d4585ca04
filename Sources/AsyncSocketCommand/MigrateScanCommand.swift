import ArgumentParser
import Foundation
import MigrationScanner

/// `asyncsocket migrate-scan`: finds the uses of the run-loop AsyncSocket API in Objective-C and Swift
/// sources and says what each becomes (see `MigrateScan` for the behavior and exit statuses).
struct MigrateScanCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "migrate-scan",
        abstract: "Find uses of the run-loop AsyncSocket (v4) API and show what each becomes.",
        discussion: """
            Reads .m, .mm, .h and .swift files (directories are walked recursively, skipping hidden \
            entries) and prints one line per use: file:line:column, the v4 API, its RunLoopSocket \
            spelling, its QueueSocket equivalent (or what to do instead) and, where the port behaves \
            differently, a note. Comments and string literals are skipped; in Swift files the spellings \
            an Objective-C-bridging program used are found too. GCDAsyncSocket code is mapped to \
            QueueSocket, AsyncUdpSocket to RunLoopUdpSocket and GCDAsyncUdpSocket to QueueUdpSocket; the \
            run-loop calls and CoreFoundation networking around the sockets are reported with their \
            replacements; delegate methods that nearly match a delegate requirement are warnings.

            Exit status: 0 when nothing unsupported on Linux was found, 1 when something was, 2 for a \
            usage error or a path that could not be read.
            """
    )

    @Argument(help: "Files or directories to scan.")
    var paths: [String] = []

    @Flag(help: "Print the findings as a JSON array of objects with stable keys.")
    var json = false

    @Flag(help: "Print the full v4 → RunLoopSocket → QueueSocket mapping as Markdown tables, and scan nothing.")
    var mappingMarkdown = false

    @Flag(help: "Print the GCDAsyncSocket → QueueSocket mapping as Markdown tables, and scan nothing.")
    var gcdMappingMarkdown = false

    @Flag(help: "Print the AsyncUdpSocket and GCDAsyncUdpSocket table as Markdown, and scan nothing.")
    var udpMappingMarkdown = false

    func run() throws {
        let result = MigrateScan(
            paths: paths, json: json, mappingMarkdown: mappingMarkdown, gcdMappingMarkdown: gcdMappingMarkdown,
            udpMappingMarkdown: udpMappingMarkdown
        ).run()
        FileHandle.standardOutput.write(Data(result.output.utf8))
        FileHandle.standardError.write(Data(result.errors.utf8))
        if result.status != .clean {
            throw ExitCode(result.status.rawValue)
        }
    }
}
