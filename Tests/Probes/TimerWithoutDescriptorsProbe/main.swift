import AsyncSocketKit
import Dispatch
import Foundation

// A fresh process in which no dispatch timer has been armed: it wraps a connected descriptor in a
// QueueSocket (no connect, so no stagger timer), takes every free descriptor, and arms a read timeout
// of 0.2 s. It prints "fired" and exits 0 when the timeout reaches the delegate within 15 s, else
// prints "never fired" and exits 1. Run by LoadFaultTests' EMFILEFaultTests (DispatchTimerWarmUp.swift
// says why a timer could stay silent).
//
// With PROBE_TIMER_ARMED_FIRST in its environment, the process first has a dispatch timer fire and
// arms another a minute ahead (libdispatch's timerfd is then programmed for that one), and prints
// "made in N ms": how long making the QueueSocket, the first of the process, took. (An environment
// variable, not an argument: without /proc/self, Swift's CommandLine.arguments is empty on Linux.)

final class TimeoutWatcher: QueueSocketDelegate, @unchecked Sendable {
    // @unchecked Sendable: `fired` is a semaphore; nothing else is stored.
    let fired = DispatchSemaphore(value: 0)

    func socket(_ sock: QueueSocket, shouldTimeoutReadWithTag tag: Int, elapsed: TimeInterval, bytesDone: Int)
        -> TimeInterval
    {
        fired.signal()
        return 0
    }
}

func connectedPair() -> (Int32, Int32)? {
    let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = INADDR_LOOPBACK.bigEndian
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let bound = withUnsafeMutablePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
            bind(listener, $0, length) == 0 && listen(listener, 1) == 0 && getsockname(listener, $0, &length) == 0
        }
    }
    guard bound else { return nil }
    let client = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    let connected = withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(client, $0, length) == 0 }
    }
    let server = accept(listener, nil, nil)
    close(listener)
    return connected && server >= 0 ? (client, server) : nil
}

guard let (client, server) = connectedPair() else {
    print("no connection")
    exit(2)
}
let timerArmedFirst = getenv("PROBE_TIMER_ARMED_FIRST") != nil
var earlierTimer: DispatchSourceTimer?
if timerArmedFirst {
    let timer = DispatchSource.makeTimerSource(queue: .global())
    let firedOnce = DispatchSemaphore(value: 0)
    // @Sendable: a closure written in top-level code is otherwise the main actor's, and libdispatch
    // runs it on a worker thread (the runtime's isolation check stops the process).
    timer.setEventHandler { @Sendable in firedOnce.signal() }
    timer.schedule(deadline: .now() + .milliseconds(1))
    timer.activate()
    _ = firedOnce.wait(timeout: .now() + 10)
    timer.schedule(deadline: .now() + .seconds(60))
    earlierTimer = timer
}
let watcher = TimeoutWatcher()
let making = DispatchTime.now()
let queueSocket = try QueueSocket.socket(
    fromConnectedSocketFD: server, delegate: watcher, delegateQueue: DispatchQueue(label: "delegate"))
if timerArmedFirst {
    print("made in \((DispatchTime.now().uptimeNanoseconds - making.uptimeNanoseconds) / 1_000_000) ms")
    // Written now: under AddressSanitizer with /proc/self hidden, LeakSanitizer ends the process at exit
    // (it can read neither /proc nor the options that would turn it off) before buffered output is.
    fflush(nil)
}
var limit = rlimit()
getrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &limit)
limit.rlim_cur = rlim_t(min(Int(limit.rlim_cur), 256))
setrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &limit)
var held: [Int32] = []
while held.count < 1024 {
    let fd = open("/dev/null", O_RDONLY | O_CLOEXEC)
    if fd < 0 { break }
    held.append(fd)
}
queueSocket.readData(withTimeout: 0.2, tag: 1)
let fired = watcher.fired.wait(timeout: .now() + 15) == .success
for fd in held {
    close(fd)
}
queueSocket.disconnect()
earlierTimer?.cancel()
close(client)
print(fired ? "fired" : "never fired")
fflush(nil)
exit(fired ? 0 : 1)
