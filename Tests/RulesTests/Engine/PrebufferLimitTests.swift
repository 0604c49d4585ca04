import AsyncSocketCore
import EngineTestSupport
import Foundation
import SocketTestSupport
import Testing

// The prebuffer limit (`SocketEngine.Configuration.maxPrebufferSize`): a bound on what a read to a
// separator holds, with a scripted transport.

@Suite("Engine: the prebuffer limit on reads to a separator")
struct PrebufferLimitTests {
    @Test("a read to a separator without maxLength gets the limit and fails with readMaxedOut past it")
    func limitMaxesOut() {
        let harness = EngineHarness(readChunk: 4)
        harness.engine.configuration.maxPrebufferSize = 10
        harness.read(.separator(bytes("\n"), maxLength: 0), tag: 1)
        harness.runPasses()
        harness.feed("0123456789abcdef")
        harness.runPasses()
        #expect(harness.events.last == .closed(.failure(.readMaxedOut)))
        let partials = harness.events.compactMap { event -> Int? in
            if case .partialRead(let count, _) = event { return count }
            return nil
        }
        #expect(partials.reduce(0, +) == 10, "the read held no more than the limit")
    }

    @Test("a smaller maxLength stays; a larger one, and a limit below the separator's length, are bounded as said")
    func limitAndMaxLength() {
        let smaller = EngineHarness()
        smaller.engine.configuration.maxPrebufferSize = 100
        smaller.read(.separator(bytes("\n"), maxLength: 4), tag: 1)
        smaller.runPasses()
        smaller.feed("abcdefgh")
        smaller.runPasses()
        #expect(smaller.events.last == .closed(.failure(.readMaxedOut)))

        let within = EngineHarness()
        within.engine.configuration.maxPrebufferSize = 6
        within.read(.separator(bytes("\r\n"), maxLength: 50), tag: 1)
        within.runPasses()
        within.feed("abcd\r\n")
        within.runPasses()
        #expect(within.events == [.read(bytes("abcd\r\n"), tag: 1)], "exactly the limit, separator included")

        let short = EngineHarness()
        short.engine.configuration.maxPrebufferSize = 1
        short.read(.separator(bytes("\r\n"), maxLength: 0), tag: 1)
        short.runPasses()
        short.feed("\r\n")
        short.runPasses()
        #expect(short.events == [.read(bytes("\r\n"), tag: 1)], "never below the separator's length")
    }

    @Test("reads of a length and of what is available are not bounded by it")
    func otherReadsUnbounded() {
        let harness = EngineHarness()
        harness.engine.configuration.maxPrebufferSize = 2
        harness.read(.length(6), tag: 1)
        harness.runPasses()
        harness.feed("abcdef")
        harness.runPasses()
        #expect(harness.events == [.read(bytes("abcdef"), tag: 1)])
    }
}
