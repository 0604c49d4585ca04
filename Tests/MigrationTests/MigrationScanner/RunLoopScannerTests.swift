import AsyncSocketKit
import MigrationScanner
import Testing

@Suite("migrate-scan: run-loop calls and CoreFoundation networking around the sockets")
struct RunLoopScannerTests {
    let scanner = APIScanner()

    /// `(line, found, replacement)` of each finding.
    private func replacements(_ source: String, _ language: SourceLanguage) -> [String] {
        scanner.scan(source, language: language).map { "\($0.line) \($0.found) → \($0.mapping.runLoopSocket)" }
    }

    let client = """
        #import "AsyncSocket.h"
        @implementation Client
        - (void)start {
            [[NSRunLoop currentRunLoop] runMode:NSDefaultRunLoopMode beforeDate:[NSDate distantFuture]];
            [[NSRunLoop currentRunLoop] runUntilDate:[NSDate dateWithTimeIntervalSinceNow:1]];
            [[NSRunLoop currentRunLoop] run];
            CFRunLoopRun();
            CFRunLoopRunInMode(kCFRunLoopDefaultMode, 1.0, false);
            [self performSelector:@selector(tick) withObject:nil afterDelay:1.0 inModes:@[NSRunLoopCommonModes]];
            [self performSelector:@selector(tick) withObject:nil afterDelay:0.5];
            [NSObject cancelPreviousPerformRequestsWithTarget:self];
            [NSObject cancelPreviousPerformRequestsWithTarget:self selector:@selector(tick) object:nil];
            [self performSelector:@selector(tick) onThread:worker withObject:nil waitUntilDone:NO];
            [self performSelectorOnMainThread:@selector(tick) withObject:nil waitUntilDone:NO];
            NSTimer *t = [NSTimer scheduledTimerWithTimeInterval:5 target:self selector:@selector(tick)
                                                        userInfo:nil repeats:YES];
            NSTimer *u = [NSTimer timerWithTimeInterval:5 target:self selector:@selector(tick) userInfo:nil repeats:NO];
            [[NSRunLoop mainRunLoop] addTimer:u forMode:NSModalPanelRunLoopMode];
            [sock setRunLoopModes:@[NSRunLoopCommonModes, NSEventTrackingRunLoopMode]];
            [worker run];
        }
        @end
        """

