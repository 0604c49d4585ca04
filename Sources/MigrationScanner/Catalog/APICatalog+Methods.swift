extension APICatalog {
    /// The methods of the final run-loop `AsyncSocket` (and the 4.x `acceptOnAddress:port:error:`).
    static let methods: [APIMapping] = lifecycleMethods + connectionMethods + ioMethods + runLoopMethods

    /// Creating, the delegate, user data, raw handles.
    static let lifecycleMethods: [APIMapping] = [
        APIMapping(
            "init", kind: .method, swift: "AsyncSocket()", runLoopSocket: "RunLoopSocket()",
            queueSocket: .api("QueueSocket()"), scope: .knownReceiver, swiftScope: .anywhere),
        APIMapping(
            "initWithDelegate:", kind: .method, swift: "AsyncSocket(delegate:)",
            runLoopSocket: "RunLoopSocket(delegate:)",
            queueSocket: .api("QueueSocket(delegate:delegateQueue:)"),
            note: "QueueSocket also needs the queue its delegate is called on.", scope: .knownReceiver,
            swiftScope: .anywhere),
        APIMapping(
            "initWithDelegate:userData:", kind: .method, swift: "AsyncSocket(delegate:userData:)",
            runLoopSocket: "RunLoopSocket(delegate:userData:)",
            queueSocket: .api("QueueSocket(delegate:delegateQueue:)"),
            note: "`RunLoopSocket(delegate:userData:preBuffering:)` can turn prebuffering off per socket; "
                + "`RunLoopSocket.defaultPreBuffering` stands for `DEFAULT_PREBUFFERING`.",
            scope: .knownReceiver, swiftScope: .anywhere),
        APIMapping(
            "delegate", kind: .method, swift: "delegate()", runLoopSocket: "delegate",
            queueSocket: .api("delegate"), note: "Held weakly (the original's ARC ivar was strong).",
            scope: .knownReceiver, swiftScope: .mappingOnly),
        APIMapping(
            "setDelegate:", kind: .method, swift: "setDelegate(_:)", runLoopSocket: "delegate = …",
            queueSocket: .api("setDelegate(_:delegateQueue:)"),
            note: "QueueSocket's setters are asynchronous; `synchronouslySetDelegate(_:)` where the delegate is "
                + "going away.",
            scope: .knownReceiver, swiftScope: .mappingOnly),
        APIMapping(
            "canSafelySetDelegate", kind: .method, swift: "canSafelySetDelegate()",
            runLoopSocket: "canSafelySetDelegate",
            queueSocket: .none(
                instead: "change the delegate when nothing is queued; `synchronouslySetDelegate(_:)` waits for "
                    + "the socket queue"),
            scope: .anywhere),
        APIMapping(
            "userData", kind: .method, swift: "userData()", runLoopSocket: "userData", queueSocket: .api("userData"),
            note: "An `Int` (the original's `long`); on QueueSocket any `Sendable` value.", scope: .filesUsingV4),
        APIMapping(
            "setUserData:", kind: .method, swift: "setUserData(_:)", runLoopSocket: "userData = …",
            queueSocket: .api("userData = …"), scope: .filesUsingV4),
        APIMapping(
            "description", kind: .method, swift: "description", runLoopSocket: "description",
            queueSocket: .api("description"), note: "One line, not API-stable, as before.", scope: .knownReceiver,
            swiftScope: .mappingOnly),
        APIMapping(
            "getCFSocket", kind: .method, swift: "getCFSocket()", runLoopSocket: "socketFD",
            queueSocket: .api("socketFD"),
            note: "The descriptor (−1 without one) instead of a `CFSocketRef`: set options on it with `setsockopt`; "
                + "a dual-stack listener also has `socket4FD` and `socket6FD`. " + MigrationNotes.queueDescriptor,
            support: .standIn, scope: .anywhere),
        APIMapping(
            "getCFReadStream", kind: .method, swift: "getCFReadStream()", runLoopSocket: "socketFD",
            queueSocket: .api("socketFD"),
            note: MigrationNotes.streamProperty + " `onSocketWillConnect` is still the place to do it (for a connect "
                + "by name the descriptor exists once the name is resolved). " + MigrationNotes.queueDescriptor,
            support: .standIn, scope: .anywhere),
        APIMapping(
            "getCFWriteStream", kind: .method, swift: "getCFWriteStream()", runLoopSocket: "socketFD",
            queueSocket: .api("socketFD"), note: MigrationNotes.streamProperty + " " + MigrationNotes.queueDescriptor,
            support: .standIn, scope: .anywhere),
    ]

    /// Accepting, connecting, disconnecting, addresses.
    static let connectionMethods: [APIMapping] = [
        APIMapping(
            "acceptOnPort:error:", kind: .method, swift: "accept(onPort:)", runLoopSocket: "acceptOnPort(_:)",
            queueSocket: .api("accept(onPort:)"), note: MigrationNotes.listen, scope: .filesUsingV4),
        APIMapping(
            "acceptOnInterface:port:error:", kind: .method, swift: "accept(onInterface:port:)",
            runLoopSocket: "acceptOnInterface(_:port:)", queueSocket: .api("accept(onInterface:port:)"),
            note: MigrationNotes.listen, scope: .filesUsingV4),
        APIMapping(
            "acceptOnAddress:port:error:", kind: .method, swift: "accept(onAddress:port:)",
            runLoopSocket: "acceptOnAddress(_:port:)", queueSocket: .api("accept(onInterface:port:)"),
            note: "The 4.x name of `acceptOnInterface:port:error:`. " + MigrationNotes.listen, scope: .anywhere),
        APIMapping(
            "connectToHost:onPort:error:", kind: .method, swift: "connect(toHost:onPort:)",
            runLoopSocket: "connectToHost(_:onPort:)", queueSocket: .api("connect(toHost:onPort:)"),
            note: MigrationNotes.connectByName, scope: .filesUsingV4),
        APIMapping(
            "connectToHost:onPort:withTimeout:error:", kind: .method, swift: "connect(toHost:onPort:withTimeout:)",
            runLoopSocket: "connectToHost(_:onPort:withTimeout:)",
            queueSocket: .api("connect(toHost:onPort:withTimeout:)"),
            note: MigrationNotes.connectByName + MigrationNotes.connectTimer, scope: .filesUsingV4),
        APIMapping(
            "connectToAddress:error:", kind: .method, swift: "connect(toAddress:)",
            runLoopSocket: "connectToAddress(_:)",
            queueSocket: .api("connect(toAddress:)"), note: MigrationNotes.connectByAddress, scope: .filesUsingV4),
        APIMapping(
            "connectToAddress:withTimeout:error:", kind: .method, swift: "connect(toAddress:withTimeout:)",
            runLoopSocket: "connectToAddress(_:withTimeout:)", queueSocket: .api("connect(toAddress:withTimeout:)"),
            note: MigrationNotes.connectByAddress + MigrationNotes.connectTimer, scope: .filesUsingV4),
        APIMapping(
            "connectToAddress:viaInterfaceAddress:withTimeout:error:", kind: .method,
            swift: "connect(toAddress:viaInterfaceAddress:withTimeout:)",
            runLoopSocket: "connectToAddress(_:viaInterfaceAddress:withTimeout:)",
            queueSocket: .api("connect(toAddress:viaInterface:withTimeout:)"),
            note: MigrationNotes.connectByAddress + " QueueSocket takes the interface as a name or address string "
                + "(\"eth0\", \"192.168.1.2\"), not a `sockaddr`.",
            scope: .anywhere),
        APIMapping(
            "disconnect", kind: .method, swift: "disconnect()", runLoopSocket: "disconnect()",
            queueSocket: .api("disconnect()"),
            note: "`onSocketDidDisconnect` runs before `disconnect()` returns, as before; QueueSocket's "
                + "`socketDidDisconnect(_:withError: nil)` is queued and runs later on the delegate queue.",
            scope: .filesUsingV4),
        APIMapping(
            "disconnectAfterReading", kind: .method, swift: "disconnectAfterReading()",
            runLoopSocket: "disconnectAfterReading()", queueSocket: .api("disconnectAfterReading()"),
            note: MigrationNotes.disconnectAfter, scope: .filesUsingV4),
        APIMapping(
            "disconnectAfterWriting", kind: .method, swift: "disconnectAfterWriting()",
            runLoopSocket: "disconnectAfterWriting()", queueSocket: .api("disconnectAfterWriting()"),
            note: MigrationNotes.disconnectAfter, scope: .filesUsingV4),
        APIMapping(
            "disconnectAfterReadingAndWriting", kind: .method, swift: "disconnectAfterReadingAndWriting()",
            runLoopSocket: "disconnectAfterReadingAndWriting()",
            queueSocket: .api("disconnectAfterReadingAndWriting()"),
            note: MigrationNotes.disconnectAfter, scope: .filesUsingV4),
        APIMapping(
            "isConnected", kind: .method, swift: "isConnected()", runLoopSocket: "isConnected",
            queueSocket: .api("isConnected"), scope: .filesUsingV4),
        APIMapping(
            "connectedHost", kind: .method, swift: "connectedHost()", runLoopSocket: "connectedHost",
            queueSocket: .api("connectedHost"), scope: .filesUsingV4),
        APIMapping(
            "connectedPort", kind: .method, swift: "connectedPort()", runLoopSocket: "connectedPort",
            queueSocket: .api("connectedPort"), scope: .filesUsingV4),
        APIMapping(
            "localHost", kind: .method, swift: "localHost()", runLoopSocket: "localHost",
            queueSocket: .api("localHost"), scope: .filesUsingV4),
        APIMapping(
            "localPort", kind: .method, swift: "localPort()", runLoopSocket: "localPort",
            queueSocket: .api("localPort"), scope: .filesUsingV4),
        APIMapping(
            "connectedAddress", kind: .method, swift: "connectedAddress()", runLoopSocket: "connectedAddress",
            queueSocket: .api("connectedAddress"), scope: .filesUsingV4),
        APIMapping(
            "localAddress", kind: .method, swift: "localAddress()", runLoopSocket: "localAddress",
            queueSocket: .api("localAddress"), scope: .filesUsingV4),
        APIMapping(
            "isIPv4", kind: .method, swift: "isIPv4()", runLoopSocket: "isIPv4", queueSocket: .api("isIPv4"),
            scope: .filesUsingV4),
        APIMapping(
            "isIPv6", kind: .method, swift: "isIPv6()", runLoopSocket: "isIPv6", queueSocket: .api("isIPv6"),
            scope: .filesUsingV4),
    ]
}
