import AsyncSocketCore
import AsyncSocketKit
import CLibevent
import Foundation
import SocketTestSupport
import Testing

/// One error the package hands out, with the domain and code the original used, and the exact texts
/// where the original's are known.
struct DescribedError: Sendable, CustomTestStringConvertible {
    let name: String
    let make: @Sendable () -> any Error
    let domain: String
    let code: Int
    /// The exact `localizedDescription`, when the original's is known.
    var description: String?
    /// The exact `localizedFailureReason`, where the original set one (or the case supplies one).
    var reason: String?

    var testDescription: String { name }
}

/// The four ways a port sees an error, plus the failure reason: none may be empty, a bare number,
/// or contain "(null)".
func printedForms(of error: any Error) -> [(form: String, text: String)] {
    let bridged = error as NSError
    return [
        ("localizedDescription", error.localizedDescription),
        ("\"\\(error)\"", "\(error)"),
        ("\"\\(error as NSError)\"", "\(bridged)"),
        ("String(describing: error as NSError)", String(describing: bridged)),
        ("localizedFailureReason", bridged.localizedFailureReason ?? "(null)"),
    ]
}

func expectReadable(_ error: any Error, sourceLocation: SourceLocation = #_sourceLocation) {
    for (form, text) in printedForms(of: error) {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(!text.contains("(null)"), "\(form): \(text)", sourceLocation: sourceLocation)
        #expect(!trimmed.isEmpty, "\(form) is empty", sourceLocation: sourceLocation)
        #expect(Double(trimmed) == nil, "\(form) is only a number: \(text)", sourceLocation: sourceLocation)
        let hasWords = trimmed.contains { $0.isLetter }
        #expect(hasWords, "\(form) has no words: \(text)", sourceLocation: sourceLocation)
    }
    // The sentence itself shows in every printed form (Linux's NSError prints it in its user info).
    let sentence = error.localizedDescription
    #expect("\(error)".contains(sentence), "\"\\(error)\": \(error)", sourceLocation: sourceLocation)
    #expect("\(error as NSError)".contains(sentence), "\(error as NSError)", sourceLocation: sourceLocation)
}

func strerrorText(_ code: Int32) -> String { String(cString: strerror(code)) }
func gaiText(_ code: Int32) -> String { String(cString: gai_strerror(code)) }

// MARK: - The table

/// `AsyncSocketError`: every code of the final numbering, by default, with a custom message, with
/// an empty one, and with an underlying error.
let asyncSocketErrorCases: [DescribedError] = {
    let numbering: [(AsyncSocketError.Code, Int)] = [
        (.socketError, -1), (.noError, 0), (.canceled, 1), (.connectTimeout, 2), (.readMaxedOut, 3),
        (.readTimeout, 4), (.writeTimeout, 5),
    ]
    var cases: [DescribedError] = []
    for (code, value) in numbering {
        let domain = "AsyncSocketErrorDomain"
        let original = AsyncSocketError.defaultDescription(code)
        cases.append(
            DescribedError(
                name: "AsyncSocketError \(value)", make: { AsyncSocketError(code) }, domain: domain, code: value,
                description: original))
        cases.append(
            DescribedError(
                name: "AsyncSocketError \(value), custom message",
                make: { AsyncSocketError(code, message: "Something specific went wrong") }, domain: domain,
                code: value, description: "Something specific went wrong"))
        cases.append(
            DescribedError(
                name: "AsyncSocketError \(value), empty message", make: { AsyncSocketError(code, message: "") },
                domain: domain, code: value, description: original))
        cases.append(
            DescribedError(
                name: "AsyncSocketError \(value), underlying ECONNREFUSED",
                make: {
                    let posix = SystemError.posix(ECONNREFUSED, "connect")
                    return AsyncSocketError(code, message: posix.localizedDescription, underlying: posix)
                }, domain: domain, code: value, description: strerrorText(ECONNREFUSED),
                reason: "Error in connect() function"))
    }
    cases.append(
        DescribedError(
            name: "AsyncSocketError -1, underlying NetDB error",
            make: {
                let netDB = SystemError.netDB(EAI_NONAME, message: "Invalid host name: empty")
                return AsyncSocketError(.socketError, message: "\(netDB)", underlying: netDB)
            }, domain: "AsyncSocketErrorDomain", code: -1, reason: "Invalid host name: empty"))
    cases.append(
        DescribedError(
            name: "AsyncSocketError -1, underlying TLS error",
            make: {
                let tls = TLSError(
                    code: .badConfiguration, message: "TLS settings: trustRoots .only([]) trusts nothing")
                return AsyncSocketError(
                    .socketError, message: "Could not apply the TLS settings: \(tls.message)",
                    underlying: tls as NSError)
            }, domain: "AsyncSocketErrorDomain", code: -1,
            description: "Could not apply the TLS settings: TLS settings: trustRoots .only([]) trusts nothing"))
    return cases
}()

