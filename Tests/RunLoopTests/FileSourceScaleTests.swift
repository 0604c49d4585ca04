import AsyncSocketKit
import Foundation
import SocketTestSupport
import Testing

@Suite("EventRunLoop file sources at scale")
struct FileSourceScaleTests {
    // Runs in a child process so that no other test's descriptors disturb the count.
    @Test("10 000 sources on 5 000 socket pairs register, fire and unregister without leaks")
    func tenThousandSources() async {
        await #expect(processExitsWith: .success) {
            // A small round first: the baseline is taken once the process has opened what it opens
            // only once (the test harness's and Dispatch's own descriptors).
            var baseline = 0
            for pairCount in [10, 5_000] {
                if pairCount == 5_000 {
                    baseline = openFileDescriptorCount()
                }
                let ok = try await onNewThread { () -> Bool in
                    let loop = EventRunLoop.current
                    let pairs = (0..<pairCount).map { _ in makeSocketPair() }
                    var fired = [Int: Int]()
                    var sources: [RunLoopFileSource] = []
                    for (a, b) in pairs {
                        for fd in [a, b] {
                            let source = loop.addFileSource(fd) { _ in
                                drain(fd)
                                fired[Int(fd), default: 0] += 1
                            }
                            source.wantsReadable = true
                            sources.append(source)
                        }
                    }
                    for (a, b) in pairs {
                        writeAll(a, [1])
                        writeAll(b, [2])
                    }
                    let allFired = runUntil(timeout: 60) { fired.count == 2 * pairCount }
                    let exactlyOnce = fired.values.allSatisfy { $0 == 1 }
                    for source in sources {
                        source.cancel()
                    }
                    for (a, b) in pairs {
                        close(a)
                        close(b)
                    }
                    return allFired && exactlyOnce && loop.run(mode: .default, timeout: 0) == .finished
                }
                if !ok { exit(2) }
            }
            // The thread's loop (its bases, eventfd, timerfds and close-watch epoll sets) is freed as
            // the thread ends, which may be just after its result came back, and later still on a
            // machine loaded by the rest of the suite: wait for that, 30 s at most (a leak stays).
            // (Fewer than at the baseline is no leak: the test harness may close a descriptor of its own.)
            let deadline = Date(timeIntervalSinceNow: 30)
            while openFileDescriptorCount() > baseline && Date() < deadline {
                usleep(1_000)
            }
            let after = openFileDescriptorCount()
            if after > baseline {
                FileHandle.standardError.write(Data("open after the run: \(openFileDescriptorTargets())\n".utf8))
                exit(Int32(10 + after - baseline))
            }
        }
    }

    @Test("a worker loop thread frees its descriptors when terminated")
    func workerThreadShutdown() async {
        await #expect(processExitsWith: .success) {
            var baseline = 0
            for round in 0..<20 {
                // Round 0 warms up what the process opens once (Dispatch's own descriptors).
                if round == 1 {
                    baseline = openFileDescriptorCount()
                }
                let worker = EventRunLoopThread(name: "worker")
                let ran = DispatchSemaphore(value: 0)
                worker.loop.perform(inModes: [RunLoopMode("other")]) {}
                worker.loop.perform {
                    _ = EventRunLoop.current.addTimer(after: 3600, modes: [RunLoopMode("other")]) { _ in }
                    ran.signal()
                }
                if ran.wait(timeout: .now() + 10) != .success { exit(2) }
                worker.terminate()
                worker.terminate()
            }
            // `terminate()` returns once the thread has ended and its loop is freed; a descriptor the
            // process opens for itself meanwhile (Dispatch's, the test harness's) may still be closing
            // under the rest of the suite's load: wait for the count to come back, 30 s at most (a
            // leak stays), and name what is left when it does not.
            let deadline = Date(timeIntervalSinceNow: 30)
            while openFileDescriptorCount() > baseline && Date() < deadline {
                usleep(1_000)
            }
            let after = openFileDescriptorCount()
            if after > baseline {
                FileHandle.standardError.write(
                    Data("descriptors before=\(baseline) after=\(after): \(openFileDescriptorTargets())\n".utf8))
                exit(1)
            }
        }
    }
}
