extension APICatalog {
    /// Foundation's run-loop calls that v4 code made around its sockets: running the loop, delayed and
    /// cross-thread performs, timers and the mode names, each with its `EventRunLoop` replacement.
    static let runLoopCalls: [APIMapping] = [
        runLoop(
            "run", swift: "run()", "EventRunLoop.current.run()",
            note: "Runs until `stop()`. " + RunLoopNotes.foundationTimers, scope: .knownReceiver,
            swiftScope: .knownReceiver),
        runLoop(
            "runMode:beforeDate:", swift: "run(mode:before:)", "EventRunLoop.current.run(mode:before:)",
            note: "Or `run(mode:timeout:)`. Returns `false` at once when the mode has nothing to service, like "
                + "Foundation."),
        runLoop(
            "runUntilDate:", swift: "run(until:)", "EventRunLoop.current.run(until:)",
            note: "Runs until the date even when the mode is empty at times, like Foundation."),
        runLoop(
            "performSelector:withObject:afterDelay:", swift: "perform(_:with:afterDelay:)",
            "EventRunLoop.current.addTimer(after:modes:_:)", note: RunLoopNotes.keepTimer),
        runLoop(
            "performSelector:withObject:afterDelay:inModes:", swift: "perform(_:with:afterDelay:inModes:)",
            "EventRunLoop.current.addTimer(after:modes:_:)", note: RunLoopNotes.keepTimer),
        runLoop(
            "cancelPreviousPerformRequestsWithTarget:", swift: "cancelPreviousPerformRequests(withTarget:)",
            "timer.invalidate()", note: RunLoopNotes.cancel),
        runLoop(
            "cancelPreviousPerformRequestsWithTarget:selector:object:",
            swift: "cancelPreviousPerformRequests(withTarget:selector:object:)", "timer.invalidate()",
            note: RunLoopNotes.cancel),
        runLoop(
            "performSelector:onThread:withObject:waitUntilDone:", swift: "perform(_:on:with:waitUntilDone:)",
            "loop.perform(inModes:_:)", note: RunLoopNotes.performOnThread),
        runLoop(
            "performSelector:onThread:withObject:waitUntilDone:modes:",
            swift: "perform(_:on:with:waitUntilDone:modes:)", "loop.perform(inModes:_:)",
            note: RunLoopNotes.performOnThread),
        runLoop(
            "performSelectorOnMainThread:withObject:waitUntilDone:",
            swift: "performSelector(onMainThread:with:waitUntilDone:)", "EventRunLoop.main.perform(inModes:_:)",
            note: RunLoopNotes.performOnMain),
        runLoop(
            "performSelectorOnMainThread:withObject:waitUntilDone:modes:",
            swift: "performSelector(onMainThread:with:waitUntilDone:modes:)", "EventRunLoop.main.perform(inModes:_:)",
            note: RunLoopNotes.performOnMain),
        runLoop(
            "performSelector:target:argument:order:modes:", swift: "perform(_:target:argument:order:modes:)",
            "loop.perform(inModes:_:)", note: RunLoopNotes.performOnThread),
        runLoop(
            "performInModes:block:", swift: "perform(inModes:block:)", "loop.perform(inModes:_:)",
            note: RunLoopNotes.performOnThread),
        runLoop(
            "scheduledTimerWithTimeInterval:target:selector:userInfo:repeats:",
            swift: "scheduledTimer(timeInterval:target:selector:userInfo:repeats:)",
            "EventRunLoop.current.addTimer(after:repeating:modes:_:)", note: RunLoopNotes.timer),
        runLoop(
            "scheduledTimerWithTimeInterval:invocation:repeats:",
            swift: "scheduledTimer(timeInterval:invocation:repeats:)",
            "EventRunLoop.current.addTimer(after:repeating:modes:_:)", note: RunLoopNotes.timer),
        runLoop(
            "scheduledTimerWithTimeInterval:repeats:block:", swift: "scheduledTimer(withTimeInterval:repeats:block:)",
            "EventRunLoop.current.addTimer(after:repeating:modes:_:)", note: RunLoopNotes.timer),
        runLoop(
            "timerWithTimeInterval:target:selector:userInfo:repeats:",
            swift: "Timer(timeInterval:target:selector:userInfo:repeats:)",
            "EventRunLoop.current.addTimer(after:repeating:modes:_:)", note: RunLoopNotes.timer),
        runLoop(
            "timerWithTimeInterval:invocation:repeats:", swift: "Timer(timeInterval:invocation:repeats:)",
            "EventRunLoop.current.addTimer(after:repeating:modes:_:)", note: RunLoopNotes.timer),
        runLoop(
            "timerWithTimeInterval:repeats:block:", swift: "Timer(timeInterval:repeats:block:)",
            "EventRunLoop.current.addTimer(after:repeating:modes:_:)", note: RunLoopNotes.timer),
        runLoop(
            "addTimer:forMode:", swift: "add(_:forMode:)", "EventRunLoop.current.addTimer(after:repeating:modes:_:)",
            note: "Create and schedule in one call: " + RunLoopNotes.timer),
        APIMapping(
            "CFRunLoopRun", kind: .platformSymbol, swift: "CFRunLoopRun", runLoopSocket: "EventRunLoop.current.run()",
            queueSocket: .none(instead: MigrationNotes.noRunLoop),
            note: "CoreFoundation's run loop cannot watch sockets on Linux. " + RunLoopNotes.foundationTimers,
            support: .standIn, scope: .filesUsingV4, api: .runLoop),
        APIMapping(
            "CFRunLoopRunInMode", kind: .platformSymbol, swift: "CFRunLoopRunInMode",
            runLoopSocket: "EventRunLoop.current.run(mode:timeout:)",
            queueSocket: .none(instead: MigrationNotes.noRunLoop),
            note: "Or `run(mode:before:)` with a date. CoreFoundation's run loop cannot watch sockets on Linux.",
            support: .standIn, scope: .filesUsingV4, api: .runLoop),
        APIMapping(
            "NSModalPanelRunLoopMode", kind: .platformSymbol, swift: nil, runLoopSocket: "RunLoopMode.modalPanel",
            queueSocket: .none(instead: MigrationNotes.noRunLoop), note: MigrationNotes.modeNames, support: .standIn,
            scope: .filesUsingV4, api: .runLoop),
        APIMapping(
            "NSEventTrackingRunLoopMode", kind: .platformSymbol, swift: nil, runLoopSocket: "RunLoopMode.eventTracking",
            queueSocket: .none(instead: MigrationNotes.noRunLoop), note: MigrationNotes.modeNames, support: .standIn,
            scope: .filesUsingV4, api: .runLoop),
    ]