/// `AsyncSocketUsageError`, the stand-in for `AsyncSocketException` (no original domain or code:
/// Swift's own for the type).
let usageErrorCases: [DescribedError] = [
    DescribedError(
        name: "AsyncSocketUsageError",
        make: { AsyncSocketUsageError("Attempting to connect without a delegate. Set a delegate first.") },
        domain: String(reflecting: AsyncSocketUsageError.self), code: 1,
        description: "Attempting to connect without a delegate. Set a delegate first."),
    DescribedError(
        name: "AsyncSocketUsageError, empty message", make: { AsyncSocketUsageError("") },
        domain: String(reflecting: AsyncSocketUsageError.self), code: 1),
]

/// `QueueSocketError`: every code of GCDAsyncSocket's numbering, by default, custom and empty.
let queueSocketErrorCases: [DescribedError] = {
    let numbering: [(QueueSocketError.Code, Int, String)] = [
        (.noError, 0, "No error"), (.badConfig, 1, "Invalid configuration"), (.badParam, 2, "Invalid parameter"),
        (.connectTimeout, 3, "Attempt to connect to host timed out"), (.readTimeout, 4, "Read operation timed out"),
        (.writeTimeout, 5, "Write operation timed out"),
        (.readMaxedOut, 6, "Read operation reached set maximum length"),
        (.closed, 7, "Socket closed by remote peer"), (.other, 8, "Unknown error"),
    ]
    var cases: [DescribedError] = []
    for (code, value, original) in numbering {
        let domain = "GCDAsyncSocketErrorDomain"
        cases.append(
            DescribedError(
                name: "QueueSocketError \(value)", make: { QueueSocketError(code) }, domain: domain, code: value,
                description: original))
        cases.append(
            DescribedError(
                name: "QueueSocketError \(value), custom message",
                make: { QueueSocketError(code, "Attempting to connect without a delegate. Set a delegate first.") },
                domain: domain, code: value,
                description: "Attempting to connect without a delegate. Set a delegate first."))
        cases.append(
            DescribedError(
                name: "QueueSocketError \(value), empty message", make: { QueueSocketError(code, "") }, domain: domain,
                code: value, description: original))
    }
    return cases
}()

/// POSIX errors: the Linux errno, strerror's text, and GCDAsyncSocket's "Error in …() function".
let posixCases: [DescribedError] = {
    let errors: [(name: String, code: Int32, linux: Int, call: String)] = [
        ("ECONNREFUSED", ECONNREFUSED, 111, "connect"), ("ECONNRESET", ECONNRESET, 104, "read"),
        ("ETIMEDOUT", ETIMEDOUT, 110, "connect"), ("EADDRINUSE", EADDRINUSE, 98, "bind"),
    ]
    var cases: [DescribedError] = []
    for (name, code, linux, call) in errors {
        cases.append(
            DescribedError(
                name: "POSIX \(name) in \(call)()", make: { SystemError.posix(code, call) }, domain: NSPOSIXErrorDomain,
                code: linux, description: strerrorText(code), reason: "Error in \(call)() function"))
        cases.append(
            DescribedError(
                name: "POSIX \(name), no call", make: { SystemError.posix(code) }, domain: NSPOSIXErrorDomain,
                code: linux, description: strerrorText(code)))
    }
    return cases
}()

