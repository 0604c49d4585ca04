extension APICatalog {
    /// The global constants and the `AsyncSocketError` values (final numbering). Swift imported the
    /// values as members of the `AsyncSocketError` enum (`.readTimeoutError`).
    static let constants: [APIMapping] = [
        APIMapping(
            "AsyncSocketException", kind: .constant, swift: "AsyncSocketException",
            runLoopSocket: "AsyncSocketUsageError",
            queueSocket: .api("QueueSocketError.Code.badConfig"),
            note: "Nothing is raised: connect and accept throw `AsyncSocketUsageError` (no delegate, not "
                + "disconnected); a call on the wrong thread stops the program with a message naming both threads.",
            scope: .anywhere),
        APIMapping(
            "AsyncSocketErrorDomain", kind: .constant, swift: "AsyncSocketErrorDomain",
            runLoopSocket: "AsyncSocketError.errorDomain", queueSocket: .api("QueueSocketError.errorDomain"),
            note: "The same string; QueueSocket's errors are in \"GCDAsyncSocketErrorDomain\" with GCD's 0–8 "
                + "numbering.",
            scope: .anywhere),
        APIMapping(
            "AsyncSocketCFSocketError", kind: .errorCode, swift: "cfSocketError",
            runLoopSocket: "AsyncSocketError.Code.socketError",
            queueSocket: .none(
                instead: "POSIX errors arrive in `NSPOSIXErrorDomain`, others as `QueueSocketError.other`"),
            note: "−1, as before; the POSIX error behind it (a busy port, a refused connect) is `underlying`.",
            scope: .anywhere),
        APIMapping(
            "AsyncSocketNoError", kind: .errorCode, swift: "noError", runLoopSocket: "AsyncSocketError.Code.noError",
            queueSocket: .api("QueueSocketError.Code.noError"), scope: .anywhere, swiftScope: .filesUsingV4),
        APIMapping(
            "AsyncSocketCanceledError", kind: .errorCode, swift: "canceledError",
            runLoopSocket: "AsyncSocketError.Code.canceled",
            queueSocket: .none(instead: "QueueSocket has no connect veto (see `onSocketWillConnect:`)"),
            scope: .anywhere),
        APIMapping(
            "AsyncSocketConnectTimeoutError", kind: .errorCode, swift: "connectTimeoutError",
            runLoopSocket: "AsyncSocketError.Code.connectTimeout",
            queueSocket: .api("QueueSocketError.Code.connectTimeout"),
            note: "2, as before; 3 on QueueSocket.", scope: .anywhere),
        APIMapping(
            "AsyncSocketReadMaxedOutError", kind: .errorCode, swift: "readMaxedOutError",
            runLoopSocket: "AsyncSocketError.Code.readMaxedOut",
            queueSocket: .api("QueueSocketError.Code.readMaxedOut"),
            note: "3, as before; 6 on QueueSocket.", scope: .anywhere),
        APIMapping(
            "AsyncSocketReadTimeoutError", kind: .errorCode, swift: "readTimeoutError",
            runLoopSocket: "AsyncSocketError.Code.readTimeout", queueSocket: .api("QueueSocketError.Code.readTimeout"),
            scope: .anywhere),
        APIMapping(
            "AsyncSocketWriteTimeoutError", kind: .errorCode, swift: "writeTimeoutError",
            runLoopSocket: "AsyncSocketError.Code.writeTimeout",
            queueSocket: .api("QueueSocketError.Code.writeTimeout"),
            scope: .anywhere),
    ]
}
