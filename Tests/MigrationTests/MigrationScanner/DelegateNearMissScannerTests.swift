import MigrationScanner
import Testing

@Suite("migrate-scan: delegate methods that nearly match a requirement")
struct DelegateNearMissScannerTests {
    let scanner = APIScanner()

    private func warnings(_ source: String, _ language: SourceLanguage) -> [ScanFinding] {
        scanner.scan(source, language: language).filter { $0.mapping.kind == .delegateNearMiss }
    }

    let swiftDelegate = """
        import AsyncSocketKit

        final class Client: RunLoopSocketDelegate, QueueSocketDelegate {
            func onSocket(_ sock: RunLoopSocket, didReadData data: Data, withTag tag: Int) {}
            func onSocket(_ sock: RunLoopSocket, didRead data: Data, withTag tag: Int) {}
            func socket(_ s: QueueSocket, didReadData data: Data, withTag tag: Int) {}
            func onSocketDidDisconnect(sock: RunLoopSocket) {}
            func onSocket(_ sock: RunLoopSocket, didRead data: NSData, withTag tag: Int) {}
            func onSocketWillConnect(_ sock: RunLoopSocket) {}
            func onSocket(_ sock: RunLoopSocket, willDisconnectWithError error: Error?) {}
            func socketDidDisconnect(_ sock: QueueSocket, withError err: Error?) {}
            func onSocket(_ sock: RunLoopSocket, shouldTimeoutReadWithTag tag: Int, elapsed: TimeInterval,
                          bytesDone: Int) -> Double { 0 }
            func socketDidDisconect(_ sock: QueueSocket, withError error: (any Error)?) {}
            func socket(_ sock: QueueSocket, didReceiveTrust trust: CertificateChain,
                        completionHandler: @escaping @Sendable (Bool) -> Void) {}
            func helper(_ x: Int) {}
            func socket(named name: String) -> Int { 0 }
        }
        """