/// Name resolution: glibc's EAI_ value and gai_strerror's text, whether the code came from glibc's
/// getaddrinfo or from evdns (libevent's EVUTIL_EAI_ constants, and its own −90x numbering).
let netDBCases: [DescribedError] = {
    let domain = "kCFStreamErrorDomainNetDB"
    let errors: [(name: String, glibc: Int32, value: Int, evutil: Int32, libevent: Int32)] = [
        ("EAI_NONAME", EAI_NONAME, -2, EVUTIL_EAI_NONAME, -908), ("EAI_AGAIN", EAI_AGAIN, -3, EVUTIL_EAI_AGAIN, -902),
        ("EAI_FAIL", EAI_FAIL, -4, EVUTIL_EAI_FAIL, -904),
    ]
    var cases: [DescribedError] = []
    for (name, glibc, value, evutil, libevent) in errors {
        let text = gaiText(glibc)
        cases.append(
            DescribedError(
                name: "NetDB \(name) from getaddrinfo", make: { SystemError.netDB(glibc, message: gaiText(glibc)) },
                domain: domain, code: value, description: text))
        cases.append(
            DescribedError(
                name: "NetDB \(name) from getaddrinfo, with detail",
                make: { SystemError.netDB(glibc, message: "Invalid host name: empty") }, domain: domain, code: value,
                description: text, reason: "Invalid host name: empty"))
        cases.append(
            DescribedError(
                name: "NetDB \(name) from evdns (EVUTIL_EAI_ \(evutil))",
                make: { SystemError.netDB(evutilCode: evutil) },
                domain: domain, code: value, description: text))
        cases.append(
            DescribedError(
                name: "NetDB \(name) from evdns (libevent's own \(libevent))",
                make: { SystemError.netDB(evutilCode: libevent) }, domain: domain, code: value, description: text))
    }
    cases.append(
        DescribedError(
            name: "NetDB cancelled lookup from evdns (EVUTIL_EAI_CANCEL)",
            make: { SystemError.netDB(evutilCode: EVUTIL_EAI_CANCEL) }, domain: domain, code: -101,
            description: gaiText(-101)))
    cases.append(
        DescribedError(
            name: "NetDB unlisted libevent code", make: { SystemError.netDB(evutilCode: -90_002) }, domain: domain,
            code: -4, description: gaiText(EAI_FAIL), reason: "The resolver reported libevent error -90002"))
    cases.append(
        DescribedError(
            name: "NetDB resolver not set up",
            make: { SystemError.netDB(evutilCode: EVUTIL_EAI_FAIL, resolverSetupError: "evdns_base_new failed") },
            domain: domain, code: -4, description: gaiText(EAI_FAIL),
            reason: "The resolver could not be set up: evdns_base_new failed"))
    cases.append(
        DescribedError(
            name: "NetDB code glibc does not know", make: { SystemError.netDB(-999) }, domain: domain, code: -999))
    return cases
}()

/// TLS: a handshake failure, verification failures, bad settings, and every code with an empty
/// message.
let tlsCases: [DescribedError] = {
    let domain = "kCFStreamErrorDomainSSL"
    var cases: [DescribedError] = [
        DescribedError(
            name: "TLS handshake failure, OpenSSL reason",
            make: {
                TLSError(
                    code: .protocolError,
                    message: "TLS handshake failed: the peer's data is not valid TLS (OpenSSL: wrong version number)",
                    opensslReason: "wrong version number")
            }, domain: domain, code: -9800, reason: "wrong version number"),
        DescribedError(
            name: "TLS handshake failure, no OpenSSL reason",
            make: {
                TLSError(
                    code: .handshakeFailed,
                    message: "TLS handshake failed: no ALPN protocol is common to both sides, and one is required")
            }, domain: domain, code: -9858),
        DescribedError(
            name: "TLS verification failure",
            make: {
                TLSError(
                    code: .certificateChainInvalid,
                    message:
                        "TLS handshake failed: the server's certificate chain is not trusted (OpenSSL: self-signed certificate in certificate chain)",
                    opensslReason: "self-signed certificate in certificate chain", verifyResult: 19)
            }, domain: domain, code: -9807, reason: "self-signed certificate in certificate chain"),
        DescribedError(
            name: "TLS host name mismatch",
            make: {
                TLSError(
                    code: .hostNameMismatch,
                    message:
                        "TLS handshake failed: the server's certificate does not match \"example.test\" (OpenSSL: hostname mismatch)",
                    opensslReason: "hostname mismatch", verifyResult: 62)
            }, domain: domain, code: -9843, reason: "hostname mismatch"),
        DescribedError(
            name: "TLS bad settings",
            make: { TLSError(code: .badConfiguration, message: "TLS settings: requiresALPN without alpnProtocols") },
            domain: domain, code: -9848, description: "TLS settings: requiresALPN without alpnProtocols"),
        DescribedError(
            name: "TLS bad legacy settings dictionary",
            make: {
                do {
                    _ = try TLSSettings(legacyDictionary: ["NoSuchKey": true])
                    return TLSSettingsError(key: "NoSuchKey", expected: "an error", found: "none")
                } catch {
                    return error
                }
            }, domain: String(reflecting: TLSSettingsError.self), code: 1),
    ]
    for code in TLSError.Code.allCases {
        cases.append(
            DescribedError(
                name: "TLS \(code) (\(code.rawValue)), empty message", make: { TLSError(code: code, message: "") },
                domain: domain, code: code.rawValue, description: TLSError.defaultDescription(code)))
    }
    return cases
}()

