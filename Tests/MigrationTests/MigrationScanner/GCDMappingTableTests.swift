import Foundation
import MigrationScanner
import Testing

@Suite("The GCDAsyncSocket → QueueSocket table: complete, in Migration/README.md, and used by migrate-scan")
struct GCDMappingTableTests {
    let scanner = APIScanner()

    @Test("Migration/README.md holds exactly what `--gcd-mapping-markdown` and `--udp-mapping-markdown` print")
    func readmeTables() throws {
        let readme = try String(contentsOfFile: packageRoot + "/Migration/README.md", encoding: .utf8)
        let gcd = try #require(
            MappingMarkdown.section(
                in: readme, begin: MappingMarkdown.gcdBeginMarker, end: MappingMarkdown.gcdEndMarker),
            "the GCD mapping markers are missing")
        #expect(
            gcd == MappingMarkdown.renderGCD(),
            "Migration/README.md is stale: paste the output of `asyncsocket migrate-scan --gcd-mapping-markdown`")
        let udp = try #require(
            MappingMarkdown.section(
                in: readme, begin: MappingMarkdown.udpBeginMarker, end: MappingMarkdown.udpEndMarker),
            "the UDP mapping markers are missing")
        #expect(
            udp == MappingMarkdown.renderUDP(),
            "Migration/README.md is stale: paste the output of `asyncsocket migrate-scan --udp-mapping-markdown`")
        #expect(MigrateScan(paths: [], gcdMappingMarkdown: true).run().output == MappingMarkdown.renderGCD())
        #expect(MigrateScan(paths: [], udpMappingMarkdown: true).run().output == MappingMarkdown.renderUDP())
        #expect(MigrateScan(paths: [], mappingMarkdown: true, gcdMappingMarkdown: true).run().status == .failed)
    }

    @Test("every GCDAsyncSocket selector, delegate method, constant and error code has an entry")
    func complete() {
        let gcd = Set(APICatalog.gcdEntries.map(\.v4))
        let surface = [
            // Initialisers and wrapping a descriptor.
            "init", "initWithSocketQueue:", "initWithDelegate:delegateQueue:",
            "initWithDelegate:delegateQueue:socketQueue:", "socketFromConnectedSocketFD:socketQueue:error:",
            "socketFromConnectedSocketFD:delegate:delegateQueue:error:",
            "socketFromConnectedSocketFD:delegate:delegateQueue:socketQueue:error:",
            // Delegate and configuration.
            "delegate", "setDelegate:", "delegateQueue", "setDelegateQueue:", "getDelegate:delegateQueue:",
            "setDelegate:delegateQueue:", "synchronouslySetDelegate:", "synchronouslySetDelegateQueue:",
            "synchronouslySetDelegate:delegateQueue:", "isIPv4Enabled", "setIPv4Enabled:", "isIPv6Enabled",
            "setIPv6Enabled:", "isIPv4PreferredOverIPv6", "setIPv4PreferredOverIPv6:", "alternateAddressDelay",
            "setAlternateAddressDelay:", "userData", "setUserData:", "autoDisconnectOnClosedReadStream",
            "setAutoDisconnectOnClosedReadStream:",
            // Accepting, connecting, disconnecting.
            "acceptOnPort:error:", "acceptOnInterface:port:error:", "acceptOnUrl:error:", "connectToHost:onPort:error:",
            "connectToHost:onPort:withTimeout:error:", "connectToHost:onPort:viaInterface:withTimeout:error:",
            "connectToAddress:error:", "connectToAddress:withTimeout:error:",
            "connectToAddress:viaInterface:withTimeout:error:", "connectToUrl:withTimeout:error:",
            "connectToNetService:error:", "disconnect", "disconnectAfterReading", "disconnectAfterWriting",
            "disconnectAfterReadingAndWriting",
            // Diagnostics.
            "isDisconnected", "isConnected", "connectedHost", "connectedPort", "connectedUrl", "localHost", "localPort",
            "connectedAddress", "localAddress", "isIPv4", "isIPv6", "isSecure",
            // Reading, writing, progress, TLS, separators.
            "readDataWithTimeout:tag:", "readDataWithTimeout:buffer:bufferOffset:tag:",
            "readDataWithTimeout:buffer:bufferOffset:maxLength:tag:", "readDataToLength:withTimeout:tag:",
            "readDataToLength:withTimeout:buffer:bufferOffset:tag:", "readDataToData:withTimeout:tag:",
            "readDataToData:withTimeout:buffer:bufferOffset:tag:", "readDataToData:withTimeout:maxLength:tag:",
            "readDataToData:withTimeout:buffer:bufferOffset:maxLength:tag:", "writeData:withTimeout:tag:",
            "progressOfReadReturningTag:bytesDone:total:", "progressOfWriteReturningTag:bytesDone:total:", "startTLS:",
            "CRLFData", "CRData", "LFData", "ZeroData",
            // Advanced and utilities.
            "markSocketQueueTargetQueue:", "unmarkSocketQueueTargetQueue:", "performBlock:", "socketFD", "socket4FD",
            "socket6FD", "sslContext", "readStream", "writeStream", "enableBackgroundingOnSocket",
            "lookupHost:port:error:", "hostFromAddress:", "portFromAddress:", "isIPv4Address:", "isIPv6Address:",
            "getHost:port:fromAddress:", "getHost:port:family:fromAddress:", "description",
            // Delegate methods.
            "newSocketQueueForConnectionFromAddress:onSocket:", "socket:didAcceptNewSocket:",
            "socket:didConnectToHost:port:", "socket:didConnectToUrl:", "socket:didReadData:withTag:",
            "socket:didReadPartialDataOfLength:tag:", "socket:didWriteDataWithTag:",
            "socket:didWritePartialDataOfLength:tag:", "socket:shouldTimeoutReadWithTag:elapsed:bytesDone:",
            "socket:shouldTimeoutWriteWithTag:elapsed:bytesDone:", "socketDidCloseReadStream:",
            "socketDidDisconnect:withError:", "socketDidSecure:", "socket:didReceiveTrust:completionHandler:",
            // Constants, TLS keys, error codes, types.
            "GCDAsyncSocketException", "GCDAsyncSocketErrorDomain", "GCDAsyncSocketQueueName",
            "GCDAsyncSocketThreadName", "GCDAsyncSocketLoggingContext", "GCDAsyncSocketManuallyEvaluateTrust",
            "GCDAsyncSocketUseCFStreamForTLS", "GCDAsyncSocketSSLPeerID", "GCDAsyncSocketSSLProtocolVersionMin",
            "GCDAsyncSocketSSLProtocolVersionMax", "GCDAsyncSocketSSLSessionOptionFalseStart",
            "GCDAsyncSocketSSLSessionOptionSendOneByteRecord", "GCDAsyncSocketSSLCipherSuites", "GCDAsyncSocketSSLALPN",
            "GCDAsyncSocketSSLDiffieHellmanParameters", "GCDAsyncSocketNoError", "GCDAsyncSocketBadConfigError",
            "GCDAsyncSocketBadParamError", "GCDAsyncSocketConnectTimeoutError", "GCDAsyncSocketReadTimeoutError",
            "GCDAsyncSocketWriteTimeoutError", "GCDAsyncSocketReadMaxedOutError", "GCDAsyncSocketClosedError",
            "GCDAsyncSocketOtherError", "GCDAsyncSocket", "GCDAsyncSocketDelegate", "GCDAsyncSocketError",
            "GCDAsyncSocket.h",
        ]
        #expect(surface.filter { !gcd.contains($0) } == [])
        #expect(APICatalog.gcdEntries.count == surface.count)
    }

    @Test("QueueSocket spellings; where nothing exists, what to use instead")
    func spellings() throws {
        func entry(_ v4: String) throws -> APIMapping {
            try #require(APICatalog.gcdEntries.first { $0.v4 == v4 }, "\(v4)")
        }
        #expect(try entry("init").queueSocket == .api("QueueSocket()"))
        #expect(try entry("initWithSocketQueue:").queueSocket == .api("QueueSocket(socketQueue:)"))
        #expect(
            try entry("initWithDelegate:delegateQueue:").queueSocket == .api("QueueSocket(delegate:delegateQueue:)"))
        #expect(
            try entry("initWithDelegate:delegateQueue:socketQueue:").queueSocket
                == .api("QueueSocket(delegate:delegateQueue:socketQueue:)"))
        #expect(try entry("getDelegate:delegateQueue:").queueSocket == .api("getDelegate(_:delegateQueue:)"))
        #expect(try entry("getDelegate:delegateQueue:").note?.contains("inout") == true)
        #expect(try entry("getHost:port:fromAddress:").queueSocket == .api("QueueSocket.getHost(_:port:fromAddress:)"))
        #expect(
            try entry("getHost:port:family:fromAddress:").queueSocket
                == .api("QueueSocket.getHost(_:port:family:fromAddress:)"))
        #expect(try entry("sslContext").queueSocket == .api("sslContext"))
        #expect(try entry("sslContext").note?.contains("`OpaquePointer`") == true)
        #expect(try entry("sslContext").note?.contains("only inside `perform(_:)`") == true)
        let netService = try entry("connectToNetService:error:")
        #expect(netService.support == .unsupported)
        #expect(netService.queueSocket.instead?.contains("avahi") == true)
        #expect(netService.queueSocket.instead?.contains("connect(toHost:onPort:)") == true)
        for notOnLinux in [
            "enableBackgroundingOnSocket", "readStream", "writeStream", "GCDAsyncSocketUseCFStreamForTLS",
        ] {
            #expect(try entry(notOnLinux).support == .unsupported, "\(notOnLinux)")
        }
        #expect(
            try entry("socket:didReceiveTrust:completionHandler:").queueSocket
                == .api("socket(_:didReceiveTrust:completionHandler:)"))
        #expect(try entry("GCDAsyncSocketClosedError").queueSocket == .api("QueueSocketError.Code.closed"))
        for entry in APICatalog.gcdEntries {
            #expect(entry.api == .gcdAsyncSocket)
            #expect(entry.queueSocket.spelling?.isEmpty == false || entry.queueSocket.instead?.isEmpty == false)
            if entry.support != .supported { #expect(entry.note?.isEmpty == false, "\(entry.v4) needs a note") }
        }
        let spellings = APICatalog.gcdEntries.map(\.v4)
        #expect(Set(spellings).count == spellings.count)
    }

    @Test("the rendered table: four groups, one row per entry, QueueSocket column, no stray pipes")
    func markdown() {
        let text = MappingMarkdown.renderGCD()
        let rows = text.split(separator: "\n").filter { $0.hasPrefix("| `") }
        #expect(rows.count == APICatalog.gcdEntries.count)
        #expect(text.components(separatedBy: "### ").count - 1 == 4)
        #expect(rows.allSatisfy { $0.replacingOccurrences(of: "\\|", with: "").split(separator: "|").count == 5 })
        #expect(text.contains("| `connectToNetService:error:` | `connect(to:)` | none — resolve the service"))
    }

    let gcdClient = """
        #import "GCDAsyncSocket.h"
        @implementation Client
        - (void)start {
            asyncSocket = [[GCDAsyncSocket alloc] initWithDelegate:self delegateQueue:dispatch_get_main_queue()];
            [asyncSocket connectToHost:@"example.org" onPort:80 withTimeout:5 error:&err];
            [asyncSocket readDataToData:[GCDAsyncSocket CRLFData] withTimeout:-1 tag:0];
            [asyncSocket performBlock:^{ int fd = [asyncSocket socketFD]; }];
            [asyncSocket connectToNetService:service error:nil];
            asyncSocket.IPv4PreferredOverIPv6 = NO;
        }
        - (void)socket:(GCDAsyncSocket *)sock didReadData:(NSData *)data withTag:(long)tag {}
        - (void)socketDidDisconnect:(GCDAsyncSocket *)sock withError:(NSError *)err {
            if (err.code == GCDAsyncSocketClosedError) {}
        }
        @end
        """

    @Test("migrate-scan on GCDAsyncSocket code: each use with its QueueSocket spelling")
    func scanObjectiveC() throws {
        let findings = scanner.scan(gcdClient, language: .objectiveC, file: "Client.m")
        #expect(
            findings.filter { $0.mapping.kind != .type }.map { "\($0.line) \($0.found) → \($0.mapping.queueSocket)" }
                == [
                    "1 GCDAsyncSocket.h → api(\"import AsyncSocketKit\")",
                    "4 initWithDelegate:delegateQueue: → api(\"QueueSocket(delegate:delegateQueue:)\")",
                    "5 connectToHost:onPort:withTimeout:error: → api(\"connect(toHost:onPort:withTimeout:)\")",
                    "6 readDataToData:withTimeout:tag: → api(\"readData(to:withTimeout:tag:)\")",
                    "6 CRLFData → api(\"QueueSocket.crlfData\")",
                    "7 performBlock: → api(\"perform(_:)\")",
                    "7 socketFD → api(\"socketFD\")",
                    "8 connectToNetService:error: → none(instead: \"resolve the service with avahi or dns-sd tools "
                        + "(`avahi-resolve`, `avahi-browse -r`) and call `connect(toHost:onPort:)`\")",
                    "9 setIPv4PreferredOverIPv6: → api(\"isIPv4PreferredOverIPv6 = …\")",
                    "11 socket:didReadData:withTag: → api(\"socket(_:didRead:withTag:)\")",
                    "12 socketDidDisconnect:withError: → api(\"socketDidDisconnect(_:withError:)\")",
                    "13 GCDAsyncSocketClosedError → api(\"QueueSocketError.Code.closed\")",
                ])
        #expect(findings.allSatisfy { $0.mapping.api == .gcdAsyncSocket })
        let read = try #require(findings.first { $0.line == 6 })
        #expect(
            FindingText.line(read)
                == "Client.m:6:18: GCDAsyncSocket readDataToData:withTimeout:tag: → QueueSocket: readData(to:withTimeout:tag:)"
        )
    }

    @Test("Swift through a bridging header; a file ported to QueueSocket reports nothing")
    func scanSwift() {
        let bridged = """
            final class Client: NSObject, GCDAsyncSocketDelegate {
                let socket = GCDAsyncSocket(delegate: nil, delegateQueue: .main)
                func start() throws {
                    try socket.connect(toHost: "example.org", onPort: 80, withTimeout: 5)
                    socket.readData(to: GCDAsyncSocket.crlfData(), withTimeout: -1, tag: 0)
                }
                func socket(_ sock: GCDAsyncSocket, didRead data: Data, withTag tag: Int) {}
            }
            """
        #expect(
            scanner.scan(bridged, language: .swift).map { "\($0.line) \($0.found) \($0.mapping.api.rawValue)" } == [
                "1 GCDAsyncSocketDelegate GCDAsyncSocket", "2 GCDAsyncSocket(delegate:delegateQueue:) GCDAsyncSocket",
                "4 connect(toHost:onPort:withTimeout:) GCDAsyncSocket",
                "5 readData(to:withTimeout:tag:) GCDAsyncSocket",
                "5 GCDAsyncSocket GCDAsyncSocket", "5 crlfData() GCDAsyncSocket",
                "7 socket(_:didRead:withTag:) GCDAsyncSocket",
                "7 GCDAsyncSocket GCDAsyncSocket",
            ])
        let ported = """
            import AsyncSocketKit
            final class Client: QueueSocketDelegate {
                let socket = QueueSocket(delegate: nil, delegateQueue: .main)
                func start() throws {
                    try socket.connect(toHost: "example.org", onPort: 80, withTimeout: 5)
                    socket.readData(to: QueueSocket.crlfData, withTimeout: -1, tag: 0)
                    socket.perform { _ = socket.socketFD }
                }
                func socket(_ sock: QueueSocket, didRead data: Data, withTag tag: Int) {}
                func socketDidDisconnect(_ sock: QueueSocket, withError error: (any Error)?) {}
            }
            """
        #expect(scanner.scan(ported, language: .swift).isEmpty)
    }
}
