import AsyncSocketCore
import EngineTestSupport
import Foundation
import SocketTestSupport
import Testing

@Suite("Engine: when reads complete")
struct SchedulingTests {
    @Test("a read never completes inside the call that queued it, even with the bytes already there")
    func neverInline() {
        let harness = EngineHarness()
        harness.feed("ready")
        harness.read(.length(5), tag: 1)
        #expect(harness.events.isEmpty)
        harness.runOnePass()
        #expect(harness.events == [.read(bytes("ready"), tag: 1)])
    }

    @Test("legacy: after a completion the next read waits for a later pass")
    func legacyNextOnLaterPass() {
        let harness = EngineHarness(semantics: .legacy)
        harness.feed("a\nb\nc\n")
        for tag in 1...3 {
            harness.read(.separator(bytes("\n"), maxLength: 0), tag: tag)
        }
        harness.runOnePass()
        #expect(harness.events == [.read(bytes("a\n"), tag: 1)])
        harness.runOnePass()
        #expect(harness.events.count == 2)
        harness.runOnePass()
        #expect(harness.events.count == 3)
    }

    @Test("GCD semantics: the next read is dequeued at once")
    func queueNextAtOnce() {
        let harness = EngineHarness(semantics: .gcd)
        harness.feed("a\nb\nc\n")
        for tag in 1...3 {
            harness.read(.separator(bytes("\n"), maxLength: 0), tag: tag)
        }
        harness.runOnePass()
        #expect(
            harness.events == [
                .read(bytes("a\n"), tag: 1), .read(bytes("b\n"), tag: 2), .read(bytes("c\n"), tag: 3),
            ])
    }

    @Test("a read queued from inside a completion is served from the prebuffer on a later pass")
    func readQueuedInsideCompletion() {
        let harness = EngineHarness()
        var next = 2
        harness.onRead = { harness, _ in
            guard next <= 3 else { return }
            harness.read(.separator(bytes("\n"), maxLength: 0), tag: next)
            next += 1
        }
        harness.read(.separator(bytes("\n"), maxLength: 0), tag: 1)
        harness.feed("x\ny\nz\n")
        harness.runPasses()
        #expect(
            harness.events == [
                .read(bytes("x\n"), tag: 1), .read(bytes("y\n"), tag: 2), .read(bytes("z\n"), tag: 3),
            ])
    }
}