// MARK: - Tests

@Suite("Errors read as sentences in every form, with the original's domain and code")
struct ErrorDescriptionTests {
    @Test(
        "localizedDescription, \"\\(error)\", \"\\(error as NSError)\" and the failure reason are readable",
        arguments: asyncSocketErrorCases + usageErrorCases + queueSocketErrorCases + posixCases + netDBCases
            + tlsCases)
    func readable(_ entry: DescribedError) {
        let error = entry.make()
        expectReadable(error)
        let bridged = error as NSError
        #expect(bridged.domain == entry.domain)
        #expect(bridged.code == entry.code)
        if let description = entry.description {
            #expect(error.localizedDescription == description)
            #expect(bridged.localizedDescription == description)
        }
        if let reason = entry.reason {
            #expect(bridged.localizedFailureReason == reason)
        }
    }

    @Test("the table covers every code of every domain")
    func coverage() {
        func codes(_ cases: [DescribedError], _ domain: String) -> Set<Int> {
            Set(cases.filter { $0.domain == domain }.map(\.code))
        }
        #expect(
            codes(asyncSocketErrorCases, AsyncSocketError.errorDomain)
                == Set(AsyncSocketError.Code.allCases.map(\.rawValue)))
        #expect(codes(asyncSocketErrorCases, AsyncSocketError.errorDomain) == Set(-1...5))
        #expect(
            codes(queueSocketErrorCases, QueueSocketError.errorDomain)
                == Set(QueueSocketError.Code.allCases.map(\.rawValue)))
        #expect(codes(queueSocketErrorCases, QueueSocketError.errorDomain) == Set(0...8))
        #expect(codes(tlsCases, TLSError.errorDomain) == Set(TLSError.Code.allCases.map(\.rawValue)))
        #expect(codes(posixCases, NSPOSIXErrorDomain) == [111, 104, 110, 98])
        #expect(codes(netDBCases, "kCFStreamErrorDomainNetDB").isSuperset(of: [-2, -3, -4]))
    }

    @Test("a name-resolution error never carries libevent's BSD wording beside a glibc code")
    func noBSDWording() {
        for code in [EVUTIL_EAI_NONAME, EVUTIL_EAI_AGAIN, EVUTIL_EAI_FAIL, -908, -902, -904] {
            let error = SystemError.netDB(evutilCode: code)
            for (form, text) in printedForms(of: error) {
                #expect(!text.contains("nodename nor servname"), "\(form): \(text)")
                #expect(error.localizedDescription == gaiText(Int32(error.code)))
            }
        }
    }

    @Test("the mapping of libevent's codes covers both of libevent's numberings")
    func evutilMapping() {
        let expected: [(Int32, Int32)] = [
            (-901, -9), (-902, EAI_AGAIN), (-903, EAI_BADFLAGS), (-904, EAI_FAIL), (-905, EAI_FAMILY),
            (-906, EAI_MEMORY), (-907, -5), (-908, EAI_NONAME), (-909, EAI_SERVICE), (-910, EAI_SOCKTYPE),
            (-911, EAI_SYSTEM), (EVUTIL_EAI_CANCEL, -101), (EVUTIL_EAI_NONAME, EAI_NONAME),
            (EVUTIL_EAI_AGAIN, EAI_AGAIN), (EVUTIL_EAI_FAIL, EAI_FAIL), (EVUTIL_EAI_MEMORY, EAI_MEMORY),
        ]
        for (libevent, glibc) in expected {
            #expect(SystemError.glibcEAI(fromEvutil: libevent) == glibc, "\(libevent)")
        }
        #expect(SystemError.glibcEAI(fromEvutil: -90_002) == nil)
    }
}