    /// CoreFoundation and SystemConfiguration networking that has no Linux counterpart.
    static let coreFoundationNetworking: [APIMapping] = [
        cfNetworking(
            "CFHostCreateWithName", "HostResolver.system.lookup(_:port:on:modes:completion:)",
            note: RunLoopNotes.hostResolver, aliases: ["CFHostRef", "CFHostCreateCopy"]),
        cfNetworking(
            "CFHostStartInfoResolution", "HostResolver.system.lookup(_:port:on:modes:completion:)",
            note: RunLoopNotes.hostResolver, aliases: ["CFHostCancelInfoResolution", "CFHostSetClient"]),
        cfNetworking(
            "CFHostScheduleWithRunLoop", "HostResolver.system.lookup(_:port:on:modes:completion:)",
            note: "The lookup takes the `EventRunLoop` and modes its answer arrives in. " + RunLoopNotes.hostResolver,
            aliases: ["CFHostUnscheduleFromRunLoop"]),
        cfNetworking(
            "CFHostGetAddressing", "HostResolver.system.lookup(_:port:on:modes:completion:)",
            note: "The completion gets the addresses as `sockaddr` `Data`, ready for `connectToAddress(_:)`.",
            aliases: ["CFHostGetNames", "CFHostGetReachability"]),
        cfNetworking(
            "SCNetworkInterfaceCopyAll", "NetworkInterface.all()",
            note: "Each interface's name, family, address and flags; pass an address to "
                + "`connectToAddress(_:viaInterfaceAddress:withTimeout:)`.",
            aliases: [
                "SCNetworkInterfaceRef", "SCNetworkInterfaceGetBSDName", "SCNetworkInterfaceGetInterfaceType",
                "SCNetworkInterfaceGetLocalizedDisplayName",
            ]),
        APIMapping(
            "getifaddrs", kind: .platformSymbol, swift: "getifaddrs", runLoopSocket: "NetworkInterface.all()",
            queueSocket: .api("NetworkInterface.all()"),
            note: "Works on Linux too; `NetworkInterface.all()` gives name, family, address and flags without the "
                + "linked list, for `connectToAddress(_:viaInterfaceAddress:withTimeout:)`.",
            scope: .filesUsingV4, aliases: ["freeifaddrs"]),
        APIMapping(
            "CFSocketCreate", kind: .platformSymbol, swift: "CFSocketCreate", runLoopSocket: "RunLoopSocket",
            queueSocket: .api("QueueSocket"), note: RunLoopNotes.noCFSocket, support: .unsupported, scope: .anywhere,
            aliases: [
                "CFSocketRef", "CFSocketCreateWithNative", "CFSocketCreateWithSocketSignature",
                "CFSocketCreateConnectedToSocketSignature", "CFSocketCreateRunLoopSource", "CFSocketConnectToAddress",
                "CFSocketSetAddress", "CFSocketSendData", "CFSocketInvalidate", "CFSocketEnableCallBacks",
                "CFSocketDisableCallBacks", "CFSocketSetSocketFlags", "CFSocketGetSocketFlags", "CFSocketCopyAddress",
                "CFSocketCopyPeerAddress", "CFSocketIsValid", "CFSocketContext",
            ]),
        APIMapping(
            "CFReadStreamScheduleWithRunLoop", kind: .platformSymbol, swift: "CFReadStreamScheduleWithRunLoop",
            runLoopSocket: "RunLoopSocket", queueSocket: .api("QueueSocket"), note: RunLoopNotes.noCFStream,
            support: .unsupported, scope: .anywhere,
            aliases: [
                "CFWriteStreamScheduleWithRunLoop", "CFReadStreamUnscheduleFromRunLoop",
                "CFWriteStreamUnscheduleFromRunLoop", "CFReadStreamSetClient", "CFWriteStreamSetClient",
                "CFReadStreamSetDispatchQueue", "CFWriteStreamSetDispatchQueue",
            ]),
        APIMapping(
            "CFStreamCreatePairWithSocketToHost", kind: .platformSymbol, swift: "CFStreamCreatePairWithSocketToHost",
            runLoopSocket: "RunLoopSocket", queueSocket: .api("QueueSocket"), note: RunLoopNotes.noCFStream,
            support: .unsupported, scope: .anywhere,
            aliases: [
                "CFStreamCreatePairWithSocket", "CFStreamCreatePairWithPeerSocketSignature", "CFReadStreamOpen",
                "CFWriteStreamOpen", "CFReadStreamRead", "CFWriteStreamWrite", "CFReadStreamClose",
                "CFWriteStreamClose", "CFReadStreamRef", "CFWriteStreamRef",
            ]),
        APIMapping(
            "scheduleInRunLoop:forMode:", kind: .platformMethod, swift: "schedule(in:forMode:)", runLoopSocket: "none",
            queueSocket: .none(instead: "a `QueueSocket`, whose callbacks arrive on its delegate queue"),
            note: "`NSStream` scheduling: streams cannot be scheduled on an `EventRunLoop`; use a `RunLoopSocket` (or "
                + "`EventRunLoop.addFileSource` for a raw descriptor).",
            support: .unsupported, scope: .filesUsingV4, aliases: ["removeFromRunLoop:forMode:"], api: .runLoop),
    ]

