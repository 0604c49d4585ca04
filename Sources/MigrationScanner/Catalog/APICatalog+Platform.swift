extension APICatalog {
    /// What v4-era code used around the socket: GCDAsyncSocket's iOS-only calls, CoreFoundation stream
    /// and socket functions, Security identities, and Foundation's run loop.
    static let platform: [APIMapping] = [
        APIMapping(
            "enableBackgroundingOnSocket", kind: .platformMethod, swift: "enableBackgroundingOnSocket()",
            runLoopSocket: "none", queueSocket: .none(instead: "delete the call"),
            note: "iOS VoIP backgrounding (CFStreams with the VoIP service type) has no meaning on Linux; detect a "
                + "silent peer with read and write timeouts.",
            support: .unsupported, scope: .anywhere),
        APIMapping(
            "readStream", kind: .platformMethod, swift: "readStream()", runLoopSocket: "none",
            queueSocket: .none(instead: "`socketFD` inside `perform(_:)` for socket options"),
            note: MigrationNotes.readStream, support: .unsupported, scope: .filesUsingV4),
        APIMapping(
            "writeStream", kind: .platformMethod, swift: "writeStream()", runLoopSocket: "none",
            queueSocket: .none(instead: "`socketFD` inside `perform(_:)` for socket options"),
            note: MigrationNotes.readStream, support: .unsupported, scope: .filesUsingV4),
        APIMapping(
            "CFReadStreamSetProperty", kind: .platformSymbol, swift: "CFReadStreamSetProperty", runLoopSocket: "none",
            queueSocket: .none(instead: "`setsockopt` on `socketFD` inside `perform(_:)`"),
            note: MigrationNotes.streamProperty, support: .unsupported, scope: .filesUsingV4,
            aliases: ["CFWriteStreamSetProperty"]),
        APIMapping(
            "CFSocketGetNative", kind: .platformSymbol, swift: "CFSocketGetNative", runLoopSocket: "socketFD",
            queueSocket: .api("socketFD"),
            note: "`socketFD` already is the native descriptor. " + MigrationNotes.queueDescriptor,
            support: .standIn, scope: .filesUsingV4),
        APIMapping(
            "SecIdentityRef", kind: .platformSymbol, swift: "SecIdentity", runLoopSocket: "TLSSettings.Identity",
            queueSocket: .api("TLSSettings.Identity"),
            note: "There is no Security framework on Linux: load the identity as `.pem(certificatePath:keyPath:"
                + "password:)` or `.pkcs12(_:password:)` and pass that in `kCFStreamSSLCertificates`.",
            support: .unsupported, scope: .anywhere),
        APIMapping(
            "SecPKCS12Import", kind: .platformSymbol, swift: "SecPKCS12Import",
            runLoopSocket: "TLSSettings.Identity.pkcs12(_:password:)",
            queueSocket: .api("TLSSettings.Identity.pkcs12(_:password:)"),
            note: "There is no Security framework on Linux: pass the PKCS#12 data itself; OpenSSL 3 reads archives "
                + "made with current algorithms (re-export RC2/3DES ones).",
            support: .unsupported, scope: .anywhere),
        APIMapping(
            "NSRunLoop", kind: .platformSymbol, swift: "RunLoop", runLoopSocket: "EventRunLoop",
            queueSocket: .none(instead: MigrationNotes.noRunLoop),
            note: "Foundation's run loop cannot watch sockets on Linux; `EventRunLoop.current` is this thread's loop "
                + "(`run()`, `run(mode:before:)`, `stop()`, timers, `perform`).",
            support: .standIn, scope: .filesUsingV4),
        APIMapping(
            "NSDefaultRunLoopMode", kind: .platformSymbol, swift: nil, runLoopSocket: "RunLoopMode.default",
            queueSocket: .none(instead: MigrationNotes.noRunLoop), note: MigrationNotes.modeNames, support: .standIn,
            scope: .filesUsingV4, aliases: ["kCFRunLoopDefaultMode"]),
        APIMapping(
            "NSRunLoopCommonModes", kind: .platformSymbol, swift: nil, runLoopSocket: "RunLoopMode.common",
            queueSocket: .none(instead: MigrationNotes.noRunLoop),
            note: MigrationNotes.modeNames
                + " It stands for the loop's common modes; `addCommonMode(_:)` extends them.",
            support: .standIn, scope: .filesUsingV4, aliases: ["kCFRunLoopCommonModes"]),
    ]
}