// MARK: - Real paths

/// Keeps what a RunLoopSocket reports in `onSocket(_:willDisconnectWithError:)` (used on its loop).
private final class DisconnectCatcher: RunLoopSocketDelegate, @unchecked Sendable {
    var error: (any Error)?
    var disconnected = false

    func onSocket(_ sock: RunLoopSocket, willDisconnectWithError error: (any Error)?) {
        self.error = error
    }

    func onSocketDidDisconnect(_ sock: RunLoopSocket) {
        disconnected = true
    }
}

/// Keeps what a QueueSocket reports in `socketDidDisconnect(_:withError:)`.
private final class QueueDisconnectCatcher: QueueSocketDelegate, @unchecked Sendable {
    let queue = DispatchQueue(label: "ErrorDescriptionTests")
    private let condition = NSCondition()
    private var reported: (any Error)??

    func socketDidDisconnect(_ sock: QueueSocket, withError error: (any Error)?) {
        condition.withLock {
            reported = .some(error)
            condition.broadcast()
        }
    }

    /// The error of the disconnect, once it has been reported (`nil` if it was not within 10 s).
    func waitForError() -> (any Error)? {
        let deadline = Date(timeIntervalSinceNow: 10)
        return condition.withLock {
            while reported == nil, condition.wait(until: deadline) {}
            return reported ?? nil
        }
    }
}

@Suite("Errors on real paths: a refused connect and an unknown name read as the system says")
struct ErrorDescriptionPathTests {
    /// A refused connect by name reports the POSIX error: errno 111 and strerror's text.
    @Test(
        "a refused connect on RunLoopSocket reports ECONNREFUSED (111) with its text",
        arguments: RunLoopSocket.Engine.allCases)
    func refusedRunLoopSocket(engine: RunLoopSocket.Engine) async throws {
        try await onNewThread {
            let catcher = DisconnectCatcher()
            let socket = RunLoopSocket(delegate: catcher, engine: engine)
            try socket.connectToHost("127.0.0.1", onPort: unusedPort())
            #expect(runUntil { catcher.disconnected })
            let error = try #require(catcher.error)
            let bridged = error as NSError
            #expect(bridged.domain == NSPOSIXErrorDomain)
            #expect(bridged.code == 111)
            #expect(bridged.code == Int(ECONNREFUSED))
            #expect(error.localizedDescription.contains(strerrorText(ECONNREFUSED)))
            #expect("\(error)".contains(strerrorText(ECONNREFUSED)))
            #expect(bridged.localizedFailureReason == "Error in connect() function")
            expectReadable(error)
        }
    }

    /// By address the original reported its CFSocket error (-1); the errno is underneath, and the
    /// text shows in every form.
    @Test(
        "a refused connect by address on RunLoopSocket: -1 with ECONNREFUSED underneath",
        arguments: RunLoopSocket.Engine.allCases)
    func refusedByAddress(engine: RunLoopSocket.Engine) async throws {
        try await onNewThread {
            let catcher = DisconnectCatcher()
            let socket = RunLoopSocket(delegate: catcher, engine: engine)
            var error: (any Error)?
            do {
                try socket.connectToAddress(loopbackAddress(port: unusedPort()))
                #expect(runUntil { catcher.disconnected })
                error = catcher.error
            } catch let thrown {
                error = thrown
            }
            let found = try #require(error as? AsyncSocketError)
            #expect(found.code == .socketError)
            #expect(found.underlying?.code == 111)
            #expect(found.localizedDescription.contains(strerrorText(ECONNREFUSED)))
            #expect("\(found)".contains(strerrorText(ECONNREFUSED)))
            #expect((found as NSError).localizedFailureReason == "Error in connect() function")
            expectReadable(found)
        }
    }

