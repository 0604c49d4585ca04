import Foundation
import MigrationScanner
import Testing

@Suite("asyncsocket migrate-scan: output, JSON and exit statuses")
struct MigrateScanCommandTests {
    private let unsupported = """
        #import "AsyncSocket.h"
        GCDAsyncUdpSocket *udp;
        [sock enableBackgroundingOnSocket];
        """

    @Test("a line per use with its mapping, then a summary")
    func humanOutput() throws {
        try withTemporaryDirectory { directory in
            try write(
                unsupported + "\n[sock readDataToData:d withTimeout:-1 tag:0];\nid fd = [sock getCFSocket];",
                to: directory + "/Old.m")
            let result = MigrateScan(paths: [directory]).run()
            let lines = result.output.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            #expect(
                lines[0]
                    == "\(directory)/Old.m:1:10: AsyncSocket.h → import AsyncSocketKit | QueueSocket: import AsyncSocketKit"
            )
            #expect(lines[1] == "\(directory)/Old.m:2:1: GCDAsyncUdpSocket → QueueUdpSocket: QueueUdpSocket")
            #expect(
                lines[3].hasPrefix(
                    "\(directory)/Old.m:4:7: readDataToData:withTimeout:tag: → readData(to:withTimeout:tag:) | QueueSocket: "
                        + "readData(to:withTimeout:tag:) | note: Prebuffering reads ahead"))
            #expect(
                lines[4].hasPrefix(
                    "\(directory)/Old.m:5:15: getCFSocket → socketFD | QueueSocket: socketFD | stand-in: "))
            #expect(
                lines[5]
                    == "5 uses of the v4 API in 1 of 1 file scanned: 1 unsupported on Linux, 1 with stand-ins.")
            #expect(lines.count == 7 && lines[6].isEmpty)
            #expect(result.errors.isEmpty)
            #expect(result.status == .unsupportedFound)
        }
    }

    @Test("a Swift spelling or an alias is shown beside the v4 spelling")
    func foundSpelling() {
        let finding = APIScanner().scan("socket.move(to: loop) // AsyncSocket", language: .swift, file: "A.swift")
        #expect(finding.isEmpty)
        let line = APIScanner().scan("let s: AsyncSocket\ns.move(to: loop)", language: .swift, file: "A.swift").map(
            FindingText.line)
        #expect(line.count == 2)
        #expect(
            line[1].hasPrefix("A.swift:2:3: moveToRunLoop: (as move(to:)) → moveToRunLoop(_:) | QueueSocket: none — "))
    }

    @Test("--json: an array of flat objects with the same keys every time")
    func json() throws {
        try withTemporaryDirectory { directory in
            try write(unsupported, to: directory + "/Old.m")
            let result = MigrateScan(paths: [directory + "/Old.m"], json: true).run()
            #expect(result.status == .unsupportedFound)
            let objects = try #require(
                try JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [[String: Any]])
            #expect(objects.count == 3)
            let keys: Set<String> = [
                "file", "line", "column", "language", "found", "v4", "kind", "runLoopSocket", "queueSocket",
                "queueSocketInstead", "note", "support", "unsupported",
            ]
            #expect(objects.allSatisfy { Set($0.keys) == keys })
            let header = objects[0]
            #expect(header["file"] as? String == directory + "/Old.m")
            #expect(header["line"] as? Int == 1)
            #expect(header["column"] as? Int == 10)
            #expect(header["language"] as? String == "objective-c")
            #expect(header["v4"] as? String == "AsyncSocket.h")
            #expect(header["kind"] as? String == "header")
            #expect(header["queueSocket"] as? String == "import AsyncSocketKit")
            #expect(header["queueSocketInstead"] is NSNull)
            #expect(header["note"] is NSNull)
            #expect(header["support"] as? String == "supported")
            #expect(header["unsupported"] as? Bool == false)
            let background = objects[2]
            #expect(background["found"] as? String == "enableBackgroundingOnSocket")
            #expect(background["kind"] as? String == "platform-method")
            #expect(background["queueSocket"] is NSNull)
            #expect(background["queueSocketInstead"] as? String == "delete the call")
            #expect(background["unsupported"] as? Bool == true)
            #expect(result.output.hasPrefix("[\n  {\n    \"column\" : 10,\n    \"file\" : "))
            let none = MigrateScan(paths: [packageRoot + "/Migration/Example/Swift"], json: true).run()
            #expect((try JSONSerialization.jsonObject(with: Data(none.output.utf8)) as? [Any])?.isEmpty == true)
        }
    }

    @Test("exit statuses: 0 clean, 1 unsupported found, 2 usage errors and unreadable paths")
    func statuses() throws {
        try withTemporaryDirectory { directory in
            try write("[sock unreadData];", to: directory + "/clean.m")
            try write(unsupported, to: directory + "/old.m")
            #expect(MigrateScan(paths: [directory + "/clean.m"]).run().status == .clean)
            #expect(MigrateScan(paths: [directory]).run().status == .unsupportedFound)
            let missing = MigrateScan(paths: [directory, directory + "/gone"]).run()
            #expect(missing.status == .failed)
            #expect(missing.errors == "migrate-scan: \(directory)/gone: No such file or directory\n")
            #expect(missing.output.hasSuffix("; 1 path could not be read.\n"))
            let noPath = MigrateScan(paths: []).run()
            #expect(noPath.status == .failed)
            #expect(noPath.output.isEmpty)
            #expect(noPath.errors.contains("missing PATH"))
            #expect(MigrateScan(paths: [directory], mappingMarkdown: true).run().status == .failed)
            #expect(MigrateScan(paths: [], json: true, mappingMarkdown: true).run().status == .failed)
            let mapping = MigrateScan(paths: [], mappingMarkdown: true).run()
            #expect(mapping.status == .clean)
            #expect(mapping.output == MappingMarkdown.render())
        }
    }

    @Test("the built asyncsocket binary: --help, an unknown option, a scan")
    func binary() throws {
        let directory = URL(
            fileURLWithPath: try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")
        )
        .deletingLastPathComponent()
        let binary = directory.appendingPathComponent("asyncsocket").path
        try #require(FileManager.default.isExecutableFile(atPath: binary), "build the asyncsocket product first")
        let help = try run(binary, ["migrate-scan", "--help"])
        #expect(help.status == 0)
        #expect(help.output.contains("USAGE: asyncsocket migrate-scan [<paths> ...] [--json] [--mapping-markdown]"))
        #expect(help.output.contains("Exit status: 0 when nothing unsupported"))
        let unknown = try run(binary, ["migrate-scan", "--bogus", "x.m"])
        #expect(unknown.status == 2)
        #expect(unknown.errors.contains("Unknown option '--bogus'"))
        let scan = try run(binary, ["migrate-scan", packageRoot + "/Migration/Example"])
        #expect(scan.status == 0)
        #expect(scan.output == MigrateScan(paths: [packageRoot + "/Migration/Example"]).run().output)
        #expect(scan.output.contains("28 uses of the v4 API in 2 of "))
        try withTemporaryDirectory { directory in
            try write(unsupported, to: directory + "/old.m")
            #expect(try run(binary, ["migrate-scan", "--json", directory]).status == 1)
            #expect(try run(binary, ["migrate-scan", directory + "/none.m"]).status == 2)
        }
    }

    private func run(_ binary: String, _ arguments: [String]) throws -> (status: Int32, output: String, errors: String)
    {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: binary)
        process.arguments = arguments
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        let outputData = output.fileHandleForReading.readDataToEndOfFile()
        let errorData = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (
            process.terminationStatus, String(decoding: outputData, as: UTF8.self),
            String(decoding: errorData, as: UTF8.self)
        )
    }
}