    @Test("each run-loop call, on its line, with its EventRunLoop replacement")
    func objectiveCRunLoopCalls() {
        let found = replacements(client, .objectiveC).filter { !$0.contains("NSRunLoop →") }
        #expect(
            found == [
                "1 AsyncSocket.h → import AsyncSocketKit",
                "4 runMode:beforeDate: → EventRunLoop.current.run(mode:before:)",
                "4 NSDefaultRunLoopMode → RunLoopMode.default",
                "5 runUntilDate: → EventRunLoop.current.run(until:)",
                "6 run → EventRunLoop.current.run()",
                "7 CFRunLoopRun → EventRunLoop.current.run()",
                "8 CFRunLoopRunInMode → EventRunLoop.current.run(mode:timeout:)",
                "8 kCFRunLoopDefaultMode → RunLoopMode.default",
                "9 performSelector:withObject:afterDelay:inModes: → EventRunLoop.current.addTimer(after:modes:_:)",
                "9 NSRunLoopCommonModes → RunLoopMode.common",
                "10 performSelector:withObject:afterDelay: → EventRunLoop.current.addTimer(after:modes:_:)",
                "11 cancelPreviousPerformRequestsWithTarget: → timer.invalidate()",
                "12 cancelPreviousPerformRequestsWithTarget:selector:object: → timer.invalidate()",
                "13 performSelector:onThread:withObject:waitUntilDone: → loop.perform(inModes:_:)",
                "14 performSelectorOnMainThread:withObject:waitUntilDone: → EventRunLoop.main.perform(inModes:_:)",
                "15 scheduledTimerWithTimeInterval:target:selector:userInfo:repeats: → "
                    + "EventRunLoop.current.addTimer(after:repeating:modes:_:)",
                "17 timerWithTimeInterval:target:selector:userInfo:repeats: → "
                    + "EventRunLoop.current.addTimer(after:repeating:modes:_:)",
                "18 addTimer:forMode: → EventRunLoop.current.addTimer(after:repeating:modes:_:)",
                "18 NSModalPanelRunLoopMode → RunLoopMode.modalPanel",
                "19 setRunLoopModes: → setRunLoopModes(_:)",
                "19 NSRunLoopCommonModes → RunLoopMode.common",
                "19 NSEventTrackingRunLoopMode → RunLoopMode.eventTracking",
            ])
        // `[worker run]` (line 20): `run` counts only on a receiver known to be a run loop.
        #expect(!scanner.scan(client, language: .objectiveC).contains { $0.line == 20 })
    }

    @Test("notes: timers never fire inside EventRunLoop.run(); keep the RunLoopTimer; runUntilDate runs on")
    func notes() throws {
        let findings = scanner.scan(client, language: .objectiveC)
        let timer = try #require(findings.first { $0.found.hasPrefix("scheduledTimerWithTimeInterval") })
        #expect(timer.mapping.note?.contains("Foundation's `Timer` never fires while a thread sits in") == true)
        #expect(timer.mapping.support == .standIn)
        let delayed = try #require(findings.first { $0.found == "performSelector:withObject:afterDelay:" })
        #expect(delayed.mapping.note?.contains("keep it to cancel with `invalidate()`") == true)
        let until = try #require(findings.first { $0.found == "runUntilDate:" })
        #expect(until.mapping.note?.contains("even when the mode is empty") == true)
        #expect(findings.allSatisfy { !$0.mapping.support.isProblem })
        let line = FindingText.line(try #require(findings.first { $0.found == "run" }))
        #expect(line.hasPrefix("<input>:6:33: run → EventRunLoop.current.run() | QueueSocket: none — delete the call"))
    }

    @Test("run-loop calls count only in files that use a legacy socket class")
    func scope() {
        let plain = """
            [[NSRunLoop currentRunLoop] runMode:NSDefaultRunLoopMode beforeDate:date];
            [self performSelector:@selector(tick) withObject:nil afterDelay:0.5];
            """
        #expect(scanner.scan(plain, language: .objectiveC).isEmpty)
        // GCDAsyncSocket, NSRunLoop, runMode:beforeDate:, NSDefaultRunLoopMode, performSelector:…
        #expect(scanner.scan("@class GCDAsyncSocket;\n" + plain, language: .objectiveC).count == 5)
    }

    @Test(
        "Swift: RunLoop.current.run(), run(mode:before:), run(until:), perform(_:with:afterDelay:), Timer (also with a trailing closure)"
    )
    func swiftRunLoopCalls() {
        let source = """
            let socket = AsyncSocket(delegate: nil)
            RunLoop.current.run(mode: .default, before: .distantFuture)
            RunLoop.current.run(until: Date() + 1)
            RunLoop.main.run()
            perform(#selector(tick), with: nil, afterDelay: 0.5)
            let timer = Timer.scheduledTimer(withTimeInterval: 5, repeats: true) { _ in }
            RunLoop.current.add(timer, forMode: .common)
            process.run()
            let other = Timer.scheduledTimer(withTimeInterval: 5, repeats: true, block: { _ in })
            """
        #expect(
            replacements(source, .swift).filter { !$0.contains("RunLoop → EventRunLoop") } == [
                "1 AsyncSocket(delegate:) → RunLoopSocket(delegate:)",
                "2 run(mode:before:) → EventRunLoop.current.run(mode:before:)",
                "3 run(until:) → EventRunLoop.current.run(until:)",
                "4 run() → EventRunLoop.current.run()",
                "5 perform(_:with:afterDelay:) → EventRunLoop.current.addTimer(after:modes:_:)",
                "6 scheduledTimer(withTimeInterval:repeats:block:) → "
                    + "EventRunLoop.current.addTimer(after:repeating:modes:_:)",
                "7 add(_:forMode:) → EventRunLoop.current.addTimer(after:repeating:modes:_:)",
                "9 scheduledTimer(withTimeInterval:repeats:block:) → "
                    + "EventRunLoop.current.addTimer(after:repeating:modes:_:)",
            ])
    }

    @Test("CoreFoundation networking: CFHost → HostResolver, interfaces → NetworkInterface, CFSocket/CFStream: none")
    func coreFoundationNetworking() throws {
        let source = """
            CFHostRef host = CFHostCreateWithName(kCFAllocatorDefault, (CFStringRef)name);
            CFHostScheduleWithRunLoop(host, CFRunLoopGetCurrent(), kCFRunLoopDefaultMode);
            CFHostStartInfoResolution(host, kCFHostAddresses, NULL);
            CFArrayRef addresses = CFHostGetAddressing(host, &resolved);
            CFSocketRef s = CFSocketCreate(NULL, PF_INET, SOCK_STREAM, IPPROTO_TCP, 0, NULL, NULL);
            CFReadStreamScheduleWithRunLoop(readStream, CFRunLoopGetCurrent(), kCFRunLoopCommonModes);
            CFWriteStreamScheduleWithRunLoop(writeStream, CFRunLoopGetCurrent(), kCFRunLoopCommonModes);
            NSArray *all = (__bridge NSArray *)SCNetworkInterfaceCopyAll();
            """
        let findings = scanner.scan(source, language: .objectiveC)
        #expect(
            findings.map { "\($0.line) \($0.found)" } == [
                "1 CFHostRef", "1 CFHostCreateWithName", "2 CFHostScheduleWithRunLoop", "3 CFHostStartInfoResolution",
                "4 CFHostGetAddressing", "5 CFSocketRef", "5 CFSocketCreate", "6 CFReadStreamScheduleWithRunLoop",
                "7 CFWriteStreamScheduleWithRunLoop", "8 SCNetworkInterfaceCopyAll",
            ])
        let lookup = "HostResolver.system.lookup(_:port:on:modes:completion:)"
        #expect(findings.filter { $0.found.hasPrefix("CFHost") }.allSatisfy { $0.mapping.runLoopSocket == lookup })
        #expect(findings.filter { $0.found.hasPrefix("CFHost") }.allSatisfy { $0.mapping.support == .standIn })
        let cfSocket = try #require(findings.first { $0.found == "CFSocketCreate" })
        #expect(cfSocket.mapping.support == .unsupported)
        #expect(cfSocket.mapping.note?.contains("use a `RunLoopSocket`") == true)
        #expect(cfSocket.mapping.note?.contains("`EventRunLoop.addFileSource`") == true)
        let scheduling = try #require(findings.first { $0.found == "CFWriteStreamScheduleWithRunLoop" })
        #expect(scheduling.mapping.v4 == "CFReadStreamScheduleWithRunLoop")
        #expect(scheduling.mapping.support == .unsupported)
        let interfaces = try #require(findings.last)
        #expect(interfaces.mapping.runLoopSocket == "NetworkInterface.all()")
        #expect(interfaces.mapping.note?.contains("connectToAddress(_:viaInterfaceAddress:withTimeout:)") == true)
        let getifaddrs = scanner.scan("#import \"AsyncSocket.h\"\ngetifaddrs(&list);", language: .objectiveC)
        #expect(getifaddrs.last?.mapping.runLoopSocket == "NetworkInterface.all()")
    }

    @Test("RunLoopMode.modalPanel and .eventTracking keep CoreFoundation's names")
    func modeNames() {
        #expect(RunLoopMode.modalPanel.rawValue == "NSModalPanelRunLoopMode")
        #expect(RunLoopMode.eventTracking.rawValue == "NSEventTrackingRunLoopMode")
        #expect(RunLoopMode.modalPanel != .default && RunLoopMode.eventTracking != .common)
        #expect(RunLoopMode("NSModalPanelRunLoopMode") == .modalPanel)
    }
}
