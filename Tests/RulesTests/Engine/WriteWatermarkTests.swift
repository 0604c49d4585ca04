import AsyncSocketCore
import EngineTestSupport
import Foundation
import SocketTestSupport
import Testing

// The write queue's byte count and watermarks (EngineCore+Watermarks.swift), with a scripted transport
// that takes only the bytes the test lets it: every count and every report is exact.

@Suite("Engine: queued write bytes and write watermarks")
struct WriteWatermarkTests {
    @Test(
        "queued bytes count down as the transport takes them; above the high mark not writable until the low one, reported once after the pass's writes"
    )
    func drainIsReportedOnce() {
        let harness = EngineHarness()
        harness.engine.setWriteWatermarks(WriteMarks(high: 10, low: 4))
        harness.transport.sendCapacity = 0
        harness.write(bytes("abcdef"), tag: 1)
        #expect(harness.engine.queueSizes.writeBytes == 6 && harness.engine.isWritable)
        harness.write(bytes("ghijkl"), tag: 2)
        #expect(harness.engine.queueSizes.writeBytes == 12 && !harness.engine.isWritable)
        #expect(harness.engine.queueSizes.writes == 2)
        harness.runPasses()
        harness.peerDrains(5)
        harness.runPasses()
        // 7 bytes left: below the high mark, still above the low one.
        #expect(harness.engine.queueSizes.writeBytes == 7 && !harness.engine.isWritable)
        #expect(harness.events == [.partialWrite(5, tag: 1)])
        harness.peerDrains(4)
        harness.runPasses()
        #expect(harness.engine.queueSizes.writeBytes == 3 && harness.engine.isWritable)
        #expect(
            harness.events == [
                .partialWrite(5, tag: 1), .wrote(tag: 1), .partialWrite(3, tag: 2), .becameWritable,
            ])
        harness.peerDrains(100)
        harness.runPasses()
        #expect(harness.events.suffix(1) == [.wrote(tag: 2)], "no second report without going above the high mark")
        #expect(harness.engine.queueSizes.writeBytes == 0 && harness.engine.queueSizes.writes == 0)
    }

    @Test("without marks the socket is always writable and nothing is reported")
    func noMarksNoReport() {
        let harness = EngineHarness()
        harness.transport.sendCapacity = 2
        harness.write(Array(repeating: 1, count: 100_000), tag: 1)
        #expect(harness.engine.isWritable)
        harness.runPasses()
        harness.peerDrains(1 << 20)
        harness.runPasses()
        #expect(!harness.events.contains(.becameWritable))
        #expect(harness.events.last == .wrote(tag: 1))
    }

    @Test("changing the marks decides again at once, without a report; a close drops the bytes and the state")
    func changingMarksAndClosing() {
        let harness = EngineHarness()
        harness.transport.sendCapacity = 0
        harness.write(bytes("0123456789"), tag: 1)
        harness.engine.setWriteWatermarks(WriteMarks(high: 8, low: 2))
        #expect(!harness.engine.isWritable)
        harness.engine.setWriteWatermarks(WriteMarks(high: 20, low: 5))
        #expect(!harness.engine.isWritable, "between the marks: as it was")
        harness.engine.setWriteWatermarks(WriteMarks(high: 30, low: 10))
        #expect(harness.engine.isWritable, "at the new low mark")
        harness.engine.setWriteWatermarks(WriteMarks(high: 8, low: 2))
        #expect(!harness.engine.isWritable)
        harness.engine.setWriteWatermarks(nil)
        #expect(harness.engine.isWritable)
        harness.engine.setWriteWatermarks(WriteMarks(high: 8, low: 2))
        harness.runPasses()
        #expect(harness.events.isEmpty)
        harness.disconnect()
        #expect(harness.engine.queueSizes.writeBytes == 0 && harness.engine.isWritable)
        #expect(harness.engine.writeWatermarks == WriteMarks(high: 8, low: 2), "the marks are kept")
        #expect(!harness.events.contains(.becameWritable))
    }

    @Test("gathered writes count down item by item; the report comes once for the batch")
    func gatheredWritesCount() {
        let harness = EngineHarness()
        harness.engine.setWriteWatermarks(WriteMarks(high: 5, low: 0))
        harness.transport.sendCapacity = 0
        for tag in 1...4 { harness.write(bytes("ab"), tag: tag) }
        #expect(harness.engine.queueSizes.writeBytes == 8 && !harness.engine.isWritable)
        harness.runPasses()
        harness.peerDrains(8)
        harness.runPasses()
        #expect(
            harness.events == [.wrote(tag: 1), .wrote(tag: 2), .wrote(tag: 3), .wrote(tag: 4), .becameWritable])
        #expect(harness.engine.queueSizes == QueueSizes())
    }
}
