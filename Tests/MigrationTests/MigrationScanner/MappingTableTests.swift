import Foundation
import MigrationScanner
import Testing

@Suite("The migration table: complete, consistent, and pasted into Migration/README.md")
struct MappingTableTests {
    @Test("Migration/README.md holds exactly what `migrate-scan --mapping-markdown` prints")
    func readmeTables() throws {
        let readme = try String(contentsOfFile: packageRoot + "/Migration/README.md", encoding: .utf8)
        let section = try #require(MappingMarkdown.section(in: readme), "the mapping markers are missing")
        #expect(
            section == MappingMarkdown.render(),
            "Migration/README.md is stale: paste the output of `asyncsocket migrate-scan --mapping-markdown` between the markers"
        )
    }

    @Test("every selector, delegate method, constant and error code of the final run-loop AsyncSocket has an entry")
    func complete() {
        let v4 = Set(APICatalog.entries.map(\.v4))
        let surface = [
            "init", "initWithDelegate:", "initWithDelegate:userData:", "description", "delegate",
            "canSafelySetDelegate",
            "setDelegate:", "userData", "setUserData:", "getCFSocket", "getCFReadStream", "getCFWriteStream",
            "acceptOnPort:error:", "acceptOnInterface:port:error:", "acceptOnAddress:port:error:",
            "connectToHost:onPort:error:", "connectToHost:onPort:withTimeout:error:", "connectToAddress:error:",
            "connectToAddress:withTimeout:error:", "connectToAddress:viaInterfaceAddress:withTimeout:error:",
            "disconnect", "disconnectAfterReading", "disconnectAfterWriting", "disconnectAfterReadingAndWriting",
            "isConnected", "connectedHost", "connectedPort", "localHost", "localPort", "connectedAddress",
            "localAddress", "isIPv4", "isIPv6", "readDataWithTimeout:tag:",
            "readDataWithTimeout:buffer:bufferOffset:tag:",
            "readDataWithTimeout:buffer:bufferOffset:maxLength:tag:", "readDataToLength:withTimeout:tag:",
            "readDataToLength:withTimeout:buffer:bufferOffset:tag:", "readDataToData:withTimeout:tag:",
            "readDataToData:withTimeout:buffer:bufferOffset:tag:", "readDataToData:withTimeout:maxLength:tag:",
            "readDataToData:withTimeout:buffer:bufferOffset:maxLength:tag:", "writeData:withTimeout:tag:",
            "progressOfReadReturningTag:bytesDone:total:", "progressOfWriteReturningTag:bytesDone:total:", "startTLS:",
            "enablePreBuffering", "moveToRunLoop:", "setRunLoopModes:", "addRunLoopMode:", "removeRunLoopMode:",
            "runLoopModes", "unreadData", "CRLFData", "CRData", "LFData", "ZeroData",
            "onSocket:willDisconnectWithError:", "onSocketDidDisconnect:", "onSocket:didAcceptNewSocket:",
            "onSocket:wantsRunLoopForNewSocket:", "onSocketWillConnect:", "onSocket:didConnectToHost:port:",
            "onSocket:didReadData:withTag:", "onSocket:didReadPartialDataOfLength:tag:",
            "onSocket:didWriteDataWithTag:",
            "onSocket:didWritePartialDataOfLength:tag:", "onSocket:shouldTimeoutReadWithTag:elapsed:bytesDone:",
            "onSocket:shouldTimeoutWriteWithTag:elapsed:bytesDone:", "onSocketDidSecure:", "AsyncSocketException",
            "AsyncSocketErrorDomain", "AsyncSocketCFSocketError", "AsyncSocketNoError", "AsyncSocketCanceledError",
            "AsyncSocketConnectTimeoutError", "AsyncSocketReadMaxedOutError", "AsyncSocketReadTimeoutError",
            "AsyncSocketWriteTimeoutError", "kCFStreamSSLPeerName", "kCFStreamSSLIsServer", "kCFStreamSSLCertificates",
            "kCFStreamSSLLevel", "kCFStreamSSLAllowsAnyRoot", "kCFStreamSSLAllowsExpiredRoots",
            "kCFStreamSSLAllowsExpiredCertificates", "kCFStreamSSLValidatesCertificateChain",
        ]
        #expect(surface.filter { !v4.contains($0) } == [])
        #expect(APICatalog.entries.count == 144)
    }

    @Test("spellings are unique; selectors are filed as selectors; every gap is explained")
    func consistent() {
        let entries = APICatalog.entries
        let objectiveC = entries.flatMap { [$0.v4] + $0.aliases }
        #expect(Set(objectiveC).count == objectiveC.count)
        let swift = entries.filter { $0.swiftScope != .mappingOnly }.compactMap(\.swift)
        #expect(Set(swift).count == swift.count)
        for entry in entries {
            #expect(entry.v4.contains(":") == false || entry.kind.isSelector, "\(entry.v4)")
            #expect((entry.kind == .header) == entry.v4.hasSuffix(".h"), "\(entry.v4)")
            if entry.support != .supported {
                #expect(entry.note?.isEmpty == false, "\(entry.v4) needs a note saying why")
            }
            if entry.support == .unsupported {
                #expect(entry.runLoopSocket == "none" || entry.kind == .platformSymbol, "\(entry.v4)")
            }
            if let instead = entry.queueSocket.instead {
                #expect(!instead.isEmpty, "\(entry.v4)")
            }
            #expect(entry.swift?.isEmpty != true)
        }
    }

    @Test("the markdown: one table per group, one row per entry, no stray pipes")
    func markdown() {
        let text = MappingMarkdown.render()
        let rows = text.split(separator: "\n").filter { $0.hasPrefix("| `") }
        #expect(rows.count == APICatalog.entries.count)
        #expect(text.components(separatedBy: "### ").count - 1 == 6)
        #expect(rows.allSatisfy { $0.replacingOccurrences(of: "\\|", with: "").split(separator: "|").count == 6 })
        #expect(MappingMarkdown.section(in: "no markers") == nil)
        #expect(MappingMarkdown.section(in: "a\n<!-- mapping:begin -->\nX\n<!-- mapping:end -->\n") == "X\n")
    }
}
