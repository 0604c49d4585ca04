import Dispatch
import Foundation

// libdispatch on Linux makes the timerfd behind its timers the first time it programs one in the
// process; if that fails (no descriptor left) it carries on silently and the timer never fires
// (swift-corelibs-libdispatch, `src/event/event_epoll.c`, `_dispatch_timeout_program`). A listener that
// runs out of descriptors pauses on such a timer (ListenerDriver.swift) and would never accept again,
// and a read, write or connect timeout armed then would never fire. So the first QueueSocket (every
// socket on the dispatch scheduler is one) makes libdispatch create it: it arms a timer an hour ahead
// and waits (at most 10 s) until /proc/self/fdinfo shows a CLOCK_MONOTONIC timerfd that was not there
// before, or one armed about an hour ahead; then it cancels the timer. The descriptor stays open for
// the life of the process. When the process had such timerfds already (Foundation's run loop makes
// them too) and none changes within 0.1 s, libdispatch's is one of them, programmed for an earlier
// timer of the process. Where /proc cannot be read, it waits for a timer 5 ms ahead to fire (at most
// 1 s), which shows the timerfd exists unless the machine is loaded (below).
//
// Waiting for a near timer to fire does not always show this: libdispatch arms timers on its own thread,
// after the call that asked, and on a loaded machine that thread may first run when the timer is
// already due; it then fires it without programming, or making, any timerfd.

/// Makes libdispatch create its timer descriptor before any socket needs a timer.
enum DispatchTimerWarmUp {
    /// Evaluated once, by the first QueueSocket (Swift initializes a static once, thread-safely).
    static let done: Bool = {
        guard let before = monotonicTimers() else { return nearTimerFired() }
        let timer = DispatchSource.makeTimerSource(queue: .global())
        timer.setEventHandler {}
        timer.schedule(deadline: .now() + .seconds(3600))
        timer.activate()
        defer { timer.cancel() }
        let deadline = DispatchTime.now() + (before.isEmpty ? .seconds(10) : .milliseconds(100))
        while true {
            let timers = monotonicTimers() ?? [:]
            if timers.contains(where: { before[$0.key] == nil || $0.value > 3000 }) {
                return true
            }
            guard DispatchTime.now() < deadline else { return !before.isEmpty }
            usleep(200)
        }
    }()

    /// Without /proc (a sandbox that hides it), the best sign there is: a timer 5 ms ahead fired
    /// (waited for at most 1 s).
    private static func nearTimerFired() -> Bool {
        let fired = DispatchSemaphore(value: 0)
        let timer = DispatchSource.makeTimerSource(queue: .global())
        timer.setEventHandler { fired.signal() }
        timer.schedule(deadline: .now() + .milliseconds(5))
        timer.activate()
        defer { timer.cancel() }
        return fired.wait(timeout: .now() + 1) == .success
    }

    /// The process's CLOCK_MONOTONIC (the clock of `DispatchTime`) timerfds: descriptor → whole
    /// seconds until it expires (0 when disarmed), from /proc/self/fdinfo; nil when that cannot be read.
    private static func monotonicTimers() -> [String: Int]? {
        guard let descriptors = try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fdinfo") else {
            return nil
        }
        var timers: [String: Int] = [:]
        for descriptor in descriptors {
            guard let info = try? String(contentsOfFile: "/proc/self/fdinfo/" + descriptor, encoding: .utf8),
                info.contains("clockid: 1\n")
            else { continue }
            // "it_value: (3599, 999873021)": seconds and nanoseconds until it expires.
            let line = info.split(separator: "\n").first { $0.hasPrefix("it_value: (") }
            timers[descriptor] = line.flatMap { Int($0.dropFirst("it_value: (".count).prefix { $0 != "," }) } ?? 0
        }
        return timers
    }
}