    /// The notes the run-loop entries share.
    enum RunLoopNotes {
        static let foundationTimers =
            "Foundation's `Timer` never fires while a thread sits in `EventRunLoop.run()`: use "
            + "`EventRunLoop.current.addTimer(after:repeating:modes:_:)`."
        static let keepTimer =
            "Returns a `RunLoopTimer`: keep it to cancel with `invalidate()` (what "
            + "`cancelPreviousPerformRequestsWithTarget:` did)."
        static let cancel =
            "Call `invalidate()` on the `RunLoopTimer` that `addTimer(after:modes:_:)` returned (keep it where the "
            + "perform was made)."
        static let performOnThread =
            "Call `perform(inModes:_:)` on the target thread's `EventRunLoop` (`EventRunLoopThread`'s `loop` for a "
            + "worker thread); the block runs there on a later pass in one of the modes."
        static let performOnMain =
            "`EventRunLoop.main` is the main thread's loop; the block runs there on a later pass in one of the modes."
        static let timer =
            "Foundation's `Timer` never fires while a thread sits in `EventRunLoop.run()`: "
            + "`addTimer(after:repeating:modes:_:)` returns a `RunLoopTimer` (keep it to `invalidate()`)."
        static let hostResolver =
            "CFHost does not exist on Linux: `HostResolver.system.lookup(_:port:on:modes:completion:)` answers on an "
            + "`EventRunLoop` in its modes, with the addresses as `sockaddr` `Data` for `connectToAddress(_:)`."
        static let noCFSocket =
            "CFSocket does not exist on Linux and has no counterpart: use a `RunLoopSocket` (or "
            + "`EventRunLoop.addFileSource` for a raw descriptor)."
        static let noCFStream =
            "CFStream scheduling does not exist on Linux and has no counterpart: use a `RunLoopSocket` (or "
            + "`EventRunLoop.addFileSource` for a raw descriptor)."
    }

    private static func runLoop(
        _ selector: String, swift: String, _ replacement: String, note: String,
        scope: MatchScope = .filesUsingV4, swiftScope: MatchScope = .filesUsingV4
    ) -> APIMapping {
        APIMapping(
            selector, kind: .platformMethod, swift: swift, runLoopSocket: replacement,
            queueSocket: .none(instead: MigrationNotes.noRunLoop), note: note, support: .standIn, scope: scope,
            swiftScope: swiftScope, api: .runLoop)
    }

    private static func cfNetworking(_ name: String, _ replacement: String, note: String, aliases: [String])
        -> APIMapping
    {
        APIMapping(
            name, kind: .platformSymbol, swift: name, runLoopSocket: replacement, queueSocket: .api(replacement),
            note: note, support: .standIn, scope: .anywhere, aliases: aliases)
    }
}
