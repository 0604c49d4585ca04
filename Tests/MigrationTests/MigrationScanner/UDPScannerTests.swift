import Foundation
import MigrationScanner
import Testing

@Suite("migrate-scan: AsyncUdpSocket is RunLoopUdpSocket, GCDAsyncUdpSocket is QueueUdpSocket; UDP receivers win")
struct UDPScannerTests {
    let scanner = APIScanner()

    /// A file with a UDP socket and a TCP socket side by side.
    let both = """
        #import "AsyncSocket.h"
        #import "AsyncUdpSocket.h"
        @implementation Both
        - (void)start {
            AsyncUdpSocket *udp = [[AsyncUdpSocket alloc] initWithDelegate:self];
            [udp bindToPort:5000 error:nil];
            [udp enableBroadcast:YES error:nil];
            [udp joinMulticastGroup:@"239.1.1.1" error:nil];
            [udp receiveWithTimeout:-1 tag:0];
            UInt16 p = [udp localPort];
            [udp sendData:d toHost:@"10.0.0.1" port:9 withTimeout:-1 tag:1];
            AsyncSocket *tcp = [[AsyncSocket alloc] initWithDelegate:self];
            UInt16 q = [tcp localPort];
        }
        - (BOOL)onUdpSocket:(id)sock didReceiveData:(NSData *)data withTag:(long)tag fromHost:(NSString *)host port:(UInt16)port {
            NSLog(@"%d %@", [sock localPort], sock.connectedHost);
            return YES;
        }
        - (void)onSocket:(AsyncSocket *)sock didReadData:(NSData *)data withTag:(long)tag {
            [sock localPort];
        }
        @end
        """

    private func described(_ findings: [ScanFinding]) -> [String] {
        findings.filter { $0.mapping.kind != .type }.map {
            "\($0.line) \($0.found) \($0.mapping.api.rawValue) \($0.mapping.support.rawValue)"
        }
    }

