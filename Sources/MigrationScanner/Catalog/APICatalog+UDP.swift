extension APICatalog {
    /// `AsyncUdpSocket` and `GCDAsyncUdpSocket`: every member, delegate method, constant and error code
    /// (the UDP tables of Migration/README.md list them). `AsyncUdpSocket` is `RunLoopUdpSocket` and
    /// `GCDAsyncUdpSocket` is `QueueUdpSocket` (each entry names its member; an `AsyncUdpSocket` entry
    /// also names the `QueueUdpSocket` member that does its job, where there is one). The class names
    /// and the header are in ``types``.
    public static let udpEntries: [APIMapping] = asyncUdpSocketEntries + gcdAsyncUdpSocketEntries

    /// What an `AsyncUdpSocket` member without a `QueueUdpSocket` counterpart says.
    static let noQueueUdpCounterpart = QueueSocketEquivalent.none(
        instead:
            "no `QueueUdpSocket` counterpart (GCDAsyncUdpSocket has none); see the UDP sections of Migration/README.md")

    /// One UDP entry, supported: `AsyncUdpSocket` under its `RunLoopUdpSocket` spelling, `GCDAsyncUdpSocket`
    /// under its `QueueUdpSocket` one; `unsupported` names an instead-text for what Linux cannot have.
    /// `shared` spellings (other classes have them too) count only where the receiver or the file says
    /// UDP; `common` ones only on a receiver known to be the UDP class.
    private static func udp(
        _ api: LegacyAPI, _ selector: String, _ kind: APIKind = .method, swift: String? = nil,
        scope: MatchScope = .anywhere, swiftScope: MatchScope? = nil, note: String? = nil, aliases: [String] = [],
        unsupported instead: String? = nil
    ) -> APIMapping {
        let swiftScope = swiftScope ?? (scope == .anywhere ? .anywhere : .filesUsingV4)
        if let instead {
            return APIMapping(
                selector, kind: kind, swift: swift, runLoopSocket: "none", queueSocket: .none(instead: instead),
                note: note, support: .unsupported, scope: scope, swiftScope: swiftScope, aliases: aliases, api: api)
        }
        if api == .asyncUdpSocket {
            let queue = queueUdpSpelling[selector].map(QueueSocketEquivalent.api) ?? noQueueUdpCounterpart
            return APIMapping(
                selector, kind: kind, swift: swift, runLoopSocket: runLoopUdpSpelling[selector] ?? "none",
                queueSocket: queue, note: note, support: .supported, scope: scope, swiftScope: swiftScope,
                aliases: aliases, api: api)
        }
        return APIMapping(
            selector, kind: kind, swift: swift, runLoopSocket: "—",
            queueSocket: .api(queueUdpSpelling[selector] ?? "none"), note: note, support: .supported, scope: scope,
            swiftScope: swiftScope, aliases: aliases, api: api)
    }

    /// The `QueueUdpSocket` spelling of each `GCDAsyncUdpSocket` member, delegate method, constant and
    /// error code (and of the `AsyncUdpSocket` selectors GCDAsyncUdpSocket shares).
    static let queueUdpSpelling: [String: String] = [
        "GCDAsyncUdpSocket": "QueueUdpSocket", "GCDAsyncUdpSocketDelegate": "QueueUdpSocketDelegate",
        "GCDAsyncUdpSocketError": "QueueUdpSocketError.Code", "GCDAsyncUdpSocket.h": "import AsyncSocketKit",
        "init": "QueueUdpSocket()", "initWithSocketQueue:": "QueueUdpSocket(socketQueue:)",
        "initWithDelegate:delegateQueue:": "QueueUdpSocket(delegate:delegateQueue:)",
        "initWithDelegate:delegateQueue:socketQueue:": "QueueUdpSocket(delegate:delegateQueue:socketQueue:)",
        "delegate": "delegate", "setDelegate:": "delegate", "delegateQueue": "delegateQueue",
        "setDelegateQueue:": "delegateQueue", "close": "close()",
        "synchronouslySetDelegate:": "synchronouslySetDelegate(_:)",
        "synchronouslySetDelegateQueue:": "synchronouslySetDelegateQueue(_:)",
        "getDelegate:delegateQueue:": "getDelegate(_:delegateQueue:)",
        "setDelegate:delegateQueue:": "setDelegate(_:delegateQueue:)",
        "synchronouslySetDelegate:delegateQueue:": "synchronouslySetDelegate(_:delegateQueue:)",
        "userData": "userData", "setUserData:": "userData", "isIPv4Enabled": "isIPv4Enabled",
        "setIPv4Enabled:": "isIPv4Enabled", "isIPv6Enabled": "isIPv6Enabled", "setIPv6Enabled:": "isIPv6Enabled",
        "localAddress": "localAddress", "localHost": "localHost", "localPort": "localPort",
        "connectedAddress": "connectedAddress", "connectedHost": "connectedHost", "connectedPort": "connectedPort",
        "isConnected": "isConnected", "isClosed": "isClosed", "isIPv4": "isIPv4", "isIPv6": "isIPv6",
        "connectToHost:onPort:error:": "connect(toHost:onPort:)", "connectToAddress:error:": "connect(toAddress:)",
        "markSocketQueueTargetQueue:": "markSocketQueueTargetQueue(_:)",
        "unmarkSocketQueueTargetQueue:": "unmarkSocketQueueTargetQueue(_:)", "performBlock:": "perform(_:)",
        "socketFD": "socketFD", "socket4FD": "socket4FD", "socket6FD": "socket6FD",
        "hostFromAddress:": "QueueSocket.host(fromAddress:)", "portFromAddress:": "QueueSocket.port(fromAddress:)",
        "isIPv4Address:": "QueueSocket.isIPv4Address(_:)", "isIPv6Address:": "QueueSocket.isIPv6Address(_:)",
        "getHost:port:fromAddress:": "QueueSocket.getHost(_:port:fromAddress:)",
        "getHost:port:family:fromAddress:": "QueueSocket.getHost(_:port:family:fromAddress:)",
        "familyFromAddress:": "QueueUdpSocket.family(fromAddress:)", "bindToPort:error:": "bind(toPort:)",
        "enableBroadcast:error:": "enableBroadcast(_:)", "joinMulticastGroup:error:": "joinMulticastGroup(_:)",
        "sendData:withTimeout:tag:": "send(_:withTimeout:tag:)",
        "sendData:toHost:port:withTimeout:tag:": "send(_:toHost:port:withTimeout:tag:)",
        "sendData:toAddress:withTimeout:tag:": "send(_:toAddress:withTimeout:tag:)",
        "closeAfterSending": "closeAfterSending()", "isIPv4Preferred": "isIPv4Preferred",
        "isIPv6Preferred": "isIPv6Preferred", "isIPVersionNeutral": "isIPVersionNeutral",
        "setPreferIPv4": "setPreferIPv4()", "setPreferIPv6": "setPreferIPv6()",
        "setIPVersionNeutral": "setIPVersionNeutral()", "maxReceiveIPv4BufferSize": "maxReceiveIPv4BufferSize",
        "setMaxReceiveIPv4BufferSize:": "maxReceiveIPv4BufferSize",
        "maxReceiveIPv6BufferSize": "maxReceiveIPv6BufferSize",
        "setMaxReceiveIPv6BufferSize:": "maxReceiveIPv6BufferSize", "maxSendBufferSize": "maxSendBufferSize",
        "setMaxSendBufferSize:": "maxSendBufferSize", "localAddress_IPv4": "localAddressIPv4",
        "localHost_IPv4": "localHostIPv4", "localPort_IPv4": "localPortIPv4", "localAddress_IPv6": "localAddressIPv6",
        "localHost_IPv6": "localHostIPv6", "localPort_IPv6": "localPortIPv6",
        "bindToPort:interface:error:": "bind(toPort:interface:)", "bindToAddress:error:": "bind(toAddress:)",
        "joinMulticastGroup:onInterface:error:": "joinMulticastGroup(_:onInterface:)",
        "leaveMulticastGroup:error:": "leaveMulticastGroup(_:)",
        "leaveMulticastGroup:onInterface:error:": "leaveMulticastGroup(_:onInterface:)",
        "sendIPv4MulticastOnInterface:error:": "sendIPv4Multicast(onInterface:)",
        "sendIPv6MulticastOnInterface:error:": "sendIPv6Multicast(onInterface:)",
        "enableReusePort:error:": "enableReusePort(_:)", "sendData:withTag:": "send(_:withTag:)",
        "setSendFilter:withQueue:": "setSendFilter(_:withQueue:)",
        "setSendFilter:withQueue:isAsynchronous:": "setSendFilter(_:withQueue:isAsynchronous:)",
        "receiveOnce:": "receiveOnce()", "beginReceiving:": "beginReceiving()", "pauseReceiving": "pauseReceiving()",
        "setReceiveFilter:withQueue:": "setReceiveFilter(_:withQueue:)",
        "setReceiveFilter:withQueue:isAsynchronous:": "setReceiveFilter(_:withQueue:isAsynchronous:)",
        "udpSocket:didConnectToAddress:": "udpSocket(_:didConnectToAddress:)",
        "udpSocket:didNotConnect:": "udpSocket(_:didNotConnect:)",
        "udpSocket:didSendDataWithTag:": "udpSocket(_:didSendDataWithTag:)",
        "udpSocket:didNotSendDataWithTag:dueToError:": "udpSocket(_:didNotSendDataWithTag:dueToError:)",
        "udpSocket:didReceiveData:fromAddress:withFilterContext:":
            "udpSocket(_:didReceive:fromAddress:withFilterContext:)",
        "udpSocketDidClose:withError:": "udpSocketDidClose(_:withError:)",
        "GCDAsyncUdpSocketException": "QueueUdpSocketError.Code.badConfig",
        "GCDAsyncUdpSocketErrorDomain": "QueueUdpSocketError.errorDomain",
        "GCDAsyncUdpSocketQueueName": "QueueUdpSocket.queueName",
        "GCDAsyncUdpSocketNoError": "QueueUdpSocketError.Code.noError",
        "GCDAsyncUdpSocketBadConfigError": "QueueUdpSocketError.Code.badConfig",
        "GCDAsyncUdpSocketBadParamError": "QueueUdpSocketError.Code.badParam",
        "GCDAsyncUdpSocketSendTimeoutError": "QueueUdpSocketError.Code.sendTimeout",
        "GCDAsyncUdpSocketClosedError": "QueueUdpSocketError.Code.closed",
        "GCDAsyncUdpSocketOtherError": "QueueUdpSocketError.Code.other",
        "receiveWithTimeout:tag:": "receiveOnce()", "AsyncUdpSocketError": "QueueUdpSocketError.Code",
        "onUdpSocket:didSendDataWithTag:": "udpSocket(_:didSendDataWithTag:)",
        "onUdpSocket:didNotSendDataWithTag:dueToError:": "udpSocket(_:didNotSendDataWithTag:dueToError:)",
        "onUdpSocket:didReceiveData:withTag:fromHost:port:": "udpSocket(_:didReceive:fromAddress:withFilterContext:)",
        "onUdpSocketDidClose:": "udpSocketDidClose(_:withError:)",
        "initWithDelegate:": "QueueUdpSocket(delegate:delegateQueue:)",
        "initWithDelegate:userData:": "QueueUdpSocket(delegate:delegateQueue:)",
        "initIPv4": "isIPv6Enabled = false", "initIPv6": "isIPv4Enabled = false",
        "maxReceiveBufferSize": "maxReceiveIPv4BufferSize", "setMaxReceiveBufferSize:": "maxReceiveIPv4BufferSize",
        "AsyncUdpSocketErrorDomain": "QueueUdpSocketError.errorDomain",
        "AsyncUdpSocketSendTimeoutError": "QueueUdpSocketError.Code.sendTimeout",
    ]

    /// The `RunLoopUdpSocket` spelling of each `AsyncUdpSocket` member, delegate method, constant and
    /// error code.
    static let runLoopUdpSpelling: [String: String] = [
        "init": "RunLoopUdpSocket()", "initWithDelegate:": "RunLoopUdpSocket(delegate:)",
        "initWithDelegate:userData:": "RunLoopUdpSocket(delegate:userData:)",
        "initIPv4": "RunLoopUdpSocket(families: .ipv4Only)", "initIPv6": "RunLoopUdpSocket(families: .ipv6Only)",
        "delegate": "delegate", "setDelegate:": "delegate", "close": "close()", "userData": "userData",
        "setUserData:": "userData", "localHost": "localHost", "localPort": "localPort",
        "connectedHost": "connectedHost",
        "connectedPort": "connectedPort", "isConnected": "isConnected", "isIPv4": "isIPv4", "isIPv6": "isIPv6",
        "connectToHost:onPort:error:": "connect(toHost:port:)", "connectToAddress:error:": "connect(toAddress:)",
        "moveToRunLoop:": "moveToRunLoop(_:)", "setRunLoopModes:": "setRunLoopModes(_:)",
        "runLoopModes": "runLoopModes", "isClosed": "isClosed", "bindToPort:error:": "bind(toPort:)",
        "enableBroadcast:error:": "enableBroadcast(_:)", "joinMulticastGroup:error:": "joinMulticastGroup(_:)",
        "sendData:withTimeout:tag:": "send(_:withTimeout:tag:)",
        "sendData:toHost:port:withTimeout:tag:": "send(_:toHost:port:withTimeout:tag:)",
        "sendData:toAddress:withTimeout:tag:": "send(_:toAddress:withTimeout:tag:)",
        "closeAfterSending": "closeAfterSending()", "AsyncUdpSocketError": "AsyncUdpSocketError.Code",
        "maxReceiveBufferSize": "maxReceiveBufferSize", "setMaxReceiveBufferSize:": "maxReceiveBufferSize",
        "maximumTransmissionUnit": "maximumTransmissionUnit", "bindToAddress:port:error:": "bind(toAddress:port:)",
        "joinMulticastGroup:withAddress:error:": "joinMulticastGroup(_:withAddress:)",
        "receiveWithTimeout:tag:": "receive(withTimeout:tag:)", "closeAfterReceiving": "closeAfterReceiving()",
        "closeAfterSendingAndReceiving": "closeAfterSendingAndReceiving()",
        "onUdpSocket:didSendDataWithTag:": "onUdpSocket(_:didSendDataWithTag:)",
        "onUdpSocket:didNotSendDataWithTag:dueToError:": "onUdpSocket(_:didNotSendDataWithTag:dueToError:)",
        "onUdpSocket:didReceiveData:withTag:fromHost:port:": "onUdpSocket(_:didReceive:withTag:fromHost:port:)",
        "onUdpSocket:didNotReceiveDataWithTag:dueToError:": "onUdpSocket(_:didNotReceiveDataWithTag:dueToError:)",
        "onUdpSocketDidClose:": "onUdpSocketDidClose(_:)", "AsyncUdpSocketException": "AsyncSocketUsageError",
        "AsyncUdpSocketErrorDomain": "AsyncUdpSocketError.errorDomain",
        "AsyncUdpSocketCFSocketError": "AsyncUdpSocketError.Code.socketError",
        "AsyncUdpSocketNoError": "AsyncUdpSocketError.Code.noError",
        "AsyncUdpSocketBadParameter": "AsyncUdpSocketError.Code.badParameter",
        "AsyncUdpSocketIPv4Unavailable": "AsyncUdpSocketError.Code.ipv4Unavailable",
        "AsyncUdpSocketIPv6Unavailable": "AsyncUdpSocketError.Code.ipv6Unavailable",
        "AsyncUdpSocketSendTimeoutError": "AsyncUdpSocketError.Code.sendTimeout",
        "AsyncUdpSocketReceiveTimeoutError": "AsyncUdpSocketError.Code.receiveTimeout",
    ]

    /// Members several classes share: matched by receiver, or in files that use the UDP class.
    private static func shared(_ api: LegacyAPI, _ selectors: [String]) -> [APIMapping] {
        selectors.map { udp(api, $0, swift: swiftSpelling(of: $0), scope: .filesUsingV4) }
    }

    /// Members too common to match without a known receiver (`init`, `close`, `delegate`).
    private static func common(_ api: LegacyAPI, _ selectors: [String]) -> [APIMapping] {
        selectors.map { udp(api, $0, scope: .knownReceiver, swiftScope: .mappingOnly) }
    }

    /// The members both UDP classes have and no TCP class has: binding, broadcast, joining a group,
    /// sending.
    private static func sending(_ api: LegacyAPI) -> [APIMapping] {
        [
            udp(api, "bindToPort:error:", swift: "bind(toPort:)"),
            udp(api, "enableBroadcast:error:", swift: "enableBroadcast(_:)"),
            udp(api, "joinMulticastGroup:error:", swift: "joinMulticastGroup(_:)"),
            udp(api, "sendData:withTimeout:tag:", swift: "send(_:withTimeout:tag:)"),
            udp(api, "sendData:toHost:port:withTimeout:tag:", swift: "send(_:toHost:port:withTimeout:tag:)"),
            udp(api, "sendData:toAddress:withTimeout:tag:", swift: "send(_:toAddress:withTimeout:tag:)"),
            udp(api, "closeAfterSending", swift: "closeAfterSending()"),
        ]
    }

    /// The Swift spelling of a plain accessor or a one-argument method of the Objective-C header
    /// (`localPort` → `localPort()`), or `nil` for a selector with more than one part.
    private static func swiftSpelling(of selector: String) -> String? {
        guard selector.filter({ $0 == ":" }).count <= 1 else { return nil }
        return selector.hasSuffix(":") ? String(selector.dropLast()) + "(_:)" : selector + "()"
    }

    static let asyncUdpSocketEntries: [APIMapping] =
        common(
            .asyncUdpSocket,
            ["init", "initWithDelegate:", "initWithDelegate:userData:", "delegate", "setDelegate:", "close"])
        + shared(
            .asyncUdpSocket,
            [
                "userData", "setUserData:", "localHost", "localPort", "connectedHost", "connectedPort", "isConnected",
                "isIPv4", "isIPv6", "connectToHost:onPort:error:", "connectToAddress:error:", "moveToRunLoop:",
                "setRunLoopModes:", "runLoopModes", "isClosed",
            ])
        + sending(.asyncUdpSocket)
        + [
            udp(.asyncUdpSocket, "AsyncUdpSocketError", .type, swift: "AsyncUdpSocketError"),
            udp(.asyncUdpSocket, "initIPv4", scope: .knownReceiver, swiftScope: .mappingOnly),
            udp(.asyncUdpSocket, "initIPv6", scope: .knownReceiver, swiftScope: .mappingOnly),
            udp(.asyncUdpSocket, "maxReceiveBufferSize", swift: "maxReceiveBufferSize()"),
            udp(.asyncUdpSocket, "setMaxReceiveBufferSize:", swift: "setMaxReceiveBufferSize(_:)"),
            udp(
                .asyncUdpSocket, "maximumTransmissionUnit", swift: "maximumTransmissionUnit()",
                note: "The kernel's path MTU of the connected socket (`IP_MTU`); 0 when not connected."),
            udp(.asyncUdpSocket, "bindToAddress:port:error:", swift: "bind(toAddress:port:)"),
            udp(
                .asyncUdpSocket, "joinMulticastGroup:withAddress:error:", swift: "joinMulticastGroup(_:withAddress:)",
                note: "IPv6 groups join at `IPPROTO_IPV6` on the interface that has the address (the original used "
                    + "the IPv4 level and interface 0); `leaveMulticastGroup(_:withAddress:)` is new."),
            udp(
                .asyncUdpSocket, "receiveWithTimeout:tag:", swift: "receive(withTimeout:tag:)",
                note: "One datagram per request, as the delegate's `Bool` answer decides; a datagram larger than "
                    + "`maxReceiveBufferSize` is reported (`EMSGSIZE`) and dropped, never cut."),
            udp(.asyncUdpSocket, "closeAfterReceiving", swift: "closeAfterReceiving()"),
            udp(.asyncUdpSocket, "closeAfterSendingAndReceiving", swift: "closeAfterSendingAndReceiving()"),
            udp(
                .asyncUdpSocket, "onUdpSocket:didSendDataWithTag:", .delegateMethod,
                swift: "onUdpSocket(_:didSendDataWithTag:)"),
            udp(
                .asyncUdpSocket, "onUdpSocket:didNotSendDataWithTag:dueToError:", .delegateMethod,
                swift: "onUdpSocket(_:didNotSendDataWithTag:dueToError:)"),
            udp(
                .asyncUdpSocket, "onUdpSocket:didReceiveData:withTag:fromHost:port:", .delegateMethod,
                swift: "onUdpSocket(_:didReceive:withTag:fromHost:port:)"),
            udp(
                .asyncUdpSocket, "onUdpSocket:didNotReceiveDataWithTag:dueToError:", .delegateMethod,
                swift: "onUdpSocket(_:didNotReceiveDataWithTag:dueToError:)"),
            udp(.asyncUdpSocket, "onUdpSocketDidClose:", .delegateMethod, swift: "onUdpSocketDidClose(_:)"),
            udp(.asyncUdpSocket, "AsyncUdpSocketException", .constant, swift: "AsyncUdpSocketException"),
            udp(.asyncUdpSocket, "AsyncUdpSocketErrorDomain", .constant, swift: "AsyncUdpSocketErrorDomain"),
        ]
        + [
            "AsyncUdpSocketCFSocketError", "AsyncUdpSocketNoError", "AsyncUdpSocketBadParameter",
            "AsyncUdpSocketIPv4Unavailable", "AsyncUdpSocketIPv6Unavailable", "AsyncUdpSocketSendTimeoutError",
            "AsyncUdpSocketReceiveTimeoutError",
        ].map { udp(.asyncUdpSocket, $0, .errorCode) }

    static let gcdAsyncUdpSocketEntries: [APIMapping] =
        [
            udp(.gcdAsyncUdpSocket, "GCDAsyncUdpSocket", .type, swift: "GCDAsyncUdpSocket"),
            udp(.gcdAsyncUdpSocket, "GCDAsyncUdpSocketDelegate", .type, swift: "GCDAsyncUdpSocketDelegate"),
            udp(.gcdAsyncUdpSocket, "GCDAsyncUdpSocketError", .type, swift: "GCDAsyncUdpSocketError"),
            udp(.gcdAsyncUdpSocket, "GCDAsyncUdpSocket.h", .header),
        ]
        + common(
            .gcdAsyncUdpSocket,
            [
                "init", "initWithSocketQueue:", "initWithDelegate:delegateQueue:",
                "initWithDelegate:delegateQueue:socketQueue:", "delegate", "setDelegate:", "delegateQueue",
                "setDelegateQueue:", "close",
            ])
        + shared(
            .gcdAsyncUdpSocket,
            [
                "synchronouslySetDelegate:", "synchronouslySetDelegateQueue:", "getDelegate:delegateQueue:",
                "setDelegate:delegateQueue:", "synchronouslySetDelegate:delegateQueue:", "userData", "setUserData:",
                "isIPv4Enabled", "setIPv4Enabled:", "isIPv6Enabled", "setIPv6Enabled:", "localAddress", "localHost",
                "localPort", "connectedAddress", "connectedHost", "connectedPort", "isConnected", "isClosed", "isIPv4",
                "isIPv6", "connectToHost:onPort:error:", "connectToAddress:error:", "markSocketQueueTargetQueue:",
                "unmarkSocketQueueTargetQueue:", "performBlock:", "socketFD",
                "socket4FD", "socket6FD", "hostFromAddress:", "portFromAddress:",
                "isIPv4Address:", "isIPv6Address:", "getHost:port:fromAddress:", "getHost:port:family:fromAddress:",
            ])
        + sending(.gcdAsyncUdpSocket)
        + [
            "isIPv4Preferred", "isIPv6Preferred", "isIPVersionNeutral", "setPreferIPv4", "setPreferIPv6",
            "setIPVersionNeutral", "maxReceiveIPv4BufferSize", "setMaxReceiveIPv4BufferSize:",
            "maxReceiveIPv6BufferSize", "setMaxReceiveIPv6BufferSize:", "maxSendBufferSize", "setMaxSendBufferSize:",
            "localAddress_IPv4", "localHost_IPv4", "localPort_IPv4", "localAddress_IPv6", "localHost_IPv6",
            "localPort_IPv6", "familyFromAddress:",
        ].map { udp(.gcdAsyncUdpSocket, $0, swift: swiftSpelling(of: $0)) }
        + [
            udp(.gcdAsyncUdpSocket, "bindToPort:interface:error:", swift: "bind(toPort:interface:)"),
            udp(.gcdAsyncUdpSocket, "bindToAddress:error:", swift: "bind(toAddress:)"),
            udp(
                .gcdAsyncUdpSocket, "joinMulticastGroup:onInterface:error:", swift: "joinMulticastGroup(_:onInterface:)"
            ),
            udp(.gcdAsyncUdpSocket, "leaveMulticastGroup:error:", swift: "leaveMulticastGroup(_:)"),
            udp(
                .gcdAsyncUdpSocket, "leaveMulticastGroup:onInterface:error:",
                swift: "leaveMulticastGroup(_:onInterface:)"),
            udp(.gcdAsyncUdpSocket, "sendIPv4MulticastOnInterface:error:", swift: "sendIPv4Multicast(onInterface:)"),
            udp(.gcdAsyncUdpSocket, "sendIPv6MulticastOnInterface:error:", swift: "sendIPv6Multicast(onInterface:)"),
            udp(.gcdAsyncUdpSocket, "enableReusePort:error:", swift: "enableReusePort(_:)"),
            udp(.gcdAsyncUdpSocket, "sendData:withTag:", swift: "send(_:withTag:)"),
            udp(.gcdAsyncUdpSocket, "setSendFilter:withQueue:", swift: "setSendFilter(_:with:)"),
            udp(
                .gcdAsyncUdpSocket, "setSendFilter:withQueue:isAsynchronous:",
                swift: "setSendFilter(_:with:isAsynchronous:)"),
            udp(.gcdAsyncUdpSocket, "receiveOnce:", swift: "receiveOnce()"),
            udp(.gcdAsyncUdpSocket, "beginReceiving:", swift: "beginReceiving()"),
            udp(.gcdAsyncUdpSocket, "pauseReceiving", swift: "pauseReceiving()"),
            udp(.gcdAsyncUdpSocket, "setReceiveFilter:withQueue:", swift: "setReceiveFilter(_:with:)"),
            udp(
                .gcdAsyncUdpSocket, "setReceiveFilter:withQueue:isAsynchronous:",
                swift: "setReceiveFilter(_:with:isAsynchronous:)"),
            udp(
                .gcdAsyncUdpSocket, "udpSocket:didConnectToAddress:", .delegateMethod,
                swift: "udpSocket(_:didConnectToAddress:)"),
            udp(.gcdAsyncUdpSocket, "udpSocket:didNotConnect:", .delegateMethod, swift: "udpSocket(_:didNotConnect:)"),
            udp(
                .gcdAsyncUdpSocket, "udpSocket:didSendDataWithTag:", .delegateMethod,
                swift: "udpSocket(_:didSendDataWithTag:)"),
            udp(
                .gcdAsyncUdpSocket, "udpSocket:didNotSendDataWithTag:dueToError:", .delegateMethod,
                swift: "udpSocket(_:didNotSendDataWithTag:dueToError:)"),
            udp(
                .gcdAsyncUdpSocket, "udpSocket:didReceiveData:fromAddress:withFilterContext:", .delegateMethod,
                swift: "udpSocket(_:didReceive:fromAddress:withFilterContext:)"),
            udp(
                .gcdAsyncUdpSocket, "udpSocketDidClose:withError:", .delegateMethod,
                swift: "udpSocketDidClose(_:withError:)"),
        ]
        + [
            udp(
                .gcdAsyncUdpSocket, "readStream", swift: "readStream()", scope: .filesUsingV4,
                note: "GCDAsyncUdpSocket's iOS CFReadStream.", unsupported: "`socketFD` inside `perform(_:)`"),
            udp(
                .gcdAsyncUdpSocket, "writeStream", swift: "writeStream()", scope: .filesUsingV4,
                note: "GCDAsyncUdpSocket's iOS CFWriteStream.", unsupported: "`socketFD` inside `perform(_:)`"),
            udp(
                .gcdAsyncUdpSocket, "GCDAsyncUdpSocketException", .constant, swift: "GCDAsyncUdpSocketException",
                note: "Declared but never raised by GCDAsyncUdpSocket; misuse throws `QueueUdpSocketError` here."),
            udp(.gcdAsyncUdpSocket, "GCDAsyncUdpSocketErrorDomain", .constant, swift: "GCDAsyncUdpSocketErrorDomain"),
            udp(
                .gcdAsyncUdpSocket, "GCDAsyncUdpSocketQueueName", .constant, swift: "GCDAsyncUdpSocketQueueName",
                note: "The same string, \"GCDAsyncUdpSocket\"."),
            udp(
                .gcdAsyncUdpSocket, "GCDAsyncUdpSocketThreadName", .constant, swift: "GCDAsyncUdpSocketThreadName",
                note: "The thread that scheduled GCDAsyncUdpSocket's iOS CFStreams.",
                unsupported: "nothing: there is no CFStream thread on Linux"),
        ]
        + [
            "GCDAsyncUdpSocketNoError", "GCDAsyncUdpSocketBadConfigError", "GCDAsyncUdpSocketBadParamError",
            "GCDAsyncUdpSocketSendTimeoutError", "GCDAsyncUdpSocketClosedError", "GCDAsyncUdpSocketOtherError",
        ].map { udp(.gcdAsyncUdpSocket, $0, .errorCode) }
}