    @Test("a refused connect on QueueSocket reports ECONNREFUSED (111) with its text")
    func refusedQueueSocket() throws {
        let catcher = QueueDisconnectCatcher()
        let socket = QueueSocket(delegate: catcher, delegateQueue: catcher.queue)
        try socket.connect(toHost: "127.0.0.1", onPort: unusedPort())
        let error = try #require(catcher.waitForError())
        let bridged = error as NSError
        #expect(bridged.domain == NSPOSIXErrorDomain)
        #expect(bridged.code == 111)
        #expect(error.localizedDescription == strerrorText(ECONNREFUSED))
        #expect("\(error)".contains(strerrorText(ECONNREFUSED)))
        #expect(bridged.localizedFailureReason == "Error in connect() function")
        expectReadable(error)
    }

    /// The scripted server answers NXDOMAIN; evdns reports it in libevent's numbering, and the error
    /// carries glibc's EAI_NONAME and its text.
    @Test(
        "an unknown name on RunLoopSocket: NetDB, EAI_NONAME (-2), gai_strerror's text",
        arguments: RunLoopSocket.Engine.allCases)
    func unknownNameRunLoopSocket(engine: RunLoopSocket.Engine) async throws {
        let dns = ScriptedDNSServer(records: ["known.test": (v4: "127.0.0.1", v6: nil)])
        defer { dns.stop() }
        let resolver = HostResolver(nameservers: [dns.address])
        try await onNewThread {
            let catcher = DisconnectCatcher()
            let socket = RunLoopSocket(delegate: catcher, engine: engine, resolver: resolver)
            try socket.connectToHost("no-such-host.test", onPort: 80, withTimeout: 10)
            #expect(runUntil { catcher.disconnected })
            let error = try #require(catcher.error)
            Self.expectNoName(error)
        }
    }

    @Test("an unknown name on QueueSocket: NetDB, EAI_NONAME (-2), gai_strerror's text")
    func unknownNameQueueSocket() throws {
        let dns = ScriptedDNSServer(records: ["known.test": (v4: "127.0.0.1", v6: nil)])
        defer { dns.stop() }
        let catcher = QueueDisconnectCatcher()
        let socket = QueueSocket(
            delegate: catcher, delegateQueue: catcher.queue, resolver: HostResolver(nameservers: [dns.address]))
        try socket.connect(toHost: "no-such-host.test", onPort: 80, withTimeout: 10)
        Self.expectNoName(try #require(catcher.waitForError()))
    }

    /// Names refused before any lookup carry the same code and text, with the detail as the reason.
    @Test("a malformed name throws NetDB EAI_NONAME with gai_strerror's text", arguments: RunLoopSocket.Engine.allCases)
    func malformedName(engine: RunLoopSocket.Engine) async throws {
        try await onNewThread {
            let catcher = DisconnectCatcher()
            let socket = RunLoopSocket(delegate: catcher, engine: engine)
            do {
                try socket.connectToHost("", onPort: 80)
                Issue.record("an empty host name was accepted")
            } catch {
                Self.expectNoName(error)
                #expect((error as NSError).localizedFailureReason?.hasPrefix("Invalid host name") == true)
            }
        }
        do {
            _ = try QueueSocket.lookupHost("nul\u{0}byte", port: 80)
            Issue.record("a host name with a NUL byte was accepted")
        } catch {
            Self.expectNoName(error)
        }
    }

    static func expectNoName(_ error: any Error, sourceLocation: SourceLocation = #_sourceLocation) {
        let bridged = error as NSError
        #expect(bridged.domain == "kCFStreamErrorDomainNetDB", sourceLocation: sourceLocation)
        #expect(bridged.code == -2, sourceLocation: sourceLocation)
        #expect(bridged.code == Int(EAI_NONAME), sourceLocation: sourceLocation)
        #expect(error.localizedDescription == gaiText(EAI_NONAME), sourceLocation: sourceLocation)
        #expect("\(error)".contains(gaiText(EAI_NONAME)), sourceLocation: sourceLocation)
        #expect(!"\(error)".contains("nodename nor servname"), sourceLocation: sourceLocation)
        expectReadable(error, sourceLocation: sourceLocation)
    }
}
