import AsyncSocketKit
import Foundation
import SocketTestSupport
import Testing

@Suite("EventRunLoop modes")
struct RunLoopModeTests {
    let modeA = RunLoopMode("A")
    let modeB = RunLoopMode("B")

    @Test("a timer in mode A waits while the loop runs in mode B, then fires in A")
    func timerWaitsForItsMode() async throws {
        let (modeA, modeB) = (self.modeA, self.modeB)
        try await onNewThread {
            let loop = EventRunLoop.current
            var fired = 0
            loop.addTimer(after: 0, modes: [modeA]) { _ in fired += 1 }
            let keepB = loop.addTimer(after: 3600, modes: [modeB]) { _ in }
            #expect(loop.run(mode: modeB, timeout: 0.2) == .timedOut)
            #expect(fired == 0)
            #expect(loop.run(mode: modeA, timeout: 5) == .handledSource)
            #expect(fired == 1)
            keepB.invalidate()
        }
    }

    @Test("a readable descriptor in mode A is not serviced in mode B and loses nothing")
    func fileSourceWaitsForItsMode() async throws {
        let (modeA, modeB) = (self.modeA, self.modeB)
        try await onNewThread {
            let loop = EventRunLoop.current
            let (a, b) = makeSocketPair()
            defer {
                close(a)
                close(b)
            }
            var received: [UInt8] = []
            let source = loop.addFileSource(a, modes: [modeA]) { _ in
                var buffer = [UInt8](repeating: 0, count: 16)
                let n = buffer.withUnsafeMutableBytes { read(a, $0.baseAddress, $0.count) }
                if n > 0 { received += buffer[0..<n] }
            }
            source.wantsReadable = true
            let keepB = loop.addTimer(after: 3600, modes: [modeB]) { _ in }
            writeAll(b, [1, 2, 3])
            #expect(loop.run(mode: modeB, timeout: 0.2) == .timedOut)
            #expect(received.isEmpty)
            #expect(runUntil(mode: modeA) { received == [1, 2, 3] })
            source.cancel()
            keepB.invalidate()
        }
    }

    @Test("sources in .common fire in every common mode, including one added later")
    func commonModes() async throws {
        try await onNewThread {
            let loop = EventRunLoop.current
            let modal = RunLoopMode("modal")
            #expect(loop.commonModes == [.default])
            var fires = 0
            let timer = loop.addTimer(after: 0, repeating: 0.001, modes: [.common]) { _ in fires += 1 }
            #expect(runUntil(mode: .default) { fires >= 1 })
            // Not yet common: "modal" has nothing registered.
            #expect(loop.run(mode: modal, timeout: 0.05) == .finished)
            loop.addCommonMode(modal)
            #expect(loop.commonModes == [.default, modal])
            let before = fires
            #expect(runUntil(mode: modal) { fires > before })
            let performed = Ref(false)
            loop.perform(inModes: [.common]) { performed.value = true }
            #expect(runUntil(mode: modal) { performed.value })
            timer.invalidate()
        }
    }

    @Test("removing a mode from a source stops its service there")
    func removingAModeStopsService() async throws {
        let modeA = self.modeA
        try await onNewThread {
            let loop = EventRunLoop.current
            let (a, b) = makeSocketPair()
            defer {
                close(a)
                close(b)
            }
            var events = 0
            let source = loop.addFileSource(a, modes: [.default, modeA]) { _ in events += 1 }
            source.wantsReadable = true
            writeAll(b, [7])
            #expect(loop.run(mode: modeA, timeout: 5) == .handledSource)
            #expect(events == 1)
            source.removeMode(modeA)
            #expect(source.modes == [.default])
            #expect(loop.run(mode: modeA, timeout: 0.1) == .finished)
            #expect(events == 1)
            #expect(loop.run(mode: .default, timeout: 5) == .handledSource)
            #expect(events == 2)
            source.cancel()
            #expect(loop.run(mode: .default, timeout: 0.1) == .finished)
        }
    }

    @Test("a block performed in mode A runs only when A runs")
    func performWaitsForItsMode() async throws {
        let modeA = self.modeA
        try await onNewThread {
            let loop = EventRunLoop.current
            let order = Ref<[String]>([])
            loop.perform(inModes: [modeA]) { order.value.append("A") }
            loop.perform(inModes: [.default]) { order.value.append("default") }
            #expect(loop.run(mode: .default, timeout: 1) == .handledSource)
            #expect(order.value == ["default"])
            #expect(loop.run(mode: .default, timeout: 0.05) == .finished)
            #expect(loop.run(mode: modeA, timeout: 1) == .handledSource)
            #expect(order.value == ["default", "A"])
        }
    }
}