    @Test("wrong labels, a wrong type, a missing return type, a misspelt name: warnings with the exact signature")
    func swift() {
        let found = warnings(swiftDelegate, .swift)
        #expect(
            found.map { "\($0.line):\($0.column) \($0.found) → \($0.mapping.runLoopSocket)" } == [
                "4:10 onSocket(_:didReadData:withTag:) → func onSocket(_ sock: RunLoopSocket, didRead data: Data, "
                    + "withTag tag: Int)",
                "6:10 socket(_:didReadData:withTag:) → func socket(_ sock: QueueSocket, didRead data: Data, "
                    + "withTag tag: Int)",
                "7:10 onSocketDidDisconnect(sock:) → func onSocketDidDisconnect(_ sock: RunLoopSocket)",
                "8:10 onSocket(_:didRead:withTag:) → func onSocket(_ sock: RunLoopSocket, didRead data: Data, "
                    + "withTag tag: Int)",
                "9:10 onSocketWillConnect(_:) → func onSocketWillConnect(_ sock: RunLoopSocket) -> Bool",
                "14:10 socketDidDisconect(_:withError:) → func socketDidDisconnect(_ sock: QueueSocket, "
                    + "withError error: (any Error)?)",
            ])
        let notes = found.compactMap(\.mapping.note)
        #expect(notes[0].contains("RunLoopSocketDelegate's `onSocket(_:didRead:withTag:)`"))
        #expect(notes[0].contains("the label `didReadData` should be `didRead`"))
        #expect(notes[0].contains("Swift will silently call the protocol extension's default instead"))
        #expect(notes[1].contains("QueueSocketDelegate's `socket(_:didRead:withTag:)`"))
        #expect(notes[2].contains("the first parameter needs no label"))
        #expect(notes[3].contains("the type `NSData` should be `Data`"))
        #expect(notes[4].contains("it must return `Bool`"))
        #expect(notes[5].contains("the name `socketDidDisconect` should be `socketDidDisconnect`"))
        #expect(found.allSatisfy { !$0.mapping.support.isProblem })
    }

    @Test("the text line is a warning; the summary counts near-misses; the exit status stays 0")
    func output() throws {
        let finding = try #require(warnings(swiftDelegate, .swift).first)
        #expect(
            FindingText.line(finding).hasPrefix(
                "<input>:4:10: warning: onSocket(_:didReadData:withTag:) → func onSocket(_ sock: RunLoopSocket, "
                    + "didRead data: Data, withTag tag: Int) | nearly matches"))
        try withTemporaryDirectory { directory in
            try write(swiftDelegate, to: directory + "/Client.swift")
            let result = MigrateScan(paths: [directory]).run()
            #expect(result.output.contains(", 6 delegate near-misses."))
            #expect(result.status == .clean)
        }
    }

    @Test("exact matches, and files that adopt neither protocol, give no warning")
    func noWarnings() {
        let exact = """
            final class Client: RunLoopSocketDelegate {
                func onSocket(_ sock: RunLoopSocket, didRead data: Data, withTag tag: Int) {}
                func onSocket(_ sock: RunLoopSocket, wantsRunLoopForNewSocket newSocket: RunLoopSocket) -> EventRunLoop? {
                    nil
                }
                func onSocket(_ sock: RunLoopSocket, didConnectToHost host: String, port: UInt16) {}
            }
            """
        #expect(warnings(exact, .swift).isEmpty)
        // A bridged v4 client: its delegate methods are v4 uses, not near-misses of RunLoopSocketDelegate.
        let bridged = """
            final class Old: NSObject, AsyncSocketDelegate {
                func onSocket(_ sock: AsyncSocket!, didReadData data: Data!, withTag tag: Int) {}
            }
            """
        #expect(warnings(bridged, .swift).isEmpty)
        // Without the protocols, only a first parameter of RunLoopSocket or QueueSocket makes it a delegate method.
        #expect(warnings("func socket(_ s: QueueSocket, didReadData d: Data, withTag t: Int) {}", .swift).count == 1)
        #expect(warnings("func socket(_ s: Socket, didReadData d: Data, withTag t: Int) {}", .swift).isEmpty)
        #expect(
            MigrateScan(paths: [packageRoot + "/Migration/Example/Swift"]).run().output.contains("warning") == false)
    }

    @Test("Objective-C: delegate-looking methods that match no selector, with the nearest one")
    func objectiveC() {
        let source = """
            @implementation Client
            - (void)onSocket:(AsyncSocket *)sock didReadDatas:(NSData *)data withTag:(long)tag {}
            - (void)onSocket:(AsyncSocket *)sock didReadData:(NSData *)data withTag:(long)tag {}
            - (void)socket:(GCDAsyncSocket *)sock didConnectToHst:(NSString *)host port:(uint16_t)port {}
            - (void)socketDidDisconnect:(GCDAsyncSocket *)sock {}
            - (void)onSocketDidDisconect:(AsyncSocket *)sock {}
            - (void)onSocket:(AsyncSocket *)sock didSecure:(BOOL)flag {}
            - (void)setSocket:(AsyncSocket *)sock {}
            - (void)socketList {}
            @end
            """
        let found = warnings(source, .objectiveC)
        #expect(
            found.map { "\($0.line):\($0.column) \($0.found) → \($0.mapping.runLoopSocket)" } == [
                "2:9 onSocket:didReadDatas:withTag: → onSocket:didReadData:withTag:",
                "4:9 socket:didConnectToHst:port: → socket:didConnectToHost:port:",
                "5:9 socketDidDisconnect: → socketDidDisconnect:withError:",
                "6:9 onSocketDidDisconect: → onSocketDidDisconnect:",
            ])
        #expect(found[0].mapping.note?.contains("AsyncSocketDelegate's `onSocket:didReadData:withTag:`") == true)
        #expect(found[0].mapping.note?.contains("(`onSocket(_:didRead:withTag:)` in Swift)") == true)
        #expect(found[1].mapping.note?.contains("GCDAsyncSocketDelegate's") == true)
        #expect(found[1].mapping.queueSocket == .api("socket(_:didConnectToHost:port:)"))
    }

    @Test("the requirement list matches the protocols' declarations")
    func requirements() {
        let runLoop = APICatalog.delegateRequirements.filter { $0.protocolName == "RunLoopSocketDelegate" }
        let queue = APICatalog.delegateRequirements.filter { $0.protocolName == "QueueSocketDelegate" }
        #expect(runLoop.count == 13)
        #expect(queue.count == 14)
        #expect(Set(runLoop.map(\.selector)).isSubset(of: Set(APICatalog.entries.map(\.v4))))
        #expect(Set(queue.map(\.selector)).isSubset(of: Set(APICatalog.gcdEntries.map(\.v4))))
        #expect(
            runLoop.first { $0.selector == "onSocket:shouldTimeoutReadWithTag:elapsed:bytesDone:" }?.signature
                == "func onSocket(_ sock: RunLoopSocket, shouldTimeoutReadWithTag tag: Int, elapsed: TimeInterval, "
                + "bytesDone length: Int) -> TimeInterval")
    }
}
