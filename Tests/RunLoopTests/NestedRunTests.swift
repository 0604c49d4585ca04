import AsyncSocketKit
import Foundation
import SocketTestSupport
import Testing

@Suite("EventRunLoop nested runs")
struct NestedRunTests {
    @Test("a callback runs the loop in another mode, then the outer run resumes")
    func nestedRunInAnotherMode() async throws {
        try await onNewThread {
            let loop = EventRunLoop.current
            let modal = RunLoopMode("modal")
            let trace = Ref<[String]>([])
            // A default-mode timer due during the modal run must wait until the outer run resumes.
            loop.addTimer(after: 0.02) { _ in trace.value.append("default timer") }
            loop.perform(inModes: [.default]) {
                trace.value.append("enter modal")
                let modalDone = Ref(false)
                loop.addTimer(after: 0.1, modes: [modal]) { _ in
                    trace.value.append("modal timer")
                    modalDone.value = true
                }
                #expect(loop.currentMode == .default)
                while !modalDone.value {
                    let result = loop.run(mode: modal, before: Date(timeIntervalSinceNow: 5))
                    #expect(result == .handledSource)
                    #expect(loop.currentMode == .default)
                }
                trace.value.append("leave modal")
            }
            #expect(runUntil { trace.value.count == 4 })
            #expect(trace.value == ["enter modal", "modal timer", "leave modal", "default timer"])
        }
    }

    @Test("a callback runs the loop again in the same mode; both levels keep working")
    func nestedRunInSameMode() async throws {
        try await onNewThread {
            let loop = EventRunLoop.current
            let (a, b) = makeSocketPair()
            defer {
                close(a)
                close(b)
            }
            var trace: [String] = []
            let source = loop.addFileSource(a) { _ in
                drain(a)
                trace.append("readable")
            }
            source.wantsReadable = true
            loop.addTimer(after: 0) { _ in
                trace.append("outer timer")
                writeAll(b, [1])
                // Nested run in the mode that is already running.
                let result = loop.run(mode: .default, before: Date(timeIntervalSinceNow: 5))
                #expect(result == .handledSource)
                trace.append("nested returned")
            }
            #expect(runUntil { trace.count == 3 })
            #expect(trace == ["outer timer", "readable", "nested returned"])
            writeAll(b, [2])
            #expect(runUntil { trace.count == 4 })
            #expect(trace.last == "readable")
            source.cancel()
        }
    }

    @Test("stop() ends only the innermost run")
    func stopEndsInnermostRun() async throws {
        try await onNewThread {
            let loop = EventRunLoop.current
            let modal = RunLoopMode("modal")
            let innerResult = Ref<EventRunLoop.RunResult?>(nil)
            let outerContinued = Ref(false)
            let keep = loop.addTimer(after: 3600, modes: [modal, .default]) { _ in }
            loop.perform(inModes: [.default]) {
                loop.perform(inModes: [modal]) { loop.stop() }
                innerResult.value = loop.run(mode: modal, before: Date(timeIntervalSinceNow: 5))
                loop.perform(inModes: [.default]) { outerContinued.value = true }
            }
            #expect(runUntil { outerContinued.value })
            #expect(innerResult.value == .stopped)
            keep.invalidate()
        }
    }
}
