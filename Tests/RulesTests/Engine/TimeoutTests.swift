import AsyncSocketCore
import EngineTestSupport
import Foundation
import SocketTestSupport
import Testing

@Suite("Engine: timeouts and extensions")
struct TimeoutTests {
    @Test("15 s then a 10 s extension: asked with elapsed 15, then 25, then the read times out")
    func extensionArithmetic() {
        let harness = EngineHarness()
        harness.readTimeoutAnswers = [10, 0]
        harness.read(.separator(bytes("\r\n"), maxLength: 0), timeout: 15, tag: 3)
        harness.runPasses()
        harness.feed("par")
        harness.advance(by: 14.9)
        #expect(harness.events == [.partialRead(3, tag: 3)])
        harness.advance(by: 0.1)
        #expect(harness.events.last == .readTimeoutAsked(tag: 3, elapsed: 15, bytesDone: 3))
        harness.advance(by: 9.9)
        #expect(harness.events.count == 2)
        harness.advance(by: 0.1)
        #expect(
            harness.events == [
                .partialRead(3, tag: 3), .readTimeoutAsked(tag: 3, elapsed: 15, bytesDone: 3),
                .readTimeoutAsked(tag: 3, elapsed: 25, bytesDone: 3), .closed(.readTimeout),
            ])
        // The partly read bytes are preserved for unreadData.
        #expect(harness.unreadAtClose == bytes("par"))
    }

    @Test("the timer starts when the read becomes current, not when it is queued")
    func armedWhenCurrent() {
        let harness = EngineHarness()
        harness.read(.length(2), timeout: 5, tag: 1)
        harness.read(.length(2), timeout: 5, tag: 2)
        harness.runPasses()
        harness.advance(by: 4)
        harness.feed("ab")
        harness.runPasses()
        harness.advance(by: 4)
        #expect(harness.events == [.read(bytes("ab"), tag: 1)])
        harness.advance(by: 1)
        #expect(harness.events.last == .closed(.readTimeout))
    }

    @Test("timeout 0 fires at once; a negative timeout never fires")
    func zeroAndNegative() {
        let zero = EngineHarness()
        zero.read(.length(1), timeout: 0, tag: 1)
        zero.runPasses()
        zero.advance(by: 0)
        #expect(zero.events == [.readTimeoutAsked(tag: 1, elapsed: 0, bytesDone: 0), .closed(.readTimeout)])

        let none = EngineHarness()
        none.read(.length(1), timeout: -1, tag: 1)
        none.runPasses()
        #expect(!none.clock.hasTimers)
        none.advance(by: 1e6)
        #expect(none.events.isEmpty)
    }

    @Test("a write timeout is asked with its own elapsed sum and bytes done, then closes")
    func writeTimeout() {
        let harness = EngineHarness()
        harness.transport.sendCapacity = 4
        harness.writeTimeoutAnswers = [2]
        harness.write(bytes("0123456789"), timeout: 3, tag: 8)
        harness.runPasses()
        harness.advance(by: 3)
        harness.advance(by: 2)
        #expect(
            harness.events == [
                .partialWrite(4, tag: 8), .writeTimeoutAsked(tag: 8, elapsed: 3, bytesDone: 4),
                .writeTimeoutAsked(tag: 8, elapsed: 5, bytesDone: 4), .closed(.writeTimeout),
            ])
    }

    @Test("a finished read cancels its timer")
    func completionCancelsTimer() {
        let harness = EngineHarness()
        harness.read(.length(1), timeout: 1, tag: 1)
        harness.runPasses()
        harness.feed("x")
        harness.advance(by: 10)
        #expect(harness.events == [.read(bytes("x"), tag: 1)])
    }
}
