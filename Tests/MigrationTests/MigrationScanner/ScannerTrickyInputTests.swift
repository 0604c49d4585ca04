import Foundation
import MigrationScanner
import Testing

@Suite("migrate-scan on tricky input: comments, strings, multi-line sends, junk, files and directories")
struct ScannerTrickyInputTests {
    let scanner = APIScanner()

    private func objectiveC(_ source: String) -> [Place] {
        places(scanner.scan(source, language: .objectiveC))
    }

    @Test("comments and literals hide uses; Objective-C block comments do not nest")
    func commentsAndStrings() {
        let source = """
            // [sock unreadData]
            /* [sock unreadData] AsyncSocketErrorDomain */
            NSLog(@"[sock unreadData] %@", @"AsyncSocketErrorDomain \\" [sock unreadData]");
            char open = '[', close = ']', quote = '\\'';
            /* /* */ [sock unreadData]; // the first */ ended the comment
            """
        #expect(objectiveC(source) == [Place(5, 16, "unreadData")])
    }

    @Test("multi-line sends with nested sends, casts, blocks, conditionals and @selector")
    func sends() {
        let source = """
            [sock readDataToData:[AsyncSocket CRLFData]
                     withTimeout:(flag ? 5.0 : -1.0)
                             tag:TAG_LINE];
            [(AsyncSocket *)obj writeData:data withTimeout:ready ? 5 : -1 tag:[self nextTag]];
            [sock performBlockLater:^{ [sock disconnectAfterWriting]; } tag:items[index]];
            if ([delegate respondsToSelector:@selector(onSocket:didReadData:withTag:)]) {}
            NSArray *items = @[sock, other]; id last = items[count - 1];
            """
        #expect(
            objectiveC(source) == [
                Place(1, 7, "readDataToData:withTimeout:tag:"), Place(1, 23, "AsyncSocket"), Place(1, 35, "CRLFData"),
                Place(4, 3, "AsyncSocket"), Place(4, 21, "writeData:withTimeout:tag:"),
                Place(5, 34, "disconnectAfterWriting"), Place(6, 44, "onSocket:didReadData:withTag:"),
            ])
    }

    @Test("method declarations, unary and keyword, in protocols and implementations")
    func declarations() {
        let source = """
            @protocol Listener <AsyncSocketDelegate>
            - (void)onSocket:(AsyncSocket *)sock
                didAcceptNewSocket:(AsyncSocket *)newSocket;
            + (NSData *)CRLFData;
            - (NSData *)unreadData __attribute__((deprecated));
            @end
            int x = (a
                     - unreadData);
            """
        #expect(
            objectiveC(source) == [
                Place(1, 21, "AsyncSocketDelegate"), Place(2, 9, "onSocket:didAcceptNewSocket:"),
                Place(2, 19, "AsyncSocket"), Place(3, 25, "AsyncSocket"), Place(4, 13, "CRLFData"),
                Place(5, 13, "unreadData"),
            ])
    }

    @Test("headers by their last path part; aliases; unsupported API")
    func headersAndAliases() {
        let source = """
            #import <CocoaAsyncSocket/AsyncSocket.h>
            #include "AsyncUdpSocket.h"
            #pragma mark - AsyncSocketErrorDomain is not code here
            NSDictionary *tls = @{ (NSString *)kCFStreamSSLLevel: NSStreamSocketSecurityLevelSSLv3 };
            """
        let findings = scanner.scan(source, language: .objectiveC)
        #expect(
            places(findings) == [
                Place(1, 10, "AsyncSocket.h"), Place(2, 11, "AsyncUdpSocket.h"), Place(4, 36, "kCFStreamSSLLevel"),
                Place(4, 55, "NSStreamSocketSecurityLevelSSLv3"),
            ])
        #expect(findings[3].mapping.v4 == "kCFStreamSocketSecurityLevelSSLv3")
        #expect(findings.map(\.mapping.support) == [.supported, .supported, .supported, .unsupported])
    }

    @Test("a file without an unmistakable v4 use reports only the unmistakable spellings")
    func scope() {
        let other = "[mySocket readDataToData:[MySocket CRLFData] withTimeout:-1 tag:0]; [mySocket disconnect];"
        #expect(objectiveC(other).isEmpty)
        #expect(objectiveC(other + "\n[mySocket moveToRunLoop:loop];").count == 4)
        // GCDAsyncSocket code is reported too, mapped to QueueSocket (see GCDMappingTableTests).
        let gcd = "[gcdSocket readDataToData:[GCDAsyncSocket CRLFData] withTimeout:-1 tag:0]; [gcdSocket disconnect];"
        let findings = scanner.scan(gcd, language: .objectiveC)
        #expect(findings.count == 4)
        #expect(findings.allSatisfy { $0.mapping.api == .gcdAsyncSocket })
        #expect(objectiveC("NSRunLoop *loop; [gcdSocket disconnect];").isEmpty)
        #expect(
            objectiveC("NSRunLoop *loop; [gcdSocket disconnect]; id s = [x getCFSocket];") == [
                Place(1, 1, "NSRunLoop"), Place(1, 29, "disconnect"), Place(1, 52, "getCFSocket"),
            ])
    }

    @Test("junk never stops a scan: unbalanced brackets, unterminated literals, binary and non-UTF-8 bytes")
    func junk() {
        for source in [
            "[[[[ sock unreadData", "]]]) } [sock unreadData]", "\"unterminated\n[sock unreadData]", "/*", "@\"", "'",
        ] {
            _ = scanner.scan(source, language: .objectiveC)
            _ = scanner.scan(source, language: .swift)
        }
        #expect(objectiveC("]]]) } [sock unreadData]") == [Place(1, 14, "unreadData")])
        #expect(objectiveC("\"unterminated\n[sock unreadData]") == [Place(2, 7, "unreadData")])
        var generator = SplitMix(seed: 42)
        let binary = Data((0..<1_000_000).map { _ in UInt8(truncatingIfNeeded: generator.next()) })
        _ = scanner.scan(String(decoding: binary, as: UTF8.self), language: .objectiveC)
        _ = scanner.scan(String(decoding: binary, as: UTF8.self), language: .swift)
    }

    @Test("pathological nesting stays linear", .timeLimit(.minutes(1)))
    func linear() {
        let count = 200_000
        let opens = String(repeating: "[(", count: count)
        let closes = String(repeating: "}", count: count)
        let source = opens + closes + "\n[sock unreadData]" + String(repeating: "[a b:", count: count)
        #expect(objectiveC(source) == [Place(2, 7, "unreadData")])
        #expect(scanner.scan(opens + closes + "\nlet x = AsyncSocketErrorDomain", language: .swift).count == 1)
    }

    @Test("files: binary, empty, a FIFO, a missing path, a non-source file")
    func files() throws {
        try withTemporaryDirectory { directory in
            var generator = SplitMix(seed: 7)
            let junk = Data((0..<100_000).map { _ in UInt8(truncatingIfNeeded: generator.next()) })
            try write(junk, to: directory + "/binary.m")
            try write("", to: directory + "/empty.swift")
            try write("notes", to: directory + "/notes.txt")
            #expect(mkfifo(directory + "/pipe.m", 0o600) == 0)
            #expect((try scanner.scanFile(atPath: directory + "/empty.swift")).isEmpty)
            // Bytes that are not UTF-8 are read as they are, as parts of names; columns count bytes.
            let latin1: [UInt8] = [0xFF, 0xFE, 0x3B, 0x20] + Array("[sock unreadData]; x".utf8) + [0xE9]
            try write(Data(latin1 + Array("AsyncSocket;".utf8)), to: directory + "/latin1.m")
            #expect(places(try scanner.scanFile(atPath: directory + "/latin1.m")) == [Place(1, 11, "unreadData")])
            _ = try scanner.scanFile(atPath: directory + "/binary.m")
            #expect(throws: ScanProblem(path: directory + "/pipe.m", message: "not a regular file")) {
                try scanner.scanFile(atPath: directory + "/pipe.m")
            }
            let report = scanner.scan(paths: [
                directory + "/missing.m", directory + "/notes.txt", directory + "/empty.swift",
            ])
            #expect(
                report.problems == [
                    ScanProblem(path: directory + "/missing.m", message: "No such file or directory"),
                    ScanProblem(path: directory + "/notes.txt", message: "not a .m, .mm, .h or .swift file"),
                ])
            #expect(report.filesScanned == 1)
        }
    }

    @Test("directories: walked in name order, hidden entries skipped, links to directories not followed")
    func directoryTree() throws {
        try withTemporaryDirectory { root in
            try write("[sock unreadData];", to: root + "/b.m")
            try write("@class AsyncSocket;", to: root + "/a.h")
            try write("let x = AsyncSocketErrorDomain", to: root + "/sub/deeper/c.swift")
            try write("[sock unreadData];", to: root + "/.build/hidden.m")
            try write("[sock unreadData];", to: root + "/sub/notes.md")
            try write("[sock unreadData];", to: root + "/real.m.txt")
            try FileManager.default.createSymbolicLink(atPath: root + "/sub/loop", withDestinationPath: root)
            try FileManager.default.createSymbolicLink(atPath: root + "/sub/link.m", withDestinationPath: root + "/b.m")
            let report = scanner.scan(paths: [root])
            #expect(report.problems.isEmpty)
            #expect(report.filesScanned == 4)
            #expect(
                report.findings.map { "\($0.file.dropFirst(root.count)):\($0.found)" } == [
                    "/a.h:AsyncSocket", "/b.m:unreadData", "/sub/link.m:unreadData",
                    "/sub/deeper/c.swift:AsyncSocketErrorDomain",
                ])
        }
    }
}

/// A small deterministic generator for junk bytes.
struct SplitMix {
    private var state: UInt64

    init(seed: UInt64) {
        state = seed
    }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
