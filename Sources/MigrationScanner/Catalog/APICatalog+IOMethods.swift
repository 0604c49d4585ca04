extension APICatalog {
    /// Reading, writing, progress, TLS, prebuffering, unread data and the separators.
    static let ioMethods: [APIMapping] =
        reads + [
            APIMapping(
                "writeData:withTimeout:tag:", kind: .method, swift: "write(_:withTimeout:tag:)",
                runLoopSocket: "write(_:withTimeout:tag:)", queueSocket: .api("write(_:withTimeout:tag:)"),
                note: "SIGPIPE never kills the process (every send uses `MSG_NOSIGNAL`); a reset by the peer is an "
                    + "ordinary error close.",
                scope: .filesUsingV4),
            APIMapping(
                "progressOfReadReturningTag:bytesDone:total:", kind: .method,
                swift: "progressOfRead(returningTag:bytesDone:total:)",
                runLoopSocket: "progressOfRead(returningTag:bytesDone:total:)",
                queueSocket: .api("progressOfRead(returningTag:bytesDone:total:)"), note: MigrationNotes.progress,
                scope: .filesUsingV4),
            APIMapping(
                "progressOfWriteReturningTag:bytesDone:total:", kind: .method,
                swift: "progressOfWrite(returningTag:bytesDone:total:)",
                runLoopSocket: "progressOfWrite(returningTag:bytesDone:total:)",
                queueSocket: .api("progressOfWrite(returningTag:bytesDone:total:)"), note: MigrationNotes.progress,
                scope: .filesUsingV4),
            APIMapping(
                "startTLS:", kind: .method, swift: "startTLS(_:)", runLoopSocket: "startTLS(_:)",
                queueSocket: .api("startTLS(_:)"),
                note: "Host names are verified by default (`kCFStreamSSLPeerName`, else the host given to connect); an "
                    + "unknown key or a value of the wrong type closes the socket with error −1 naming the key. Typed "
                    + "settings: `startTLS(TLSSettings)`. QueueSocket ignores a second `startTLS`.",
                scope: .filesUsingV4),
            APIMapping(
                "enablePreBuffering", kind: .method, swift: "enablePreBuffering()",
                runLoopSocket: "enablePreBuffering()",
                queueSocket: .none(instead: "delete the call: QueueSocket always prebuffers"),
                note:
                    "Prebuffering is on by default; `RunLoopSocket(delegate:preBuffering: false)` turns it off for one "
                    + "socket.",
                scope: .anywhere, swiftScope: .filesUsingV4),
            APIMapping(
                "unreadData", kind: .method, swift: "unreadData()", runLoopSocket: "unreadData()",
                queueSocket: .none(
                    instead: "GCDAsyncSocket discards unread bytes: keep a read queued to receive what the peer sends "
                        + "last"),
                note:
                    "Answers only inside `onSocket(_:willDisconnectWithError:)`, as before; after a clean close by the "
                    + "peer it holds the bytes the peer sent last. Copy it: it is gone after the close.",
                scope: .anywhere, swiftScope: .filesUsingV4),
            APIMapping(
                "CRLFData", kind: .method, swift: "crlfData()", runLoopSocket: "RunLoopSocket.crlfData",
                queueSocket: .api("QueueSocket.crlfData"), scope: .filesUsingV4),
            APIMapping(
                "CRData", kind: .method, swift: "crData()", runLoopSocket: "RunLoopSocket.crData",
                queueSocket: .api("QueueSocket.crData"), scope: .filesUsingV4),
            APIMapping(
                "LFData", kind: .method, swift: "lfData()", runLoopSocket: "RunLoopSocket.lfData",
                queueSocket: .api("QueueSocket.lfData"), scope: .filesUsingV4),
            APIMapping(
                "ZeroData", kind: .method, swift: "zeroData()", runLoopSocket: "RunLoopSocket.zeroData",
                queueSocket: .api("QueueSocket.zeroData"), scope: .filesUsingV4),
        ]

    private static let reads: [APIMapping] = [
        APIMapping(
            "readDataWithTimeout:tag:", kind: .method, swift: "readData(withTimeout:tag:)",
            runLoopSocket: "readData(withTimeout:tag:)", queueSocket: .api("readData(withTimeout:tag:)"),
            scope: .filesUsingV4),
        APIMapping(
            "readDataWithTimeout:buffer:bufferOffset:tag:", kind: .method,
            swift: "readData(withTimeout:buffer:bufferOffset:tag:)",
            runLoopSocket: "readData(withTimeout:buffer:bufferOffset:tag:)",
            queueSocket: .api("readData(withTimeout:buffer:bufferOffset:tag:)"), scope: .filesUsingV4),
        APIMapping(
            "readDataWithTimeout:buffer:bufferOffset:maxLength:tag:", kind: .method,
            swift: "readData(withTimeout:buffer:bufferOffset:maxLength:tag:)",
            runLoopSocket: "readData(withTimeout:buffer:bufferOffset:maxLength:tag:)",
            queueSocket: .api("readData(withTimeout:buffer:bufferOffset:maxLength:tag:)"), scope: .filesUsingV4),
        APIMapping(
            "readDataToLength:withTimeout:tag:", kind: .method, swift: "readData(toLength:withTimeout:tag:)",
            runLoopSocket: "readData(toLength:withTimeout:tag:)",
            queueSocket: .api("readData(toLength:withTimeout:tag:)"),
            scope: .filesUsingV4),
        APIMapping(
            "readDataToLength:withTimeout:buffer:bufferOffset:tag:", kind: .method,
            swift: "readData(toLength:withTimeout:buffer:bufferOffset:tag:)",
            runLoopSocket: "readData(toLength:withTimeout:buffer:bufferOffset:tag:)",
            queueSocket: .api("readData(toLength:withTimeout:buffer:bufferOffset:tag:)"), scope: .filesUsingV4),
        APIMapping(
            "readDataToData:withTimeout:tag:", kind: .method, swift: "readData(to:withTimeout:tag:)",
            runLoopSocket: "readData(to:withTimeout:tag:)", queueSocket: .api("readData(to:withTimeout:tag:)"),
            note: MigrationNotes.prebufferChunks, scope: .filesUsingV4),
        APIMapping(
            "readDataToData:withTimeout:buffer:bufferOffset:tag:", kind: .method,
            swift: "readData(to:withTimeout:buffer:bufferOffset:tag:)",
            runLoopSocket: "readData(to:withTimeout:buffer:bufferOffset:tag:)",
            queueSocket: .api("readData(to:withTimeout:buffer:bufferOffset:tag:)"),
            note: MigrationNotes.prebufferChunks, scope: .filesUsingV4),
        APIMapping(
            "readDataToData:withTimeout:maxLength:tag:", kind: .method,
            swift: "readData(to:withTimeout:maxLength:tag:)", runLoopSocket: "readData(to:withTimeout:maxLength:tag:)",
            queueSocket: .api("readData(to:withTimeout:maxLength:tag:)"), note: MigrationNotes.maxLength,
            scope: .filesUsingV4),
        APIMapping(
            "readDataToData:withTimeout:buffer:bufferOffset:maxLength:tag:", kind: .method,
            swift: "readData(to:withTimeout:buffer:bufferOffset:maxLength:tag:)",
            runLoopSocket: "readData(to:withTimeout:buffer:bufferOffset:maxLength:tag:)",
            queueSocket: .api("readData(to:withTimeout:buffer:bufferOffset:maxLength:tag:)"),
            note: MigrationNotes.maxLength, scope: .filesUsingV4),
    ]

    /// Run loops and modes.
    static let runLoopMethods: [APIMapping] = [
        APIMapping(
            "moveToRunLoop:", kind: .method, swift: "move(to:)", runLoopSocket: "moveToRunLoop(_:)",
            queueSocket: .none(instead: MigrationNotes.noRunLoop),
            note: "Takes an `EventRunLoop`; the connect timer moves too (the original left it behind).",
            scope: .anywhere, swiftScope: .filesUsingV4),
        APIMapping(
            "setRunLoopModes:", kind: .method, swift: "setRunLoopModes(_:)", runLoopSocket: "setRunLoopModes(_:)",
            queueSocket: .none(instead: MigrationNotes.noRunLoop),
            note: MigrationNotes.modes + " The connect timer follows mode changes too.", scope: .anywhere,
            swiftScope: .filesUsingV4),
        APIMapping(
            "addRunLoopMode:", kind: .method, swift: "addRunLoopMode(_:)", runLoopSocket: "addRunLoopMode(_:)",
            queueSocket: .none(instead: MigrationNotes.noRunLoop), note: MigrationNotes.modes, scope: .anywhere,
            swiftScope: .filesUsingV4),
        APIMapping(
            "removeRunLoopMode:", kind: .method, swift: "removeRunLoopMode(_:)", runLoopSocket: "removeRunLoopMode(_:)",
            queueSocket: .none(instead: MigrationNotes.noRunLoop),
            note: "Really removes the mode: the socket is no longer serviced there (the original kept its streams "
                + "scheduled in it). For the old behavior, do not remove the mode.",
            scope: .anywhere, swiftScope: .filesUsingV4),
        APIMapping(
            "runLoopModes", kind: .method, swift: "runLoopModes()", runLoopSocket: "runLoopModes",
            queueSocket: .none(instead: MigrationNotes.noRunLoop), note: MigrationNotes.modes, scope: .anywhere),
    ]
}
