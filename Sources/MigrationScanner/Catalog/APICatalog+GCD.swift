extension APICatalog {
    /// The GCDAsyncSocket → QueueSocket table: every selector, delegate method, constant and error code
    /// of `GCDAsyncSocket` (master `5ddba5e`), with its `QueueSocket` spelling. These entries have no
    /// `RunLoopSocket` column (their ``APIMapping/runLoopSocket`` is "—"); `migrate-scan` reports them in
    /// code that uses GCDAsyncSocket, and `Migration/README.md` shows them as a table of their own.
    public static let gcdEntries: [APIMapping] =
        gcdTypes + gcdLifecycle + gcdConfiguration + gcdConnection + gcdIO + gcdAdvanced + gcdUtilities
        + gcdDelegateMethods + gcdConstants + gcdErrorCodes

    /// The notes the GCD entries share.
    enum GCDNotes {
        static let asyncSetter =
            "Setting is asynchronous onto the socket queue, as in GCD; the getter waits for the socket queue."
        static let insidePerform =
            "Only inside `perform(_:)` (-1 outside), as GCD's only inside `performBlock:`."
        static let notOnLinux =
            "iOS-only CFStreams (VoIP backgrounding, stream-level TLS) do not exist on Linux."
        static let errorPointer = "`error:` pointers become `throws`."
    }

    private static func gcd(
        _ selector: String, _ kind: APIKind = .method, swift: String?, _ queue: QueueSocketEquivalent,
        note: String? = nil, support: LinuxSupport = .supported, scope: MatchScope = .filesUsingV4,
        swiftScope: MatchScope = .filesUsingV4, aliases: [String] = []
    ) -> APIMapping {
        APIMapping(
            selector, kind: kind, swift: swift, runLoopSocket: "—", queueSocket: queue, note: note, support: support,
            scope: scope, swiftScope: swiftScope, aliases: aliases, api: .gcdAsyncSocket)
    }

    static let gcdTypes: [APIMapping] = [
        gcd(
            "GCDAsyncSocket", .type, swift: "GCDAsyncSocket", .api("QueueSocket"),
            note: "The same model: a serial socket queue, callbacks on the delegate queue, the delegate held weakly.",
            scope: .anywhere, swiftScope: .anywhere),
        gcd(
            "GCDAsyncSocketDelegate", .type, swift: "GCDAsyncSocketDelegate", .api("QueueSocketDelegate"),
            note: "A Swift protocol whose methods all have default implementations: a method whose signature is "
                + "slightly off is never called (`migrate-scan` warns about near-misses).",
            scope: .anywhere, swiftScope: .anywhere),
        gcd(
            "GCDAsyncSocketError", .type, swift: "GCDAsyncSocketError", .api("QueueSocketError.Code"),
            note:
                "A struct with a `code`; bridges to `NSError` in \"GCDAsyncSocketErrorDomain\" with the same numbers.",
            scope: .anywhere, swiftScope: .anywhere),
        gcd("GCDAsyncSocket.h", .header, swift: nil, .api("import AsyncSocketKit"), scope: .anywhere),
    ]

    static let gcdLifecycle: [APIMapping] = [
        gcd("init", swift: "GCDAsyncSocket()", .api("QueueSocket()"), scope: .knownReceiver, swiftScope: .anywhere),
        gcd(
            "initWithSocketQueue:", swift: "GCDAsyncSocket(socketQueue:)", .api("QueueSocket(socketQueue:)"),
            note: "A global (concurrent) queue is refused, as GCD's assertion did.", scope: .knownReceiver,
            swiftScope: .anywhere),
        gcd(
            "initWithDelegate:delegateQueue:", swift: "GCDAsyncSocket(delegate:delegateQueue:)",
            .api("QueueSocket(delegate:delegateQueue:)"), scope: .knownReceiver, swiftScope: .anywhere),
        gcd(
            "initWithDelegate:delegateQueue:socketQueue:", swift: "GCDAsyncSocket(delegate:delegateQueue:socketQueue:)",
            .api("QueueSocket(delegate:delegateQueue:socketQueue:)"),
            note: "Throws `QueueSocketError` `.badConfig` for a global (concurrent) socket queue.",
            scope: .knownReceiver, swiftScope: .anywhere),
        gcd(
            "socketFromConnectedSocketFD:socketQueue:error:", swift: "socket(fromConnectedSocketFD:socketQueue:)",
            .api("QueueSocket.socket(fromConnectedSocketFD:socketQueue:)"),
            note: "Throws `.other` for a descriptor that is not a connected IPv4/IPv6 socket.", scope: .anywhere),
        gcd(
            "socketFromConnectedSocketFD:delegate:delegateQueue:error:",
            swift: "socket(fromConnectedSocketFD:delegate:delegateQueue:)",
            .api("QueueSocket.socket(fromConnectedSocketFD:delegate:delegateQueue:)"),
            note: "The delegate hears `socket(_:didConnectToHost:port:)`, as in GCD.", scope: .anywhere),
        gcd(
            "socketFromConnectedSocketFD:delegate:delegateQueue:socketQueue:error:",
            swift: "socket(fromConnectedSocketFD:delegate:delegateQueue:socketQueue:)",
            .api("QueueSocket.socket(fromConnectedSocketFD:delegate:delegateQueue:socketQueue:)"), scope: .anywhere),
        gcd("description", swift: "description", .api("description"), scope: .knownReceiver, swiftScope: .mappingOnly),
        gcd(
            "delegate", swift: "delegate", .api("delegate"), note: "Held weakly, as in GCD.", scope: .knownReceiver,
            swiftScope: .mappingOnly),
        gcd(
            "setDelegate:", swift: "delegate = …", .api("delegate = …"), note: GCDNotes.asyncSetter,
            scope: .knownReceiver, swiftScope: .mappingOnly),
        gcd(
            "delegateQueue", swift: "delegateQueue", .api("delegateQueue"), scope: .knownReceiver,
            swiftScope: .mappingOnly),
        gcd(
            "setDelegateQueue:", swift: "delegateQueue = …", .api("delegateQueue = …"), note: GCDNotes.asyncSetter,
            scope: .knownReceiver, swiftScope: .mappingOnly),
        gcd(
            "getDelegate:delegateQueue:", swift: "getDelegate(_:delegateQueue:)", .api("getDelegate(_:delegateQueue:)"),
            note: "Both arguments are `inout`.", scope: .anywhere),
        gcd(
            "setDelegate:delegateQueue:", swift: "setDelegate(_:delegateQueue:)", .api("setDelegate(_:delegateQueue:)"),
            note: GCDNotes.asyncSetter, scope: .anywhere),
        gcd(
            "synchronouslySetDelegate:", swift: "synchronouslySetDelegate(_:)", .api("synchronouslySetDelegate(_:)"),
            scope: .anywhere),
        gcd(
            "synchronouslySetDelegateQueue:", swift: "synchronouslySetDelegateQueue(_:)",
            .api("synchronouslySetDelegateQueue(_:)"), scope: .anywhere),
        gcd(
            "synchronouslySetDelegate:delegateQueue:", swift: "synchronouslySetDelegate(_:delegateQueue:)",
            .api("synchronouslySetDelegate(_:delegateQueue:)"), scope: .anywhere),
    ]

    static let gcdConfiguration: [APIMapping] = [
        gcd("isIPv4Enabled", swift: "isIPv4Enabled", .api("isIPv4Enabled"), scope: .anywhere),
        gcd("setIPv4Enabled:", swift: "isIPv4Enabled = …", .api("isIPv4Enabled = …"), scope: .anywhere),
        gcd("isIPv6Enabled", swift: "isIPv6Enabled", .api("isIPv6Enabled"), scope: .anywhere),
        gcd("setIPv6Enabled:", swift: "isIPv6Enabled = …", .api("isIPv6Enabled = …"), scope: .anywhere),
        gcd(
            "isIPv4PreferredOverIPv6", swift: "isIPv4PreferredOverIPv6", .api("isIPv4PreferredOverIPv6"),
            scope: .anywhere),
        gcd(
            "setIPv4PreferredOverIPv6:", swift: "isIPv4PreferredOverIPv6 = …", .api("isIPv4PreferredOverIPv6 = …"),
            scope: .anywhere),
        gcd(
            "alternateAddressDelay", swift: "alternateAddressDelay", .api("alternateAddressDelay"),
            note: "0.3 s by default, as in GCD.", scope: .anywhere),
        gcd(
            "setAlternateAddressDelay:", swift: "alternateAddressDelay = …", .api("alternateAddressDelay = …"),
            scope: .anywhere),
        gcd(
            "userData", swift: "userData", .api("userData"), note: "Any `Sendable` value (GCD's was `id`).",
            scope: .filesUsingV4, swiftScope: .mappingOnly),
        gcd("setUserData:", swift: "userData = …", .api("userData = …"), swiftScope: .mappingOnly),
        gcd(
            "autoDisconnectOnClosedReadStream", swift: "autoDisconnectOnClosedReadStream",
            .api("autoDisconnectOnClosedReadStream"), scope: .anywhere),
        gcd(
            "setAutoDisconnectOnClosedReadStream:", swift: "autoDisconnectOnClosedReadStream = …",
            .api("autoDisconnectOnClosedReadStream = …"),
            note: "With `false`, the peer's close is `socketDidCloseReadStream(_:)` and the socket stays open for "
                + "writing.",
            scope: .anywhere),
    ]

    static let gcdConnection: [APIMapping] = [
        gcd("acceptOnPort:error:", swift: "accept(onPort:)", .api("accept(onPort:)"), note: GCDNotes.errorPointer),
        gcd(
            "acceptOnInterface:port:error:", swift: "accept(onInterface:port:)", .api("accept(onInterface:port:)"),
            note: GCDNotes.errorPointer),
        gcd(
            "acceptOnUrl:error:", swift: "accept(onUrl:)", .api("accept(onUrl:)"),
            note: "Unix domain: an existing file at the path is deleted first, and the path is removed on close.",
            scope: .anywhere),
        gcd(
            "connectToHost:onPort:error:", swift: "connect(toHost:onPort:)", .api("connect(toHost:onPort:)"),
            note: GCDNotes.errorPointer),
        gcd(
            "connectToHost:onPort:withTimeout:error:", swift: "connect(toHost:onPort:withTimeout:)",
            .api("connect(toHost:onPort:withTimeout:)"), note: GCDNotes.errorPointer),
        gcd(
            "connectToHost:onPort:viaInterface:withTimeout:error:",
            swift: "connect(toHost:onPort:viaInterface:withTimeout:)",
            .api("connect(toHost:onPort:viaInterface:withTimeout:)"),
            note: "Interfaces by name (\"eth0\" where macOS said \"en0\") or address, with an optional \":port\".",
            scope: .anywhere),
        gcd("connectToAddress:error:", swift: "connect(toAddress:)", .api("connect(toAddress:)")),
        gcd(
            "connectToAddress:withTimeout:error:", swift: "connect(toAddress:withTimeout:)",
            .api("connect(toAddress:withTimeout:)")),
        gcd(
            "connectToAddress:viaInterface:withTimeout:error:", swift: "connect(toAddress:viaInterface:withTimeout:)",
            .api("connect(toAddress:viaInterface:withTimeout:)"), scope: .anywhere),
        gcd(
            "connectToUrl:withTimeout:error:", swift: "connect(toUrl:withTimeout:)",
            .api("connect(toUrl:withTimeout:)"),
            note: "Unix domain; the delegate hears `socket(_:didConnectTo:)`.", scope: .anywhere),
        gcd(
            "connectToNetService:error:", swift: "connect(to:)",
            .none(
                instead: "resolve the service with avahi or dns-sd tools (`avahi-resolve`, `avahi-browse -r`) and "
                    + "call `connect(toHost:onPort:)`"),
            note: "Bonjour's `NSNetService` does not exist on Linux.", support: .unsupported, scope: .anywhere,
            swiftScope: .mappingOnly),
        gcd("disconnect", swift: "disconnect()", .api("disconnect()")),
        gcd("disconnectAfterReading", swift: "disconnectAfterReading()", .api("disconnectAfterReading()")),
        gcd("disconnectAfterWriting", swift: "disconnectAfterWriting()", .api("disconnectAfterWriting()")),
        gcd(
            "disconnectAfterReadingAndWriting", swift: "disconnectAfterReadingAndWriting()",
            .api("disconnectAfterReadingAndWriting()")),
        gcd("isDisconnected", swift: "isDisconnected", .api("isDisconnected"), scope: .anywhere),
        gcd("isConnected", swift: "isConnected", .api("isConnected")),
        gcd("connectedHost", swift: "connectedHost", .api("connectedHost")),
        gcd("connectedPort", swift: "connectedPort", .api("connectedPort")),
        gcd("connectedUrl", swift: "connectedUrl", .api("connectedUrl"), scope: .anywhere),
        gcd("localHost", swift: "localHost", .api("localHost")),
        gcd("localPort", swift: "localPort", .api("localPort")),
        gcd("connectedAddress", swift: "connectedAddress", .api("connectedAddress")),
        gcd("localAddress", swift: "localAddress", .api("localAddress")),
        gcd("isIPv4", swift: "isIPv4", .api("isIPv4")),
        gcd("isIPv6", swift: "isIPv6", .api("isIPv6")),
        gcd("isSecure", swift: "isSecure", .api("isSecure")),
    ]

    static let gcdIO: [APIMapping] = [
        gcd("readDataWithTimeout:tag:", swift: "readData(withTimeout:tag:)", .api("readData(withTimeout:tag:)")),
        gcd(
            "readDataWithTimeout:buffer:bufferOffset:tag:", swift: "readData(withTimeout:buffer:bufferOffset:tag:)",
            .api("readData(withTimeout:buffer:bufferOffset:tag:)")),
        gcd(
            "readDataWithTimeout:buffer:bufferOffset:maxLength:tag:",
            swift: "readData(withTimeout:buffer:bufferOffset:maxLength:tag:)",
            .api("readData(withTimeout:buffer:bufferOffset:maxLength:tag:)")),
        gcd(
            "readDataToLength:withTimeout:tag:", swift: "readData(toLength:withTimeout:tag:)",
            .api("readData(toLength:withTimeout:tag:)")),
        gcd(
            "readDataToLength:withTimeout:buffer:bufferOffset:tag:",
            swift: "readData(toLength:withTimeout:buffer:bufferOffset:tag:)",
            .api("readData(toLength:withTimeout:buffer:bufferOffset:tag:)")),
        gcd(
            "readDataToData:withTimeout:tag:", swift: "readData(to:withTimeout:tag:)",
            .api("readData(to:withTimeout:tag:)")),
        gcd(
            "readDataToData:withTimeout:buffer:bufferOffset:tag:",
            swift: "readData(to:withTimeout:buffer:bufferOffset:tag:)",
            .api("readData(to:withTimeout:buffer:bufferOffset:tag:)")),
        gcd(
            "readDataToData:withTimeout:maxLength:tag:", swift: "readData(to:withTimeout:maxLength:tag:)",
            .api("readData(to:withTimeout:maxLength:tag:)")),
        gcd(
            "readDataToData:withTimeout:buffer:bufferOffset:maxLength:tag:",
            swift: "readData(to:withTimeout:buffer:bufferOffset:maxLength:tag:)",
            .api("readData(to:withTimeout:buffer:bufferOffset:maxLength:tag:)")),
        gcd(
            "writeData:withTimeout:tag:", swift: "write(_:withTimeout:tag:)", .api("write(_:withTimeout:tag:)"),
            note: "Every send uses `MSG_NOSIGNAL` (Linux has no `SO_NOSIGPIPE`)."),
        gcd(
            "progressOfReadReturningTag:bytesDone:total:", swift: "progressOfRead(returningTag:bytesDone:total:)",
            .api("progressOfRead(returningTag:bytesDone:total:)")),
        gcd(
            "progressOfWriteReturningTag:bytesDone:total:", swift: "progressOfWrite(returningTag:bytesDone:total:)",
            .api("progressOfWrite(returningTag:bytesDone:total:)")),
        gcd(
            "startTLS:", swift: "startTLS(_:)", .api("startTLS(_:)"),
            note: "OpenSSL instead of SecureTransport: the same dictionary keys, or a typed `TLSSettings`; host "
                + "names are verified by default."),
        gcd("CRLFData", swift: "crlfData()", .api("QueueSocket.crlfData")),
        gcd("CRData", swift: "crData()", .api("QueueSocket.crData")),
        gcd("LFData", swift: "lfData()", .api("QueueSocket.lfData")),
        gcd("ZeroData", swift: "zeroData()", .api("QueueSocket.zeroData")),
    ]

    static let gcdAdvanced: [APIMapping] = [
        gcd(
            "markSocketQueueTargetQueue:", swift: "markSocketQueueTargetQueue(_:)",
            .api("markSocketQueueTargetQueue(_:)"), scope: .anywhere),
        gcd(
            "unmarkSocketQueueTargetQueue:", swift: "unmarkSocketQueueTargetQueue(_:)",
            .api("unmarkSocketQueueTargetQueue(_:)"), scope: .anywhere),
        gcd("performBlock:", swift: "perform(_:)", .api("perform(_:)"), scope: .anywhere),
        gcd(
            "socketFD", swift: "socketFD", .api("socketFD"), note: GCDNotes.insidePerform, scope: .anywhere,
            swiftScope: .mappingOnly),
        gcd(
            "socket4FD", swift: "socket4FD", .api("socket4FD"), note: GCDNotes.insidePerform, scope: .anywhere,
            swiftScope: .mappingOnly),
        gcd(
            "socket6FD", swift: "socket6FD", .api("socket6FD"), note: GCDNotes.insidePerform, scope: .anywhere,
            swiftScope: .mappingOnly),
        gcd(
            "sslContext", swift: "sslContext", .api("sslContext"),
            note: "The OpenSSL `SSL*` as an `OpaquePointer` (a SecureTransport `SSLContextRef` in GCD), only inside "
                + "`perform(_:)`.",
            support: .standIn, scope: .anywhere, swiftScope: .mappingOnly),
        gcd(
            "readStream", swift: "readStream()", .none(instead: "`socketFD` inside `perform(_:)` for socket options"),
            note: GCDNotes.notOnLinux, support: .unsupported),
        gcd(
            "writeStream", swift: "writeStream()", .none(instead: "`socketFD` inside `perform(_:)` for socket options"),
            note: GCDNotes.notOnLinux, support: .unsupported),
        gcd(
            "enableBackgroundingOnSocket", swift: "enableBackgroundingOnSocket()", .none(instead: "delete the call"),
            note: "iOS VoIP backgrounding has no meaning on Linux; detect a silent peer with read and write timeouts.",
            support: .unsupported, scope: .anywhere, swiftScope: .anywhere),
    ]

    static let gcdUtilities: [APIMapping] = [
        gcd(
            "lookupHost:port:error:", swift: "lookupHost(_:port:)", .api("QueueSocket.lookupHost(_:port:)"),
            note: "Synchronous, as in GCD; `HostResolver.system.lookup(_:port:on:modes:completion:)` does not block.",
            scope: .anywhere),
        gcd("hostFromAddress:", swift: "host(fromAddress:)", .api("QueueSocket.host(fromAddress:)"), scope: .anywhere),
        gcd("portFromAddress:", swift: "port(fromAddress:)", .api("QueueSocket.port(fromAddress:)"), scope: .anywhere),
        gcd("isIPv4Address:", swift: "isIPv4Address(_:)", .api("QueueSocket.isIPv4Address(_:)"), scope: .anywhere),
        gcd("isIPv6Address:", swift: "isIPv6Address(_:)", .api("QueueSocket.isIPv6Address(_:)"), scope: .anywhere),
        gcd(
            "getHost:port:fromAddress:", swift: "getHost(_:port:fromAddress:)",
            .api("QueueSocket.getHost(_:port:fromAddress:)"),
            note: "Static; `host` and `port` are `inout`; returns whether the address was IPv4 or IPv6.",
            scope: .anywhere),
        gcd(
            "getHost:port:family:fromAddress:", swift: "getHost(_:port:family:fromAddress:)",
            .api("QueueSocket.getHost(_:port:family:fromAddress:)"),
            note: "Static; `host`, `port` and `family` are `inout`; returns whether the address was IPv4 or IPv6.",
            scope: .anywhere),
    ]

    static let gcdDelegateMethods: [APIMapping] = [
        gcd(
            "newSocketQueueForConnectionFromAddress:onSocket:", .delegateMethod,
            swift: "newSocketQueueForConnection(fromAddress:on:)", .api("newSocketQueueForConnection(fromAddress:on:)"),
            scope: .anywhere),
        gcd(
            "socket:didAcceptNewSocket:", .delegateMethod, swift: "socket(_:didAcceptNewSocket:)",
            .api("socket(_:didAcceptNewSocket:)"),
            note: "Keep the new socket; accepted sockets never hear `didConnectToHost`, as in GCD.", scope: .anywhere),
        gcd(
            "socket:didConnectToHost:port:", .delegateMethod, swift: "socket(_:didConnectToHost:port:)",
            .api("socket(_:didConnectToHost:port:)"), scope: .anywhere),
        gcd(
            "socket:didConnectToUrl:", .delegateMethod, swift: "socket(_:didConnectTo:)",
            .api("socket(_:didConnectTo:)"), scope: .anywhere),
        gcd(
            "socket:didReadData:withTag:", .delegateMethod, swift: "socket(_:didRead:withTag:)",
            .api("socket(_:didRead:withTag:)"), scope: .anywhere),
        gcd(
            "socket:didReadPartialDataOfLength:tag:", .delegateMethod,
            swift: "socket(_:didReadPartialDataOfLength:tag:)",
            .api("socket(_:didReadPartialDataOfLength:tag:)"), scope: .anywhere),
        gcd(
            "socket:didWriteDataWithTag:", .delegateMethod, swift: "socket(_:didWriteDataWithTag:)",
            .api("socket(_:didWriteDataWithTag:)"), scope: .anywhere),
        gcd(
            "socket:didWritePartialDataOfLength:tag:", .delegateMethod,
            swift: "socket(_:didWritePartialDataOfLength:tag:)", .api("socket(_:didWritePartialDataOfLength:tag:)"),
            scope: .anywhere),
        gcd(
            "socket:shouldTimeoutReadWithTag:elapsed:bytesDone:", .delegateMethod,
            swift: "socket(_:shouldTimeoutReadWithTag:elapsed:bytesDone:)",
            .api("socket(_:shouldTimeoutReadWithTag:elapsed:bytesDone:)"), scope: .anywhere),
        gcd(
            "socket:shouldTimeoutWriteWithTag:elapsed:bytesDone:", .delegateMethod,
            swift: "socket(_:shouldTimeoutWriteWithTag:elapsed:bytesDone:)",
            .api("socket(_:shouldTimeoutWriteWithTag:elapsed:bytesDone:)"), scope: .anywhere),
        gcd(
            "socketDidCloseReadStream:", .delegateMethod, swift: "socketDidCloseReadStream(_:)",
            .api("socketDidCloseReadStream(_:)"), scope: .anywhere),
        gcd(
            "socketDidDisconnect:withError:", .delegateMethod, swift: "socketDidDisconnect(_:withError:)",
            .api("socketDidDisconnect(_:withError:)"),
            note: "A close by the peer is `QueueSocketError.closed` (7), not `nil`, as in GCD.", scope: .anywhere),
        gcd(
            "socketDidSecure:", .delegateMethod, swift: "socketDidSecure(_:)", .api("socketDidSecure(_:)"),
            scope: .anywhere),
        gcd(
            "socket:didReceiveTrust:completionHandler:", .delegateMethod,
            swift: "socket(_:didReceive:completionHandler:)",
            .api("socket(_:didReceiveTrust:completionHandler:)"),
            note: "The trust is a `CertificateChain` (the peer's certificates and OpenSSL's own verdict), not a "
                + "`SecTrustRef`; call the handler once, from any thread.",
            support: .standIn, scope: .anywhere),
    ]

    static let gcdConstants: [APIMapping] = [
        gcd(
            "GCDAsyncSocketException", .constant, swift: "GCDAsyncSocketException",
            .api("QueueSocketError.Code.badConfig"), note: "Declared but never raised by GCD; nothing is raised here.",
            scope: .anywhere, swiftScope: .anywhere),
        gcd(
            "GCDAsyncSocketErrorDomain", .constant, swift: "GCDAsyncSocketErrorDomain",
            .api("QueueSocketError.errorDomain"), note: "The same string, \"GCDAsyncSocketErrorDomain\".",
            scope: .anywhere, swiftScope: .anywhere),
        gcd(
            "GCDAsyncSocketQueueName", .constant, swift: "GCDAsyncSocketQueueName",
            .none(instead: "the literal \"GCDAsyncSocket\", the label of the socket queue QueueSocket makes"),
            scope: .anywhere, swiftScope: .anywhere),
        gcd(
            "GCDAsyncSocketThreadName", .constant, swift: "GCDAsyncSocketThreadName",
            .none(instead: "nothing: there is no CFStream thread on Linux"),
            note: "The thread that scheduled GCD's iOS CFStreams.", support: .unsupported, scope: .anywhere,
            swiftScope: .anywhere),
        gcd(
            "GCDAsyncSocketLoggingContext", .constant, swift: "GCDAsyncSocketLoggingContext",
            .none(instead: "pass a swift-log `Logger` to the initialiser (`logger:`)"), scope: .anywhere,
            swiftScope: .anywhere),
        gcd(
            "GCDAsyncSocketManuallyEvaluateTrust", .tlsSetting, swift: "GCDAsyncSocketManuallyEvaluateTrust",
            .api("TLSSettings.manualTrustEvaluation"),
            note: "The delegate gets `socket(_:didReceiveTrust:completionHandler:)`.", scope: .anywhere),
        gcd(
            "GCDAsyncSocketUseCFStreamForTLS", .tlsSetting, swift: "GCDAsyncSocketUseCFStreamForTLS",
            .none(instead: "leave the key out: TLS always runs on OpenSSL"), note: GCDNotes.notOnLinux,
            support: .unsupported, scope: .anywhere, swiftScope: .anywhere),
        gcd(
            "GCDAsyncSocketSSLPeerID", .tlsSetting, swift: "GCDAsyncSocketSSLPeerID",
            .none(instead: "leave the key out: OpenSSL's client session cache resumes sessions per peer"),
            note: "SecureTransport's session-resumption key.", support: .unsupported, scope: .anywhere,
            swiftScope: .anywhere),
        gcd(
            "GCDAsyncSocketSSLProtocolVersionMin", .tlsSetting, swift: "GCDAsyncSocketSSLProtocolVersionMin",
            .api("TLSSettings.minimumVersion"), note: "TLS 1.2 and 1.3 only.", scope: .anywhere),
        gcd(
            "GCDAsyncSocketSSLProtocolVersionMax", .tlsSetting, swift: "GCDAsyncSocketSSLProtocolVersionMax",
            .api("TLSSettings.maximumVersion"), note: "TLS 1.2 and 1.3 only.", scope: .anywhere),
        gcd(
            "GCDAsyncSocketSSLSessionOptionFalseStart", .tlsSetting, swift: "GCDAsyncSocketSSLSessionOptionFalseStart",
            .none(instead: "leave the key out"), note: "SecureTransport's False Start switch; OpenSSL has none.",
            support: .unsupported, scope: .anywhere, swiftScope: .anywhere),
        gcd(
            "GCDAsyncSocketSSLSessionOptionSendOneByteRecord", .tlsSetting,
            swift: "GCDAsyncSocketSSLSessionOptionSendOneByteRecord", .none(instead: "leave the key out"),
            note: "A BEAST work-around for TLS 1.0, which is not offered here.", support: .unsupported,
            scope: .anywhere, swiftScope: .anywhere),
        gcd(
            "GCDAsyncSocketSSLCipherSuites", .tlsSetting, swift: "GCDAsyncSocketSSLCipherSuites",
            .api("TLSSettings.cipherSuites"), note: "OpenSSL suite names instead of SecureTransport numbers.",
            support: .standIn, scope: .anywhere),
        gcd(
            "GCDAsyncSocketSSLALPN", .tlsSetting, swift: "GCDAsyncSocketSSLALPN", .api("TLSSettings.alpnProtocols"),
            scope: .anywhere),
        gcd(
            "GCDAsyncSocketSSLDiffieHellmanParameters", .tlsSetting,
            swift: "GCDAsyncSocketSSLDiffieHellmanParameters",
            .none(instead: "leave the key out: OpenSSL picks ECDHE/FFDHE groups itself"),
            note: "macOS-only server setting.", support: .unsupported, scope: .anywhere, swiftScope: .anywhere),
    ]

    static let gcdErrorCodes: [APIMapping] = [
        gcd(
            "GCDAsyncSocketNoError", .errorCode, swift: "noError", .api("QueueSocketError.Code.noError"),
            scope: .anywhere),
        gcd(
            "GCDAsyncSocketBadConfigError", .errorCode, swift: "badConfigError",
            .api("QueueSocketError.Code.badConfig"),
            note: "Thrown (GCD returned it through `error:`).", scope: .anywhere),
        gcd(
            "GCDAsyncSocketBadParamError", .errorCode, swift: "badParamError", .api("QueueSocketError.Code.badParam"),
            note: "Thrown (GCD returned it through `error:`).", scope: .anywhere),
        gcd(
            "GCDAsyncSocketConnectTimeoutError", .errorCode, swift: "connectTimeoutError",
            .api("QueueSocketError.Code.connectTimeout"), scope: .anywhere),
        gcd(
            "GCDAsyncSocketReadTimeoutError", .errorCode, swift: "readTimeoutError",
            .api("QueueSocketError.Code.readTimeout"), scope: .anywhere),
        gcd(
            "GCDAsyncSocketWriteTimeoutError", .errorCode, swift: "writeTimeoutError",
            .api("QueueSocketError.Code.writeTimeout"), scope: .anywhere),
        gcd(
            "GCDAsyncSocketReadMaxedOutError", .errorCode, swift: "readMaxedOutError",
            .api("QueueSocketError.Code.readMaxedOut"), scope: .anywhere),
        gcd(
            "GCDAsyncSocketClosedError", .errorCode, swift: "closedError", .api("QueueSocketError.Code.closed"),
            scope: .anywhere),
        gcd(
            "GCDAsyncSocketOtherError", .errorCode, swift: "otherError", .api("QueueSocketError.Code.other"),
            scope: .anywhere),
    ]
}
