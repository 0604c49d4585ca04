import MigrationScanner
import Testing

@Suite("migrate-scan: initialisers, dot-syntax properties, onSocket:didSecure: and @objc selectors")
struct InitialiserAndPropertyScannerTests {
    let scanner = APIScanner()

    /// `line found → replacement` (the QueueSocket spelling for GCDAsyncSocket entries).
    private func replacements(_ source: String, _ language: SourceLanguage = .objectiveC) -> [String] {
        scanner.scan(source, language: language).filter { $0.mapping.kind != .type }.map {
            let replacement =
                $0.mapping.api == .gcdAsyncSocket ? $0.mapping.queueSocket.spelling ?? "none" : $0.mapping.runLoopSocket
            return "\($0.line) \($0.found) → \(replacement)"
        }
    }

    @Test("every initialiser selector, on AsyncSocket and GCDAsyncSocket, with its Swift spelling")
    func initialisers() {
        let source = """
            AsyncSocket *a = [[AsyncSocket alloc] initWithDelegate:self];
            AsyncSocket *b = [[AsyncSocket alloc] initWithDelegate:self userData:42];
            AsyncSocket *c = [[AsyncSocket alloc] init];
            GCDAsyncSocket *d = [[GCDAsyncSocket alloc] initWithSocketQueue:q];
            GCDAsyncSocket *e = [[GCDAsyncSocket alloc] initWithDelegate:self delegateQueue:dispatch_get_main_queue()];
            GCDAsyncSocket *f = [[GCDAsyncSocket alloc] initWithDelegate:self delegateQueue:mq socketQueue:sq];
            GCDAsyncSocket *g = [[GCDAsyncSocket alloc] init];
            id other = [[NSObject alloc] init]; id view = [[Viewer alloc] initWithDelegate:self];
            """
        #expect(
            replacements(source) == [
                "1 initWithDelegate: → RunLoopSocket(delegate:)",
                "2 initWithDelegate:userData: → RunLoopSocket(delegate:userData:)",
                "3 init → RunLoopSocket()",
                "4 initWithSocketQueue: → QueueSocket(socketQueue:)",
                "5 initWithDelegate:delegateQueue: → QueueSocket(delegate:delegateQueue:)",
                "6 initWithDelegate:delegateQueue:socketQueue: → QueueSocket(delegate:delegateQueue:socketQueue:)",
                "7 init → QueueSocket()",
            ])
        let places = places(scanner.scan(source, language: .objectiveC)).filter { $0.found.hasPrefix("init") }
        #expect(places.first == Place(1, 39, "initWithDelegate:"))
    }

    @Test("the receiver is followed through an assignment, a cast and a property")
    func receivers() {
        let source = """
            @interface Client : NSObject { GCDAsyncSocket *queued; }
            @property (nonatomic, strong) AsyncSocket *socket;
            @end
            @implementation Client
            - (void)start {
                listener = [[AsyncSocket alloc] initWithDelegate:self];
                [listener setDelegate:nil];
                [self.socket setDelegate:self];
                [_socket setDelegate:self];
                [(AsyncSocket *)object setDelegate:self];
                [queued setDelegate:self delegateQueue:q];
                [queued setDelegate:self];
                [stream setDelegate:self];
            }
            @end
            """
        #expect(
            replacements(source) == [
                "6 initWithDelegate: → RunLoopSocket(delegate:)", "7 setDelegate: → delegate = …",
                "8 setDelegate: → delegate = …", "9 setDelegate: → delegate = …", "10 setDelegate: → delegate = …",
                "11 setDelegate:delegateQueue: → setDelegate(_:delegateQueue:)", "12 setDelegate: → delegate = …",
            ])
        #expect(
            scanner.scan(source, language: .objectiveC).filter { $0.line == 12 }.first?.mapping.api == .gcdAsyncSocket)
    }

    @Test("dot syntax: getters and setters of properties, on known and unknown receivers in v4 files")
    func dotSyntax() {
        let source = """
            #import "AsyncSocket.h"
            - (void)configure:(AsyncSocket *)sock {
                sock.userData = 5;
                sock.delegate = self;
                NSString *x = sock.connectedHost;
                if (sock.isConnected == YES) { port = other.localPort; }
                self.delegate = self;
                frame.origin.x = 1;
            }
            """
        #expect(
            replacements(source) == [
                "1 AsyncSocket.h → import AsyncSocketKit", "3 setUserData: → userData = …",
                "4 setDelegate: → delegate = …",
                "5 connectedHost → connectedHost", "6 isConnected → isConnected", "6 localPort → localPort",
            ])
        #expect(
            places(scanner.scan(source, language: .objectiveC)).contains(Place(3, 10, "setUserData:")),
            "the setter is reported where the property is named")
    }

    @Test("onSocket:didSecure: (the older spelling) → onSocketDidSecure(_:)")
    func didSecure() throws {
        let source = "- (void)onSocket:(AsyncSocket *)sock didSecure:(BOOL)flag { }"
        let finding = try #require(scanner.scan(source, language: .objectiveC).first)
        #expect(Place(finding.line, finding.column, finding.found) == Place(1, 9, "onSocket:didSecure:"))
        #expect(finding.mapping.runLoopSocket == "onSocketDidSecure(_:)")
        #expect(finding.mapping.queueSocket == .api("socketDidSecure(_:)"))
        #expect(finding.mapping.note?.contains("never called") == true)
        #expect(scanner.scan(source, language: .objectiveC).allSatisfy { $0.mapping.kind != .delegateNearMiss })
    }

    @Test("Swift that kept the selectors: @objc(onSocket:didReadData:withTag:) and @objc(onSocketDidDisconnect:)")
    func objcSelectors() {
        let source = """
            final class Client: NSObject {
                @objc(onSocket:didReadData:withTag:) func handle(_ s: Any, data: Data, tag: Int) {}
                @objc(onSocketDidDisconnect:)
                func ended(_ s: Any) {}
                @objc(unreadData) func leftover() -> Data? { nil }
                @objc func plain() {}
            }
            """
        #expect(
            replacements(source, .swift) == [
                "2 onSocket:didReadData:withTag: → onSocket(_:didRead:withTag:)",
                "3 onSocketDidDisconnect: → onSocketDidDisconnect(_:)", "5 unreadData → unreadData()",
            ])
        #expect(places(scanner.scan(source, language: .swift)).first == Place(2, 6, "onSocket:didReadData:withTag:"))
    }

    @Test("Swift initialisers through a bridging header")
    func swiftInitialisers() {
        let source = """
            let a = AsyncSocket(delegate: self, userData: 1)
            let b = AsyncSocket()
            let c = GCDAsyncSocket(delegate: self, delegateQueue: .main, socketQueue: nil)
            """
        #expect(
            replacements(source, .swift) == [
                "1 AsyncSocket(delegate:userData:) → RunLoopSocket(delegate:userData:)",
                "2 AsyncSocket() → RunLoopSocket()",
                "3 GCDAsyncSocket(delegate:delegateQueue:socketQueue:) → QueueSocket(delegate:delegateQueue:socketQueue:)",
            ])
    }
}
