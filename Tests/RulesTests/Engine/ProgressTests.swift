import AsyncSocketCore
import EngineTestSupport
import Foundation
import SocketTestSupport
import Testing

@Suite("Engine: progress values")
struct ProgressTests {
    @Test("NaN and zeros when idle; fractions for reads and writes with a length; 1.0 without one")
    func progress() {
        let harness = EngineHarness()
        #expect(harness.engine.readProgress == TransferProgress())
        #expect(harness.engine.readProgress.fraction.isNaN)
        #expect(harness.engine.writeProgress.fraction.isNaN)

        harness.read(.length(8), tag: 4)
        harness.runPasses()
        harness.feed("ab")
        #expect(harness.engine.readProgress == TransferProgress(tag: 4, bytesDone: 2, total: 8, fraction: 0.25))
        harness.feed("cdefgh")
        harness.runPasses()

        harness.read(.separator(bytes("\n"), maxLength: 0), tag: 5)
        harness.runPasses()
        harness.feed("xyz")
        #expect(harness.engine.readProgress == TransferProgress(tag: 5, bytesDone: 3, total: 0, fraction: 1.0))
        harness.feed("\n")
        harness.runPasses()

        harness.read(.available(maxLength: 0), tag: 6)
        harness.runPasses()
        #expect(harness.engine.readProgress == TransferProgress(tag: 6, bytesDone: 0, total: 0, fraction: 1.0))

        harness.transport.sendCapacity = 3
        harness.write(bytes("0123"), tag: 9)
        harness.runPasses()
        #expect(harness.engine.writeProgress == TransferProgress(tag: 9, bytesDone: 3, total: 4, fraction: 0.75))
    }
}
