// TLS with a private CA on QueueSocket: a server whose certificate a CA made at start signed (the
// openssl command, in a private temporary directory), and clients that trust that CA in the ways a
// port can say it — `TLSSettings.trustRoots`, the `AsyncSocketTLSTrustRoots` key of a legacy
// dictionary, and manual trust evaluation (`GCDAsyncSocketManuallyEvaluateTrust`) with a pinned
// certificate — and one manual client without the CA, which OpenSSL cannot vouch for and the
// delegate refuses. One client runs at a time; the program ends by itself in under a second.
//
//   swift run PrivateCATLS
//
// The GCDAsyncSocket original of the manual client, in Objective-C:
//
//   [sock startTLS:@{ GCDAsyncSocketManuallyEvaluateTrust: @YES }];
//
//   - (void)socket:(GCDAsyncSocket *)sock didReceiveTrust:(SecTrustRef)trust
//        completionHandler:(void (^)(BOOL shouldTrustPeer))completionHandler {
//       SecTrustSetAnchorCertificates(trust, (__bridge CFArrayRef)@[(__bridge id)privateCA]);
//       dispatch_async(dispatch_get_global_queue(QOS_CLASS_DEFAULT, 0), ^{
//           SecTrustResultType result = kSecTrustResultDeny;
//           SecTrustEvaluate(trust, &result);
//           NSData *leaf = CFBridgingRelease(SecCertificateCopyData(SecTrustGetCertificateAtIndex(trust, 0)));
//           completionHandler((result == kSecTrustResultUnspecified || result == kSecTrustResultProceed)
//                             && [leaf isEqualToData:pinnedLeaf]);
//       });
//   }
//
// There is no SecTrust on Linux. The anchor moves into the settings (`AsyncSocketTLSTrustRoots`, or
// `TLSSettings.trustRoots`), OpenSSL evaluates the chain against it before the delegate is asked,
// and the delegate gets a `CertificateChain`: OpenSSL's verdict (`verifyResult` 0 where
// `SecTrustEvaluate` said kSecTrustResultUnspecified) and the DER certificates for checks of its own.
// The completion handler may still be called later, from any queue.
import AsyncSocketKit
import Dispatch
import Foundation
import Synchronization

/// Prints a line at once, even into a pipe.
func say(_ who: String, _ text: String) {
    print("[\(who)] \(text)")
    fflush(nil)
}

/// "domain code: message" of an error.
func describe(_ error: any Error) -> String {
    let error = error as NSError
    return "\(error.domain) \(error.code): \(error.localizedDescription)"
}

/// The server: starts TLS on every accepted connection, reads the client's name, answers, and reads
/// on until the client closes.
/// Used on the delegate queue only, but for `connectionClosed`, signalled when a connection is over.
final class TLSServer: QueueSocketDelegate {
    let settings: TLSSettings
    let connectionClosed = DispatchSemaphore(value: 0)
    private var connections: [QueueSocket] = []

    init(settings: TLSSettings) {
        self.settings = settings
    }

    func socket(_ sock: QueueSocket, didAcceptNewSocket newSocket: QueueSocket) {
        connections.append(newSocket)
        newSocket.startTLS(settings)
        newSocket.readData(to: QueueSocket.lfData, withTimeout: 5, tag: 0)
    }

    func socket(_ sock: QueueSocket, didRead data: Data, withTag tag: Int) {
        let name = String(decoding: data, as: UTF8.self).trimmingCharacters(in: .newlines)
        sock.write(Data("hello \(name), over TLS\n".utf8), withTimeout: 5, tag: 0)
        sock.readData(withTimeout: 5, tag: 1)  // until the client closes
    }

    func socketDidDisconnect(_ sock: QueueSocket, withError error: (any Error)?) {
        guard connections.contains(where: { $0 === sock }) else { return }  // the listener
        if let error, (error as NSError).domain == "kCFStreamErrorDomainSSL" {
            say("server", "a handshake failed: \(describe(error))")
        }
        connections.removeAll { $0 === sock }
        connectionClosed.signal()
    }
}

/// A client: connects, starts TLS (as a subclass says), sends its name and prints the answer or
/// the error. A subclass of QueueSocketDelegateBase, so the subclasses' overrides — the manual
/// trust callback among them — are called; with a plain conformance here they would not be.
class TLSClient: QueueSocketDelegateBase {
    let name: String
    /// Whether this client should end up trusting the server.
    let expectsTrust: Bool
    let finished = DispatchSemaphore(value: 0)
    private let answered = Mutex(false)
    private var socket: QueueSocket?

    init(name: String, expectsTrust: Bool = true) {
        self.name = name
        self.expectsTrust = expectsTrust
    }

    /// Whether the server's answer came (over TLS).
    var succeeded: Bool { answered.withLock { $0 } }

    func start(port: UInt16, delegateQueue: DispatchQueue) throws {
        let socket = QueueSocket(delegate: self, delegateQueue: delegateQueue)
        self.socket = socket
        try socket.connect(toHost: "127.0.0.1", onPort: port, withTimeout: 5)
    }

    /// How this client starts TLS.
    func startTLS(on sock: QueueSocket) {}

    override func socket(_ sock: QueueSocket, didConnectToHost host: String, port: UInt16) {
        startTLS(on: sock)
        sock.write(Data("\(name)\n".utf8), withTimeout: 5, tag: 0)
        sock.readData(to: QueueSocket.lfData, withTimeout: 5, tag: 0)
    }