    @Test("members on a UDP receiver are the UDP class's, never RunLoopSocket's; TCP members stay TCP")
    func receiversWin() {
        let findings = scanner.scan(both, language: .objectiveC)
        #expect(
            described(findings) == [
                "1 AsyncSocket.h AsyncSocket supported",
                "2 AsyncUdpSocket.h AsyncUdpSocket supported",
                "5 initWithDelegate: AsyncUdpSocket supported",
                "6 bindToPort:error: AsyncUdpSocket supported",
                "7 enableBroadcast:error: AsyncUdpSocket supported",
                "8 joinMulticastGroup:error: AsyncUdpSocket supported",
                "9 receiveWithTimeout:tag: AsyncUdpSocket supported",
                "10 localPort AsyncUdpSocket supported",
                "11 sendData:toHost:port:withTimeout:tag: AsyncUdpSocket supported",
                "12 initWithDelegate: AsyncSocket supported",
                "13 localPort AsyncSocket supported",
                "15 onUdpSocket:didReceiveData:withTag:fromHost:port: AsyncUdpSocket supported",
                "16 localPort AsyncUdpSocket supported",
                "16 connectedHost AsyncUdpSocket supported",
                "19 onSocket:didReadData:withTag: AsyncSocket supported",
                "20 localPort AsyncSocket supported",
            ])
        for finding in findings where finding.mapping.api.isUDP {
            #expect(finding.mapping.runLoopSocket != "none", "\(finding.found) on line \(finding.line)")
        }
        #expect(findings.first { $0.line == 6 }?.mapping.runLoopSocket == "bind(toPort:)")
        #expect(
            findings.first { $0.line == 15 }?.mapping.runLoopSocket
                == "onUdpSocket(_:didReceive:withTag:fromHost:port:)")
        let tcpPort = findings.first { $0.line == 13 }
        #expect(tcpPort?.mapping.runLoopSocket == "localPort")
        #expect(tcpPort?.mapping.api == .asyncSocket)
    }

    @Test("the text line names RunLoopUdpSocket and QueueUdpSocket spellings; GCD's CFStreams are unsupported, exit 1")
    func output() throws {
        let findings = scanner.scan(both, language: .objectiveC, file: "Both.m")
        let udpPort = try #require(findings.first { $0.line == 10 })
        #expect(
            FindingText.line(udpPort)
                == "Both.m:10:21: AsyncUdpSocket localPort → localPort | QueueUdpSocket: localPort")
        let receive = try #require(findings.first { $0.line == 9 })
        #expect(
            FindingText.line(receive)
                == "Both.m:9:10: AsyncUdpSocket receiveWithTimeout:tag: → receive(withTimeout:tag:) | QueueUdpSocket: "
                + "receiveOnce() | note: One datagram per request, as the delegate's `Bool` answer decides; a datagram "
                + "larger than `maxReceiveBufferSize` is reported (`EMSGSIZE`) and dropped, never cut.")
        let gcd = """
            GCDAsyncUdpSocket *udp = [[GCDAsyncUdpSocket alloc] initWithDelegate:self delegateQueue:q];
            [udp receiveOnce:&error];
            id stream = [udp readStream];
            """
        let gcdFindings = scanner.scan(gcd, language: .objectiveC, file: "G.m")
        let receiveOnce = try #require(gcdFindings.first { $0.line == 2 })
        #expect(
            FindingText.line(receiveOnce) == "G.m:2:6: GCDAsyncUdpSocket receiveOnce: → QueueUdpSocket: receiveOnce()")
        let stream = try #require(gcdFindings.first { $0.line == 3 })
        #expect(
            FindingText.line(stream)
                == "G.m:3:18: GCDAsyncUdpSocket readStream → QueueUdpSocket: none — `socketFD` inside `perform(_:)` | "
                + "unsupported on Linux: GCDAsyncUdpSocket's iOS CFReadStream.")
        try withTemporaryDirectory { directory in
            try write(both, to: directory + "/Both.m")
            #expect(MigrateScan(paths: [directory]).run().status == .clean)
            try write(gcd, to: directory + "/G.m")
            let result = MigrateScan(paths: [directory]).run()
            #expect(result.status == .unsupportedFound)
            #expect(result.output.contains("1 unsupported on Linux"))
            let json = MigrateScan(paths: [directory], json: true).run()
            let objects = try #require(
                try JSONSerialization.jsonObject(with: Data(json.output.utf8)) as? [[String: Any]])
            let receive = try #require(objects.first { $0["found"] as? String == "receiveWithTimeout:tag:" })
            #expect(receive["support"] as? String == "supported")
            #expect(receive["unsupported"] as? Bool == false)
            let once = try #require(objects.first { $0["found"] as? String == "receiveOnce:" })
            #expect(once["support"] as? String == "supported")
            #expect(once["unsupported"] as? Bool == false)
            let readStream = try #require(objects.first { $0["found"] as? String == "readStream" })
            #expect(readStream["support"] as? String == "unsupported")
            #expect(readStream["unsupported"] as? Bool == true)
        }
    }

    @Test("a directory: instance variables a header declares are receivers its implementation knows")
    func headerDeclarations() throws {
        try withTemporaryDirectory { directory in
            try write(
                """
                #import "AsyncSocket.h"
                #import "AsyncUdpSocket.h"
                @interface Finder : NSObject { AsyncUdpSocket *udpSocket; AsyncSocket *control; }
                @end
                """, to: directory + "/Finder.h")
            try write(
                """
                #import "Finder.h"
                @implementation Finder
                - (void)report { NSLog(@"%d %d", [udpSocket localPort], [control localPort]); }
                @end
                """, to: directory + "/Finder.m")
            let report = scanner.scan(paths: [directory])
            let ports = report.findings.filter { $0.found == "localPort" }
            #expect(ports.map(\.mapping.api) == [.asyncUdpSocket, .asyncSocket])
            #expect(ports.map(\.column) == [45, 66])
        }
    }

    @Test("GCDAsyncUdpSocket: allocation, members, delegate methods, errors")
    func gcdUdp() {
        let source = """
            GCDAsyncUdpSocket *udp = [[GCDAsyncUdpSocket alloc] initWithDelegate:self delegateQueue:q];
            [udp bindToPort:0 interface:@"eth0" error:&error];
            [udp beginReceiving:&error];
            [udp setReceiveFilter:filter withQueue:q];
            NSData *a = [udp localAddress];
            [udp close];
            - (void)udpSocket:(GCDAsyncUdpSocket *)sock didReceiveData:(NSData *)data
                  fromAddress:(NSData *)address withFilterContext:(id)context { [sock pauseReceiving]; }
            - (void)udpSocketDidClose:(GCDAsyncUdpSocket *)sock withError:(NSError *)error {
                if (error.code == GCDAsyncUdpSocketClosedError) {}
            }
            """
        let findings = scanner.scan(source, language: .objectiveC)
        #expect(
            described(findings) == [
                "1 initWithDelegate:delegateQueue: GCDAsyncUdpSocket supported",
                "2 bindToPort:interface:error: GCDAsyncUdpSocket supported",
                "3 beginReceiving: GCDAsyncUdpSocket supported",
                "4 setReceiveFilter:withQueue: GCDAsyncUdpSocket supported",
                "5 localAddress GCDAsyncUdpSocket supported",
                "6 close GCDAsyncUdpSocket supported",
                "7 udpSocket:didReceiveData:fromAddress:withFilterContext: GCDAsyncUdpSocket supported",
                "8 pauseReceiving GCDAsyncUdpSocket supported",
                "9 udpSocketDidClose:withError: GCDAsyncUdpSocket supported",
                "10 GCDAsyncUdpSocketClosedError GCDAsyncUdpSocket supported",
            ])
        #expect(findings.allSatisfy { $0.mapping.support == .supported && $0.mapping.runLoopSocket == "—" })
        #expect(
            findings.compactMap(\.mapping.queueSocket.spelling) == [
                "QueueUdpSocket", "QueueUdpSocket", "QueueUdpSocket(delegate:delegateQueue:)",
                "bind(toPort:interface:)",
                "beginReceiving()", "setReceiveFilter(_:withQueue:)", "localAddress", "close()",
                "udpSocket(_:didReceive:fromAddress:withFilterContext:)", "QueueUdpSocket", "pauseReceiving()",
                "udpSocketDidClose(_:withError:)", "QueueUdpSocket", "QueueUdpSocketError.Code.closed",
            ])
    }

    @Test("Swift: a GCDAsyncUdpSocket property and a UDP delegate parameter are UDP receivers")
    func swiftReceivers() {
        let source = """
            final class Finder: NSObject, GCDAsyncUdpSocketDelegate {
                let udp = GCDAsyncUdpSocket(delegate: nil, delegateQueue: .main)
                var tcp: AsyncSocket!
                func start() throws {
                    try udp.bind(toPort: 5000)
                    try udp.beginReceiving()
                    print(udp.localPort(), tcp.localPort())
                }
                func udpSocket(_ sock: GCDAsyncUdpSocket, didReceive data: Data, fromAddress address: Data,
                               withFilterContext filterContext: Any?) {
                    print(sock.localPort())
                }
            }
            """
        #expect(
            described(scanner.scan(source, language: .swift)) == [
                "5 bind(toPort:) GCDAsyncUdpSocket supported",
                "6 beginReceiving() GCDAsyncUdpSocket supported",
                "7 localPort() GCDAsyncUdpSocket supported",
                "7 localPort() AsyncSocket supported",
                "9 udpSocket(_:didReceive:fromAddress:withFilterContext:) GCDAsyncUdpSocket supported",
                "11 localPort() GCDAsyncUdpSocket supported",
            ])
    }

    @Test("the UDP catalog covers every member, delegate method and error of both originals")
    func complete() {
        let udp = Set(APICatalog.udpEntries.filter { $0.api == .asyncUdpSocket }.map(\.v4))
        let asyncUdpSocket = [
            "init", "initWithDelegate:", "initWithDelegate:userData:", "initIPv4", "initIPv6", "delegate",
            "setDelegate:", "userData", "setUserData:", "maxReceiveBufferSize", "setMaxReceiveBufferSize:",
            "maximumTransmissionUnit", "localHost", "localPort", "connectedHost", "connectedPort", "isConnected",
            "isClosed", "isIPv4", "isIPv6", "bindToPort:error:", "bindToAddress:port:error:",
            "connectToHost:onPort:error:", "connectToAddress:error:", "joinMulticastGroup:error:",
            "joinMulticastGroup:withAddress:error:", "enableBroadcast:error:", "sendData:withTimeout:tag:",
            "sendData:toHost:port:withTimeout:tag:", "sendData:toAddress:withTimeout:tag:", "receiveWithTimeout:tag:",
            "close", "closeAfterSending", "closeAfterReceiving", "closeAfterSendingAndReceiving", "moveToRunLoop:",
            "setRunLoopModes:", "runLoopModes", "onUdpSocket:didSendDataWithTag:",
            "onUdpSocket:didNotSendDataWithTag:dueToError:", "onUdpSocket:didReceiveData:withTag:fromHost:port:",
            "onUdpSocket:didNotReceiveDataWithTag:dueToError:", "onUdpSocketDidClose:", "AsyncUdpSocketException",
            "AsyncUdpSocketErrorDomain", "AsyncUdpSocketCFSocketError", "AsyncUdpSocketNoError",
            "AsyncUdpSocketBadParameter", "AsyncUdpSocketIPv4Unavailable", "AsyncUdpSocketIPv6Unavailable",
            "AsyncUdpSocketSendTimeoutError", "AsyncUdpSocketReceiveTimeoutError",
        ]
        #expect(asyncUdpSocket.filter { !udp.contains($0) } == [])
        let gcd = Set(APICatalog.udpEntries.filter { $0.api == .gcdAsyncUdpSocket }.map(\.v4))
        let gcdAsyncUdpSocket = [
            "GCDAsyncUdpSocket", "GCDAsyncUdpSocketDelegate", "init", "initWithSocketQueue:",
            "initWithDelegate:delegateQueue:", "initWithDelegate:delegateQueue:socketQueue:", "delegate",
            "setDelegate:", "synchronouslySetDelegate:", "delegateQueue", "setDelegateQueue:",
            "synchronouslySetDelegateQueue:", "getDelegate:delegateQueue:", "setDelegate:delegateQueue:",
            "synchronouslySetDelegate:delegateQueue:", "userData", "setUserData:", "isIPv4Enabled", "setIPv4Enabled:",
            "isIPv6Enabled", "setIPv6Enabled:", "isIPv4Preferred", "isIPv6Preferred", "isIPVersionNeutral",
            "setPreferIPv4", "setPreferIPv6", "setIPVersionNeutral", "maxReceiveIPv4BufferSize",
            "setMaxReceiveIPv4BufferSize:", "maxReceiveIPv6BufferSize", "setMaxReceiveIPv6BufferSize:",
            "maxSendBufferSize", "setMaxSendBufferSize:", "localAddress", "localHost", "localPort", "localAddress_IPv4",
            "localHost_IPv4", "localPort_IPv4", "localAddress_IPv6", "localHost_IPv6", "localPort_IPv6",
            "connectedAddress", "connectedHost", "connectedPort", "isConnected", "isClosed", "isIPv4", "isIPv6",
            "bindToPort:error:", "bindToPort:interface:error:", "bindToAddress:error:", "connectToHost:onPort:error:",
            "connectToAddress:error:", "joinMulticastGroup:error:", "joinMulticastGroup:onInterface:error:",
            "leaveMulticastGroup:error:", "leaveMulticastGroup:onInterface:error:",
            "sendIPv4MulticastOnInterface:error:", "sendIPv6MulticastOnInterface:error:", "enableReusePort:error:",
            "enableBroadcast:error:", "sendData:withTimeout:tag:", "sendData:withTag:",
            "sendData:toHost:port:withTimeout:tag:", "sendData:toAddress:withTimeout:tag:", "setSendFilter:withQueue:",
            "setSendFilter:withQueue:isAsynchronous:", "receiveOnce:", "beginReceiving:", "pauseReceiving",
            "setReceiveFilter:withQueue:", "setReceiveFilter:withQueue:isAsynchronous:", "close", "closeAfterSending",
            "markSocketQueueTargetQueue:", "unmarkSocketQueueTargetQueue:", "performBlock:", "socketFD", "socket4FD",
            "socket6FD", "readStream", "writeStream", "hostFromAddress:", "portFromAddress:", "familyFromAddress:",
            "isIPv4Address:", "isIPv6Address:", "getHost:port:fromAddress:", "getHost:port:family:fromAddress:",
            "udpSocket:didConnectToAddress:", "udpSocket:didNotConnect:", "udpSocket:didSendDataWithTag:",
            "udpSocket:didNotSendDataWithTag:dueToError:", "udpSocket:didReceiveData:fromAddress:withFilterContext:",
            "udpSocketDidClose:withError:", "GCDAsyncUdpSocketException", "GCDAsyncUdpSocketErrorDomain",
            "GCDAsyncUdpSocketQueueName", "GCDAsyncUdpSocketThreadName", "GCDAsyncUdpSocketNoError",
            "GCDAsyncUdpSocketBadConfigError", "GCDAsyncUdpSocketBadParamError", "GCDAsyncUdpSocketSendTimeoutError",
            "GCDAsyncUdpSocketClosedError", "GCDAsyncUdpSocketOtherError",
        ]
        #expect(gcdAsyncUdpSocket.filter { !gcd.contains($0) } == [])
        #expect(APICatalog.udpEntries.allSatisfy { $0.api.isUDP })
        let asyncUdp = APICatalog.udpEntries.filter { $0.api == .asyncUdpSocket }
        #expect(asyncUdp.allSatisfy { $0.support == .supported && $0.runLoopSocket != "none" })
        let gcdUdp = APICatalog.udpEntries.filter { $0.api == .gcdAsyncUdpSocket }
        let unsupported = gcdUdp.filter { $0.support == .unsupported }
        #expect(unsupported.map(\.v4) == ["readStream", "writeStream", "GCDAsyncUdpSocketThreadName"])
        #expect(unsupported.allSatisfy { $0.queueSocket.instead != nil })
        let supported = gcdUdp.filter { $0.support == .supported }
        #expect(supported.count == gcdUdp.count - 3)
        // Every supported entry names a QueueUdpSocket spelling of its own, and no run-loop one.
        #expect(
            supported.filter { $0.runLoopSocket != "—" || ($0.queueSocket.spelling ?? "none") == "none" }.map(\.v4)
                == [])
        // An AsyncUdpSocket entry names the QueueUdpSocket member that does its job, or says there is none.
        #expect(asyncUdp.allSatisfy { $0.queueSocket.spelling != nil || $0.queueSocket.instead != nil })
        let perClass = APICatalog.udpEntries.map { "\($0.api.rawValue) \($0.v4)" }
        #expect(Set(perClass).count == perClass.count)
    }
}
