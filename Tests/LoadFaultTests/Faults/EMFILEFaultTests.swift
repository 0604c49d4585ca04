import AsyncSocketKit
import Foundation
import SocketTestSupport
import Testing

// Each case runs in a child process (an exit test), whose descriptor limit it lowers and fills:
// a listener whose accept() fails with EMFILE must neither spin nor crash, must accept the waiting
// connections once descriptors are free again, and a connect that cannot get a socket must be a
// reported error. The child prints what went wrong to standard error.
@Suite("Faults: out of descriptors (EMFILE), in a child process")
struct EMFILEFaultTests {
    @Test("RunLoopSocket listener and connect", arguments: RunLoopSocket.Engine.allCases)
    func runLoopSocket(engine: RunLoopSocket.Engine) async {
        let result = await #expect(processExitsWith: .success, observing: [\.standardErrorContent]) {
            [engine = engine as RunLoopSocket.Engine] in
            let problems = try await onNewThread { EMFILEScenario.runLoopSocket(engine: engine) }
            EMFILEScenario.exit(reporting: problems)
        }
        Self.reportChildErrors(result)
    }

    @Test("QueueSocket listener and connect")
    func queueSocket() async {
        let result = await #expect(processExitsWith: .success, observing: [\.standardErrorContent]) {
            EMFILEScenario.exit(reporting: EMFILEScenario.queueSocket())
        }
        Self.reportChildErrors(result)
    }

    @Test("QueueSocket: a read timeout armed with no descriptor left fires, in a process with no timer before")
    func timeoutWithoutDescriptors() async throws {
        // A program of its own (Tests/Probes): the test runner's processes have armed timers already.
        try await onNewThread {
            let probe = try ChildProcess(built: "TimerWithoutDescriptorsProbe", [])
            #expect(probe.waitForExit(timeout: 30) == 0)
            #expect(probe.output.split(separator: "\n").last == "fired", "\(probe.output)")
        }
    }

    @Test(
        "QueueSocket: the first one made where a dispatch timer is already armed does not wait out the warm-up's 10 s bound, and its timeout fires with no descriptor left"
    )
    func firstSocketWithTimerArmed() async throws {
        try await onNewThread {
            let path = try ChildProcess.builtProduct("TimerWithoutDescriptorsProbe")
            let probe = try ChildProcess(path: "/usr/bin/env", ["PROBE_TIMER_ARMED_FIRST=1", path])
            #expect(probe.waitForExit(timeout: 30) == 0)
            #expect(try #require(Self.millisecondsToMake(probe.output), "\(probe.output)") < 5000, "\(probe.output)")
            #expect(probe.output.split(separator: "\n").last == "fired", "\(probe.output)")
        }
    }

    // The probe's own directory in /proc (so /proc/self) is hidden by an empty mount, not the whole
    // of /proc: libdispatch's workqueue monitor opens /proc/TID/stat of its worker threads once a
    // second while a global queue has work waiting, and ends the process (SIGILL) when it cannot
    // (swift-corelibs-libdispatch, `src/event/workqueue.c`, `_dispatch_workq_count_runnable_workers`);
    // with all of /proc hidden, 4 of 60 runs on a loaded machine died of it. The threads' own
    // entries stay visible this way.
    // Not under a sanitizer: their runtimes read /proc/self themselves (AddressSanitizer its options,
    // so LeakSanitizer cannot be turned off and ends the child).
    @Test(
        "QueueSocket: where /proc/self cannot be read (hidden by an empty mount), the first one made does not wait out the warm-up's 10 s bound",
        .enabled(if: !runsUnderSanitizer, "sanitizer runtimes need /proc/self")
    )
    func firstSocketWithoutProc() async throws {
        try await onNewThread {
            let path = try ChildProcess.builtProduct("TimerWithoutDescriptorsProbe")
            let probe = try ChildProcess(
                tool: "unshare",
                [
                    "-rm", "sh", "-c", "mount -t tmpfs none /proc/$$ && PROBE_TIMER_ARMED_FIRST=1 exec \"$1\"", "sh",
                    path,
                ])
            // The probe's own timeout, after the warm-up, has only a near timer's firing behind it
            // here (DispatchTimerWarmUp.swift): whether it fires is not what this checks.
            #expect([0, 1].contains(probe.waitForExit(timeout: 30)), "\(probe.output)\(probe.errorOutput)")
            let made = Self.millisecondsToMake(probe.output)
            #expect(try #require(made, "\(probe.output)\(probe.errorOutput)") < 5000, "\(probe.output)")
        }
    }

    /// The probe's "made in N ms" (how long its first QueueSocket took to make).
    private static func millisecondsToMake(_ output: String) -> Int? {
        output.split(separator: "\n").first { $0.hasPrefix("made in ") }
            .flatMap { Int($0.dropFirst(8).prefix { $0 != " " }) }
    }

    private static func reportChildErrors(_ result: ExitTest.Result?, sourceLocation: SourceLocation = #_sourceLocation)
    {
        let errors = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(errors.contains("EMFILE done"), "the child did not finish: \(errors)", sourceLocation: sourceLocation)
        for line in errors.split(separator: "\n") where line.hasPrefix("EMFILE problem: ") {
            Issue.record(Comment(rawValue: String(line)), sourceLocation: sourceLocation)
        }
    }
}

