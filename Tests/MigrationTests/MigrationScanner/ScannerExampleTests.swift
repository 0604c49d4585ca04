import Foundation
import MigrationScanner
import Testing

@Suite("migrate-scan on the worked example (Migration/Example)")
struct ScannerExampleTests {
    let scanner = APIScanner()
    let example = packageRoot + "/Migration/Example"

    @Test("LineClient.m: every use, in order, and nothing from its comments and strings")
    func implementation() throws {
        let findings = try scanner.scanFile(atPath: example + "/LineClient.m")
        #expect(findings.count == 25)
        #expect(findings.allSatisfy { $0.file == example + "/LineClient.m" && $0.language == .objectiveC })
        #expect(
            places(findings).map(\.found) == [
                "AsyncSocket", "initWithDelegate:", "enablePreBuffering", "connectToHost:onPort:withTimeout:error:",
                "disconnect",
                "readDataToData:withTimeout:tag:", "AsyncSocket", "CRLFData", "writeData:withTimeout:tag:",
                "onSocket:didConnectToHost:port:", "AsyncSocket", "onSocket:didReadData:withTag:", "AsyncSocket",
                "readDataToLength:withTimeout:tag:", "onSocket:shouldTimeoutReadWithTag:elapsed:bytesDone:",
                "AsyncSocket", "onSocket:willDisconnectWithError:", "AsyncSocket", "unreadData",
                "AsyncSocketErrorDomain", "AsyncSocketReadTimeoutError", "onSocketDidDisconnect:", "AsyncSocket",
                "setDelegate:", "disconnect",
            ])
        let expected = [
            Place(33, 14, "AsyncSocket"),
            Place(61, 10, "readDataToData:withTimeout:tag:"),  // a send over three lines
            Place(61, 26, "AsyncSocket"),
            Place(61, 38, "CRLFData"),
            Place(132, 19, "onSocket:shouldTimeoutReadWithTag:elapsed:bytesDone:"),  // a declaration over four
            Place(149, 25, "unreadData"),
            Place(156, 82, "AsyncSocketReadTimeoutError"),
        ]
        for place in expected {
            #expect(places(findings).contains(place), "missing \(place)")
        }
        // Line 74 mentions onSocket:willDisconnectWithError: in a comment, 127 AsyncSocketReadTimeoutError.
        #expect(!findings.contains { [74, 127].contains($0.line) })
        // Known receivers: line 33 allocates an AsyncSocket into `socket`, so its `setDelegate:` on line 174
        // is the socket's too.
        #expect(places(findings).contains(Place(33, 33, "initWithDelegate:")))
        #expect(places(findings).contains(Place(174, 10, "setDelegate:")))
        let initialiser = try #require(findings.first { $0.found == "initWithDelegate:" })
        #expect(initialiser.mapping.runLoopSocket == "RunLoopSocket(delegate:)")
    }

    @Test("what each use becomes")
    func mappings() throws {
        let findings = try scanner.scanFile(atPath: example + "/LineClient.m")
        let read = try #require(findings.first { $0.line == 61 && $0.column == 10 })
        #expect(read.mapping.runLoopSocket == "readData(to:withTimeout:tag:)")
        #expect(read.mapping.queueSocket == .api("readData(to:withTimeout:tag:)"))
        #expect(read.mapping.kind == .method)
        let unread = try #require(findings.first { $0.found == "unreadData" })
        #expect(unread.mapping.runLoopSocket == "unreadData()")
        #expect(unread.mapping.queueSocket.spelling == nil)
        #expect(unread.mapping.queueSocket.instead?.contains("keep a read queued") == true)
        let willDisconnect = try #require(findings.first { $0.found == "onSocket:willDisconnectWithError:" })
        #expect(willDisconnect.mapping.kind == .delegateMethod)
        #expect(willDisconnect.mapping.note?.contains("RDHUP") == true)
        let timeout = try #require(findings.first { $0.found == "AsyncSocketReadTimeoutError" })
        #expect(timeout.mapping.runLoopSocket == "AsyncSocketError.Code.readTimeout")
        #expect(findings.allSatisfy { $0.mapping.support == .supported })
    }

    @Test("LineClient.h: the header import, the protocol and the instance variable")
    func header() throws {
        let findings = try scanner.scanFile(atPath: example + "/LineClient.h")
        #expect(
            places(findings) == [
                Place(10, 10, "AsyncSocket.h"), Place(19, 35, "AsyncSocketDelegate"), Place(21, 2, "AsyncSocket"),
            ])
        #expect(findings[0].mapping.runLoopSocket == "import AsyncSocketKit")
    }

    @Test("the whole example directory: the Swift ports report nothing, nothing is unsupported")
    func directory() throws {
        let swiftFiles = try FileManager.default.contentsOfDirectory(atPath: example + "/Swift")
            .filter { $0.hasSuffix(".swift") }
        #expect(swiftFiles.count >= 5)
        let report = scanner.scan(paths: [example])
        #expect(report.problems.isEmpty)
        #expect(report.filesScanned == 2 + swiftFiles.count)
        #expect(report.findings.count == 28)
        #expect(Set(report.findings.map(\.file)) == [example + "/LineClient.h", example + "/LineClient.m"])
        #expect(report.unsupported.isEmpty)
        #expect(MigrateScan(paths: [example]).run().status == .clean)
    }
}
