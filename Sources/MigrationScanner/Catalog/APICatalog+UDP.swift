extension APICatalog {
    /// `AsyncUdpSocket` and `GCDAsyncUdpSocket`: every member, delegate method, constant and error code
    /// (from the project's udp-reference.md). AsyncSocketKit has no UDP class yet, so each is reported
    /// as not yet supported, with a note that UDP support is planned. The class name `AsyncUdpSocket`
    /// and its header are in ``types``.
    public static let udpEntries: [APIMapping] = asyncUdpSocketEntries + gcdAsyncUdpSocketEntries

    /// What every UDP entry says.
    static let udpNote =
        "AsyncSocketKit has TCP sockets only: UDP is not yet supported (UDP support is planned)."

    static let udpInstead =
        "use a UDP socket of your own on an `EventRunLoop` file source (`EventRunLoop.addFileSource`) or a "
        + "`DispatchSource` until UDP support lands"

    /// One UDP entry. `shared` spellings (other classes have them too) count only where the receiver
    /// or the file says UDP; `common` ones only on a receiver known to be the UDP class.
    private static func udp(
        _ api: LegacyAPI, _ selector: String, _ kind: APIKind = .method, swift: String? = nil,
        scope: MatchScope = .anywhere, swiftScope: MatchScope? = nil, note: String? = nil, aliases: [String] = []
    ) -> APIMapping {
        APIMapping(
            selector, kind: kind, swift: swift, runLoopSocket: "none", queueSocket: .none(instead: udpInstead),
            note: note.map { udpNote + " " + $0 } ?? udpNote, support: .notYetSupported, scope: scope,
            swiftScope: swiftScope ?? (scope == .anywhere ? .anywhere : .filesUsingV4), aliases: aliases, api: api)
    }

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
            udp(.asyncUdpSocket, "maximumTransmissionUnit", swift: "maximumTransmissionUnit()"),
            udp(.asyncUdpSocket, "bindToAddress:port:error:", swift: "bind(toAddress:port:)"),
            udp(.asyncUdpSocket, "joinMulticastGroup:withAddress:error:", swift: "joinMulticastGroup(_:withAddress:)"),
            udp(
                .asyncUdpSocket, "receiveWithTimeout:tag:", swift: "receive(withTimeout:tag:)",
                note: "One datagram per request, as the delegate's `BOOL` answer decides."),
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
                "socket4FD", "socket6FD", "readStream", "writeStream", "hostFromAddress:", "portFromAddress:",
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
            "GCDAsyncUdpSocketException", "GCDAsyncUdpSocketErrorDomain", "GCDAsyncUdpSocketQueueName",
            "GCDAsyncUdpSocketThreadName",
        ].map { udp(.gcdAsyncUdpSocket, $0, .constant, swift: $0) }
        + [
            "GCDAsyncUdpSocketNoError", "GCDAsyncUdpSocketBadConfigError", "GCDAsyncUdpSocketBadParamError",
            "GCDAsyncUdpSocketSendTimeoutError", "GCDAsyncUdpSocketClosedError", "GCDAsyncUdpSocketOtherError",
        ].map { udp(.gcdAsyncUdpSocket, $0, .errorCode) }
}