/// The scenarios run inside the child; each returns the problems it found. (A descriptor the
/// runtime frees meanwhile may let one accept through: the check is that EMFILE was met, not that
/// nothing was accepted.)
enum EMFILEScenario {
    static let connections = 4
    /// A listener that spins on a failing accept() burns about a CPU second per second.
    static let cpuLimit: TimeInterval = 0.25

    /// Ends the child: the problems go to standard error, where the parent looks for them (an exit
    /// test that fails its exit condition hands back no output), then "EMFILE done".
    static func exit(reporting problems: [String]) -> Never {
        for problem in problems {
            FileHandle.standardError.write(Data("EMFILE problem: \(problem)\n".utf8))
        }
        FileHandle.standardError.write(Data("EMFILE done\n".utf8))
        Foundation.exit(EXIT_SUCCESS)
    }

    static func runLoopSocket(engine: RunLoopSocket.Engine) -> [String] {
        var problems: [String] = []
        let recorder = Recorder()
        let server = RunLoopSocket(delegate: recorder, engine: engine)
        recorder.name(server, "server")
        do {
            try server.acceptOnInterface("127.0.0.1", port: 0)
        } catch {
            return ["listen failed: \(error)"]
        }
        let clients = PreparedClients(count: connections)
        let exhaustion = DescriptorExhaustion()
        clients.connect(to: server.localPort)
        let cpu = processCPUTime()
        runUntil(timeout: 0.5) { false }
        let spent = processCPUTime() - cpu
        if spent > cpuLimit { problems.append("\(spent) s of CPU in 0.5 s while accept() fails: it spins") }
        if recorder.accepted.count == connections { problems.append("every connection accepted: no EMFILE seen") }
        let client = RunLoopSocket(delegate: recorder, engine: engine)
        recorder.name(client, "client")
        do {
            try client.connectToAddress(loopbackAddress(port: server.localPort), withTimeout: 5)
            if !runUntil(timeout: 5, { recorder.closed("client") }) {
                problems.append("a connect without descriptors neither threw nor reported")
            }
        } catch {
            // The original's CFSocket error (-1), with the reason underneath.
            let ns = error as NSError
            let underlying = ns.userInfo[NSUnderlyingErrorKey] as? NSError
            if !(ns.domain == AsyncSocketError.errorDomain && ns.code == -1 && underlying?.code == Int(EMFILE)) {
                problems.append("the connect failed with \(ns.domain) \(ns.code) (\(String(describing: underlying)))")
            }
        }
        exhaustion.release()
        let accepted = runUntil {
            recorder.accepted.count == connections && recorder.accepted.allSatisfy(\.isConnected)
        }
        if !accepted {
            problems.append("\(recorder.accepted.count) of \(connections) accepted after descriptors were freed")
        }
        for child in recorder.accepted {
            child.disconnect()
        }
        server.disconnect()
        if !recorder.closed("server") { problems.append("the listener did not report its close") }
        problems += recorder.auditor.violations
        if !freshRunLoopConnectionWorks(engine: engine) { problems.append("a fresh connection failed afterwards") }
        return problems
    }

    static func queueSocket() -> [String] {
        var problems: [String] = []
        let server: QueueServer
        do {
            server = try QueueServer()
        } catch {
            return ["listen failed: \(error)"]
        }
        let recorder = server.recorder
        let clients = PreparedClients(count: connections)
        let exhaustion = DescriptorExhaustion()
        clients.connect(to: server.port)
        let cpu = processCPUTime()
        _ = recorder.wait(timeout: 0.5) { false }
        let spent = processCPUTime() - cpu
        if spent > cpuLimit { problems.append("\(spent) s of CPU in 0.5 s while accept() fails: it spins") }
        if recorder.accepted.count == connections { problems.append("every connection accepted: no EMFILE seen") }
        let client = QueueSocket(delegate: recorder, delegateQueue: recorder.queue)
        recorder.name(client, "client")
        do {
            try client.connect(toAddress: loopbackAddress(port: server.port), withTimeout: 5)
            if !recorder.wait(timeout: 5, until: { recorder.closed("client") }) {
                problems.append("a connect without descriptors neither threw nor reported")
            }
        } catch {
            let ns = error as NSError
            if !(ns.domain == NSPOSIXErrorDomain && ns.code == Int(EMFILE)) {
                problems.append("the connect failed with \(ns.domain) \(ns.code), not EMFILE")
            }
        }
        exhaustion.release()
        if !recorder.wait(until: { recorder.accepted.count == connections }) {
            problems.append("\(recorder.accepted.count) of \(connections) accepted after descriptors were freed")
        }
        for child in recorder.accepted {
            child.disconnect()
        }
        server.socket.disconnect()
        if !recorder.wait(until: { recorder.closed("server") }) {
            problems.append("the listener did not report its close")
        }
        problems += recorder.auditor.violations
        if !freshQueueConnectionWorks() { problems.append("a fresh connection failed afterwards") }
        return problems
    }
}
