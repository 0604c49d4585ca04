import AsyncSocketCore
import EngineTestSupport
import Foundation
import SocketTestSupport
import Testing

@Suite("Engine: disconnectAfterReading / Writing / ReadingAndWriting")
struct DisconnectAfterTests {
    @Test("after reading: disconnects once the read side is idle, dropping queued writes")
    func afterReading() {
        let harness = EngineHarness()
        harness.transport.sendCapacity = 0
        harness.read(.length(3), tag: 1)
        harness.write(bytes("never sent"), tag: 2)
        harness.disconnectAfter(reading: true, writing: false)
        harness.runPasses()
        harness.feed("abc")
        harness.runPasses()
        #expect(harness.events == [.read(bytes("abc"), tag: 1), .disconnected])
    }

    @Test("after writing: disconnects once the write side is idle, dropping pending reads")
    func afterWriting() {
        let harness = EngineHarness()
        harness.read(.length(3), tag: 1)
        harness.write(bytes("bye"), tag: 2)
        harness.disconnectAfter(reading: false, writing: true)
        harness.runPasses()
        #expect(harness.events == [.wrote(tag: 2), .disconnected])
        #expect(harness.transport.written == bytes("bye"))
    }

    @Test("after both: waits for both sides")
    func afterBoth() {
        let harness = EngineHarness()
        harness.read(.length(3), tag: 1)
        harness.write(bytes("bye"), tag: 2)
        harness.disconnectAfter(reading: true, writing: true)
        harness.runPasses()
        #expect(harness.events == [.wrote(tag: 2)])
        harness.feed("abc")
        harness.runPasses()
        #expect(harness.events == [.wrote(tag: 2), .read(bytes("abc"), tag: 1), .disconnected])
    }

    @Test("already idle: the disconnect is scheduled for the next pass, never inline")
    func idleIsScheduled() {
        let harness = EngineHarness()
        harness.disconnectAfter(reading: true, writing: true)
        #expect(harness.events.isEmpty)
        harness.runOnePass()
        #expect(harness.events == [.disconnected])
    }

    @Test("after reading, with writing also pending: a write still in flight keeps the socket open")
    func afterReadingAndWritingWaitsForWrite() {
        let harness = EngineHarness()
        harness.transport.sendCapacity = 2
        harness.write(bytes("abcd"), tag: 1)
        harness.disconnectAfter(reading: true, writing: true)
        harness.runPasses()
        #expect(harness.events == [.partialWrite(2, tag: 1)])
        harness.peerDrains(2)
        harness.runPasses()
        #expect(harness.events == [.partialWrite(2, tag: 1), .wrote(tag: 1), .disconnected])
    }
}
