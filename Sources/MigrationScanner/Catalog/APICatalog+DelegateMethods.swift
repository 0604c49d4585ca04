extension APICatalog {
    /// The informal `AsyncSocketDelegate` protocol. AsyncSocketKit kept every Swift spelling, so in Swift
    /// they count only in files that still use the v4 API.
    static let delegateMethods: [APIMapping] = [
        APIMapping(
            "onSocket:willDisconnectWithError:", kind: .delegateMethod, swift: "onSocket(_:willDisconnectWithError:)",
            runLoopSocket: "onSocket(_:willDisconnectWithError:)",
            queueSocket: .none(
                instead: "handle the error in `socketDidDisconnect(_:withError:)`, where a clean close by the peer "
                    + "is `QueueSocketError.closed` (7), not `nil`, and unread bytes are gone"),
            note: "Also called for a clean close by the peer (with a `nil` error) while no read is queued: the close "
                + "is noticed from the kernel's RDHUP, and the peer's last bytes are in `unreadData()`.",
            scope: .anywhere, swiftScope: .filesUsingV4),
        APIMapping(
            "onSocketDidDisconnect:", kind: .delegateMethod, swift: "onSocketDidDisconnect(_:)",
            runLoopSocket: "onSocketDidDisconnect(_:)", queueSocket: .api("socketDidDisconnect(_:withError:)"),
            note: "The listening port is released before it runs. Drop your reference to the socket here: a started "
                + "socket keeps itself alive until then.",
            scope: .anywhere, swiftScope: .filesUsingV4),
        APIMapping(
            "onSocket:didAcceptNewSocket:", kind: .delegateMethod, swift: "onSocket(_:didAcceptNewSocket:)",
            runLoopSocket: "onSocket(_:didAcceptNewSocket:)", queueSocket: .api("socket(_:didAcceptNewSocket:)"),
            note: "Keep the new socket: one nobody keeps is closed at once and its delegate hears "
                + "`onSocketDidDisconnect` with that socket. QueueSocket's accepted sockets never get "
                + "`didConnectToHost`: start their reads here.",
            scope: .anywhere, swiftScope: .filesUsingV4),
        APIMapping(
            "onSocket:wantsRunLoopForNewSocket:", kind: .delegateMethod, swift: "onSocket(_:wantsRunLoopForNewSocket:)",
            runLoopSocket: "onSocket(_:wantsRunLoopForNewSocket:)",
            queueSocket: .api("newSocketQueueForConnection(fromAddress:on:)"),
            note: "Returns an `EventRunLoop` (an `EventRunLoopThread`'s loop for a worker thread) instead of an "
                + "`NSRunLoop`.",
            scope: .anywhere, swiftScope: .filesUsingV4),
        APIMapping(
            "onSocketWillConnect:", kind: .delegateMethod, swift: "onSocketWillConnect(_:)",
            runLoopSocket: "onSocketWillConnect(_:)",
            queueSocket: .none(
                instead: "no veto: set socket options with `perform { socketFD }` in "
                    + "`socket(_:didConnectToHost:port:)`, or call `disconnect()`"),
            note: "The place to set options on `socketFD` (there are no CF streams); for a connect by name the "
                + "descriptor exists only once the name is resolved.",
            scope: .anywhere, swiftScope: .filesUsingV4),
        APIMapping(
            "onSocket:didConnectToHost:port:", kind: .delegateMethod, swift: "onSocket(_:didConnectToHost:port:)",
            runLoopSocket: "onSocket(_:didConnectToHost:port:)", queueSocket: .api("socket(_:didConnectToHost:port:)"),
            note: "QueueSocket calls it for connects only, never for accepted sockets.", scope: .anywhere,
            swiftScope: .filesUsingV4),
        APIMapping(
            "onSocket:didReadData:withTag:", kind: .delegateMethod, swift: "onSocket(_:didRead:withTag:)",
            runLoopSocket: "onSocket(_:didRead:withTag:)", queueSocket: .api("socket(_:didRead:withTag:)"),
            scope: .anywhere, swiftScope: .filesUsingV4),
        APIMapping(
            "onSocket:didReadPartialDataOfLength:tag:", kind: .delegateMethod,
            swift: "onSocket(_:didReadPartialDataOfLength:tag:)",
            runLoopSocket: "onSocket(_:didReadPartialDataOfLength:tag:)",
            queueSocket: .api("socket(_:didReadPartialDataOfLength:tag:)"), scope: .anywhere,
            swiftScope: .filesUsingV4),
        APIMapping(
            "onSocket:didWriteDataWithTag:", kind: .delegateMethod, swift: "onSocket(_:didWriteDataWithTag:)",
            runLoopSocket: "onSocket(_:didWriteDataWithTag:)", queueSocket: .api("socket(_:didWriteDataWithTag:)"),
            scope: .anywhere, swiftScope: .filesUsingV4),
        APIMapping(
            "onSocket:didWritePartialDataOfLength:tag:", kind: .delegateMethod,
            swift: "onSocket(_:didWritePartialDataOfLength:tag:)",
            runLoopSocket: "onSocket(_:didWritePartialDataOfLength:tag:)",
            queueSocket: .api("socket(_:didWritePartialDataOfLength:tag:)"), scope: .anywhere,
            swiftScope: .filesUsingV4),
        APIMapping(
            "onSocket:shouldTimeoutReadWithTag:elapsed:bytesDone:", kind: .delegateMethod,
            swift: "onSocket(_:shouldTimeoutReadWithTag:elapsed:bytesDone:)",
            runLoopSocket: "onSocket(_:shouldTimeoutReadWithTag:elapsed:bytesDone:)",
            queueSocket: .api("socket(_:shouldTimeoutReadWithTag:elapsed:bytesDone:)"),
            note: "QueueSocket asks on the delegate queue while the read waits; the answer is applied on the socket "
                + "queue.",
            scope: .anywhere, swiftScope: .filesUsingV4),
        APIMapping(
            "onSocket:shouldTimeoutWriteWithTag:elapsed:bytesDone:", kind: .delegateMethod,
            swift: "onSocket(_:shouldTimeoutWriteWithTag:elapsed:bytesDone:)",
            runLoopSocket: "onSocket(_:shouldTimeoutWriteWithTag:elapsed:bytesDone:)",
            queueSocket: .api("socket(_:shouldTimeoutWriteWithTag:elapsed:bytesDone:)"),
            note: "QueueSocket asks on the delegate queue while the write waits; the answer is applied on the "
                + "socket queue.",
            scope: .anywhere, swiftScope: .filesUsingV4),
        APIMapping(
            "onSocketDidSecure:", kind: .delegateMethod, swift: "onSocketDidSecure(_:)",
            runLoopSocket: "onSocketDidSecure(_:)", queueSocket: .api("socketDidSecure(_:)"), scope: .anywhere,
            swiftScope: .filesUsingV4),
        APIMapping(
            "onSocket:didSecure:", kind: .delegateMethod, swift: "onSocket(_:didSecure:)",
            runLoopSocket: "onSocketDidSecure(_:)", queueSocket: .api("socketDidSecure(_:)"),
            note: "The older spelling of `onSocketDidSecure:` (many published apps still implement it): "
                + "RunLoopSocket calls only `onSocketDidSecure(_:)`, so rename the method or it is never called.",
            scope: .anywhere),
    ]
}
