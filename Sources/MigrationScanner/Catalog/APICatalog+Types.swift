extension APICatalog {
    /// The class, protocol and error type names, and the headers.
    static let types: [APIMapping] = [
        APIMapping(
            "AsyncSocket", kind: .type, swift: "AsyncSocket", runLoopSocket: "RunLoopSocket",
            queueSocket: .api("QueueSocket"),
            note: "The delegate is held weakly; a started socket keeps itself alive until it disconnects; a call "
                + "from a thread other than its run loop's stops the program (checked in every build).",
            scope: .anywhere),
        APIMapping(
            "AsyncSocketDelegate", kind: .type, swift: "AsyncSocketDelegate", runLoopSocket: "RunLoopSocketDelegate",
            queueSocket: .api("QueueSocketDelegate"),
            note: "A Swift protocol whose methods all have default implementations; adopt it explicitly.",
            scope: .anywhere),
        APIMapping(
            "AsyncSocketError", kind: .type, swift: "AsyncSocketError", runLoopSocket: "AsyncSocketError.Code",
            queueSocket: .api("QueueSocketError.Code"),
            note: "The error is a struct with a `code` (and an `underlying` system error); it bridges to `NSError` "
                + "with the same domain and numbers.",
            scope: .anywhere, swiftScope: .filesUsingV4),
        APIMapping(
            "AsyncUdpSocket", kind: .type, swift: "AsyncUdpSocket", runLoopSocket: "RunLoopUdpSocket",
            queueSocket: .api("QueueUdpSocket"),
            note: "The delegate is held weakly (the original held it strongly); a call from a thread other than its "
                + "run loop's stops the program.",
            scope: .anywhere, api: .asyncUdpSocket),
        APIMapping(
            "AsyncUdpSocketDelegate", kind: .type, swift: "AsyncUdpSocketDelegate",
            runLoopSocket: "RunLoopUdpSocketDelegate", queueSocket: .api("QueueUdpSocketDelegate"),
            note: "A Swift protocol whose methods all have default implementations (`RunLoopUdpSocketDelegateBase` "
                + "for class hierarchies).",
            scope: .anywhere, api: .asyncUdpSocket),
        APIMapping(
            "AsyncSocket.h", kind: .header, swift: nil, runLoopSocket: "import AsyncSocketKit",
            queueSocket: .api("import AsyncSocketKit"), scope: .anywhere),
        APIMapping(
            "AsyncUdpSocket.h", kind: .header, swift: nil, runLoopSocket: "import AsyncSocketKit",
            queueSocket: .api("import AsyncSocketKit"), scope: .anywhere, api: .asyncUdpSocket),
    ]
}