    override func socketDidSecure(_ sock: QueueSocket) {
        say(name, "TLS is up: the server's certificate was trusted")
    }

    override func socket(_ sock: QueueSocket, didRead data: Data, withTag tag: Int) {
        say(name, "the server says \"\(String(decoding: data, as: UTF8.self).trimmingCharacters(in: .newlines))\"")
        answered.withLock { $0 = true }
        sock.disconnect()
    }

    override func socketDidDisconnect(_ sock: QueueSocket, withError error: (any Error)?) {
        say(name, error.map { "closed: \(describe($0))" } ?? "closed")
        finished.signal()
    }
}

/// Trusts the private CA with the typed settings: `trustRoots = .only([ca])` (or `.systemAnd`).
final class TrustRootsClient: TLSClient {
    let caPath: String

    init(caPath: String) {
        self.caPath = caPath
        super.init(name: "trustRoots")
    }

    override func startTLS(on sock: QueueSocket) {
        var settings = TLSSettings(role: .client)
        settings.trustRoots = .only([caPath])
        sock.startTLS(settings)
    }
}

/// Trusts the private CA from a legacy dictionary: `AsyncSocketTLSTrustRoots` (the system store too).
final class DictionaryClient: TLSClient {
    let caPath: String

    init(caPath: String) {
        self.caPath = caPath
        super.init(name: "dictionary")
    }

    override func startTLS(on sock: QueueSocket) {
        sock.startTLS([AsyncSocketTLSTrustRoots: caPath])
    }
}

/// The port of the Objective-C client above: manual trust evaluation, OpenSSL's verdict against the
/// anchor given in the settings, and a pinned leaf certificate, decided on another queue.
final class ManualTrustClient: TLSClient {
    let anchorPath: String?
    let pinnedLeaf: Data?

    init(name: String, anchorPath: String?, pinnedLeaf: Data?, expectsTrust: Bool) {
        self.anchorPath = anchorPath
        self.pinnedLeaf = pinnedLeaf
        super.init(name: name, expectsTrust: expectsTrust)
    }

    override func startTLS(on sock: QueueSocket) {
        var settings: [String: Any] = [GCDAsyncSocketManuallyEvaluateTrust: true]
        if let anchorPath {
            settings[AsyncSocketTLSTrustRoots] = anchorPath  // SecTrustSetAnchorCertificates
        }
        sock.startTLS(settings)
    }

    override func socket(
        _ sock: QueueSocket, didReceiveTrust trust: CertificateChain,
        completionHandler: @escaping @Sendable (Bool) -> Void
    ) {
        say(
            name,
            "asked to trust \"\(trust.subjectSummaries.first ?? "?")\"; OpenSSL says \(trust.verifyResult) "
                + "(\(trust.verifyResultDescription))")
        let name = self.name
        let pinnedLeaf = self.pinnedLeaf
        DispatchQueue.global().async {
            let chainTrusted = trust.verifyResult == 0  // SecTrustEvaluate: kSecTrustResultUnspecified
            let pinned = trust.certificates.first == pinnedLeaf
            say(
                name,
                "evaluated: the chain \(chainTrusted ? "leads to the private CA" : "leads to no trusted root"), "
                    + "the leaf \(pinned ? "is" : "is not") the pinned certificate; "
                    + (chainTrusted && pinned ? "trusting it" : "refusing"))
            completionHandler(chainTrusted && pinned)
        }
    }
}

let privateCA: PrivateCA
do {
    privateCA = try PrivateCA.make()
} catch {
    say("main", "could not make the private CA: \(error)")
    exit(1)
}
say("main", "made a private CA and a server certificate in \(privateCA.directory)")
let pinnedLeaf = try? PrivateCA.derCertificates(inPEMFile: privateCA.certificatePath).first

var serverSettings = TLSSettings(role: .server)
serverSettings.identity = .pem(
    certificatePath: privateCA.certificatePath, keyPath: privateCA.keyPath, password: nil)
let delegateQueue = DispatchQueue(label: "PrivateCATLS.delegate")
let server = TLSServer(settings: serverSettings)
let listener = QueueSocket(delegate: server, delegateQueue: delegateQueue)
do {
    try listener.accept(onInterface: "127.0.0.1", port: 0)
} catch {
    say("main", "could not listen: \(error)")
    privateCA.remove()
    exit(1)
}
say("server", "listening on 127.0.0.1 port \(listener.localPort)")

let clients: [TLSClient] = [
    TrustRootsClient(caPath: privateCA.caPath),
    DictionaryClient(caPath: privateCA.caPath),
    ManualTrustClient(name: "manual", anchorPath: privateCA.caPath, pinnedLeaf: pinnedLeaf, expectsTrust: true),
    ManualTrustClient(name: "manual-no-anchor", anchorPath: nil, pinnedLeaf: pinnedLeaf, expectsTrust: false),
]
var unexpected: [String] = []
for client in clients {
    do {
        try client.start(port: listener.localPort, delegateQueue: delegateQueue)
    } catch {
        say(client.name, "could not connect: \(error)")
        unexpected.append(client.name)
        continue
    }
    let over = [client.finished, server.connectionClosed].allSatisfy { $0.wait(timeout: .now() + 20) == .success }
    if !over || client.succeeded != client.expectsTrust {
        unexpected.append(client.name)
    }
}
listener.disconnect()
privateCA.remove()
say("main", unexpected.isEmpty ? "done: every client trusted or refused as it should" : "unexpected: \(unexpected)")
exit(unexpected.isEmpty ? 0 : 1)
