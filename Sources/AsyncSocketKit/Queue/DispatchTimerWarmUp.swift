import Dispatch
import Foundation

// libdispatch on Linux makes the timerfd behind its timers the first time it programs one in the
// process; if that fails (no descriptor left) it carries on silently and the timer never fires
// (swift-corelibs-libdispatch, `src/event/event_epoll.c`, `_dispatch_timeout_program`). A listener that
// runs out of descriptors pauses on such a timer (ListenerDriver.swift) and would never accept again,
// and a read, write or connect timeout armed then would never fire. So the first QueueSocket (every
// socket on the dispatch scheduler is one) makes libdispatch create it: it arms a timer an hour ahead
// and waits (at most 10 s) until the process has a CLOCK_MONOTONIC timerfd armed that far ahead, then
// cancels the timer. The descriptor stays open for the life of the process.
//
// Waiting for a near timer to fire does not show this: libdispatch arms timers on its own thread,
// after the call that asked, and on a loaded machine that thread may first run when the timer is
// already due; it then fires it without programming, or making, any timerfd.

/// Makes libdispatch create its timer descriptor before any socket needs a timer.
enum DispatchTimerWarmUp {
    /// Evaluated once, by the first QueueSocket (Swift initializes a static once, thread-safely).
    static let done: Bool = {
        let timer = DispatchSource.makeTimerSource(queue: .global())
        timer.setEventHandler {}
        timer.schedule(deadline: .now() + .seconds(3600))
        timer.activate()
        defer { timer.cancel() }
        let deadline = DispatchTime.now() + .seconds(10)
        while !farTimerDescriptorExists() {
            guard DispatchTime.now() < deadline else { return false }
            usleep(200)
        }
        return true
    }()

    /// Whether /proc/self/fdinfo shows a timerfd on CLOCK_MONOTONIC (the clock of `DispatchTime`)
    /// that expires more than 50 minutes from now: the one programmed for the timer above.
    private static func farTimerDescriptorExists() -> Bool {
        guard let descriptors = try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fdinfo") else {
            return false
        }
        return descriptors.contains { descriptor in
            guard let info = try? String(contentsOfFile: "/proc/self/fdinfo/" + descriptor, encoding: .utf8),
                info.contains("clockid: 1\n")
            else { return false }
            // "it_value: (3599, 999873021)": seconds and nanoseconds until it expires.
            guard let line = info.split(separator: "\n").first(where: { $0.hasPrefix("it_value: (") }),
                let seconds = Int(line.dropFirst("it_value: (".count).prefix { $0 != "," })
            else { return false }
            return seconds > 3000
        }
    }
}
