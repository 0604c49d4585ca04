import MigrationScanner
import Testing

@Suite("migrate-scan on Swift: the spellings an Objective-C-bridging program used")
struct ScannerSwiftTests {
    let scanner = APIScanner()

    /// A Swift client of the Objective-C AsyncSocket through a bridging header.
    let bridged = """
        import Foundation

        final class Client: NSObject, AsyncSocketDelegate {
            let socket = AsyncSocket(delegate: nil)

            func start() throws {
                try socket.connect(toHost: "example.org", onPort: 7, withTimeout: 5)
                socket.readData(to: AsyncSocket.crlfData(),
                                withTimeout: -1,
                                tag: 0)
                print("readData(to:withTimeout:tag:) \\(socket.unreadData()) AsyncSocketErrorDomain")
                // socket.getCFSocket() in a comment
                _ = socket.move(to: RunLoop.current)
                let native = CFSocketGetNative(socket.getCFSocket())
                socket.enableBackgroundingOnSocket()
            }

            func onSocket(_ sock: AsyncSocket!, didRead data: Data!, withTag tag: Int) {}

            func onSocket(_ sock: AsyncSocket!, willDisconnectWithError err: Error!) {
                if (err as NSError).code == AsyncSocketError.readTimeoutError.rawValue {}
            }

            let selector = #selector(AsyncSocketDelegate.onSocketDidDisconnect(_:))
        }
        """

    @Test("calls, declarations, identifiers, selector references; not comments; code in interpolations")
    func bridgedClient() {
        let findings = scanner.scan(bridged, language: .swift, file: "Client.swift")
        #expect(
            places(findings)
                == [
                    Place(3, 31, "AsyncSocketDelegate"),
                    Place(4, 18, "AsyncSocket(delegate:)"),
                    Place(7, 20, "connect(toHost:onPort:withTimeout:)"),
                    Place(8, 16, "readData(to:withTimeout:tag:)"),
                    Place(8, 29, "AsyncSocket"),
                    Place(8, 41, "crlfData()"),
                    Place(11, 55, "unreadData()"),
                    Place(13, 20, "move(to:)"),
                    Place(13, 29, "RunLoop"),
                    Place(14, 22, "CFSocketGetNative"),
                    Place(14, 47, "getCFSocket()"),
                    Place(15, 16, "enableBackgroundingOnSocket()"),
                    Place(18, 10, "onSocket(_:didRead:withTag:)"),
                    Place(18, 27, "AsyncSocket"),
                    Place(20, 10, "onSocket(_:willDisconnectWithError:)"),
                    Place(20, 27, "AsyncSocket"),
                    Place(21, 37, "AsyncSocketError"),
                    Place(21, 54, "readTimeoutError"),
                    Place(24, 50, "onSocketDidDisconnect(_:)"),
                    Place(24, 30, "AsyncSocketDelegate"),
                ].sorted { ($0.line, $0.column) < ($1.line, $1.column) })
        #expect(findings.allSatisfy { $0.language == .swift })
        let read = findings.first { $0.found == "readData(to:withTimeout:tag:)" }
        #expect(read?.mapping.v4 == "readDataToData:withTimeout:tag:")
        #expect(findings.first { $0.found == "move(to:)" }?.mapping.v4 == "moveToRunLoop:")
        #expect(findings.first { $0.found == "readTimeoutError" }?.mapping.v4 == "AsyncSocketReadTimeoutError")
        #expect(
            findings.filter { $0.mapping.support == .unsupported }.map(\.found) == ["enableBackgroundingOnSocket()"])
    }

    @Test("a file ported to RunLoopSocket keeps the spellings it shares with v4, and reports none of them")
    func portedFile() {
        let ported = """
            import AsyncSocketKit

            final class Client: RunLoopSocketDelegate {
                let socket = RunLoopSocket()
                func onSocket(_ sock: RunLoopSocket, didRead data: Data, withTag tag: Int) {
                    sock.readData(to: RunLoopSocket.crlfData, withTimeout: -1, tag: 0)
                    _ = sock.moveToRunLoop(EventRunLoop.current)
                    sock.startTLS([kCFStreamSSLPeerName: "example.org"])
                }
                func onSocket(_ sock: RunLoopSocket, willDisconnectWithError error: (any Error)?) {
                    let unread = sock.unreadData()
                    if (error as? AsyncSocketError)?.code == .noError { sock.disconnect() }
                }
            }
            """
        #expect(scanner.scan(ported, language: .swift).isEmpty)
    }

    @Test("shared spellings count only where the v4 API is used unmistakably")
    func scope() {
        let elsewhere = """
            socket.disconnect()
            socket.readData(to: separator, withTimeout: 5, tag: 1)
            let loop = RunLoop.current
            """
        #expect(scanner.scan(elsewhere, language: .swift).isEmpty)
        #expect(
            places(scanner.scan(elsewhere + "\nlet fd = socket.getCFSocket()", language: .swift)) == [
                Place(1, 8, "disconnect()"), Place(2, 8, "readData(to:withTimeout:tag:)"), Place(3, 12, "RunLoop"),
                Place(4, 17, "getCFSocket()"),
            ])
        let noUse = "socket.disconnect()\nlet loop = RunLoop.current\n"
        #expect(scanner.scan(noUse, language: .swift).isEmpty)
    }

    @Test("Swift comments nest; raw and multi-line strings are skipped; interpolations are code")
    func swiftLexing() {
        let source = ##"""
            /* outer /* inner */ still a comment: AsyncSocket */
            let a = #"AsyncSocket "\#(AsyncSocketErrorDomain)" AsyncSocket"#
            let b = """
                AsyncSocket
                \(AsyncSocketException)
                """
            let c = "\("nested \("AsyncSocket")")" + `AsyncSocket`.self
            """##
        #expect(
            places(scanner.scan(source, language: .swift)) == [
                Place(2, 27, "AsyncSocketErrorDomain"), Place(5, 7, "AsyncSocketException"),
                Place(7, 43, "AsyncSocket"),
            ])
    }
}
