import AsyncSocketCore
import EngineTestSupport
import Foundation
import Testing

@Suite("Engine: gathered writes (one send for several writes, reported write by write)")
struct GatherTests {
    @Test(
        "gathered writes stay behind the current one, stop at the limits and at a TLS marker, and become current in order"
    )
    func gatherOrder() {
        let engine = SocketEngine()
        _ = engine.enqueueWrite(Data("ab".utf8), timeout: -1, tag: 1)
        _ = engine.enqueueWrite(Data("cd".utf8), timeout: 5, tag: 2)
        _ = engine.enqueueWrite(Data("ef".utf8), timeout: -1, tag: 3)
        _ = engine.enqueueTLS(settings: 0, semantics: .legacy)
        _ = engine.enqueueWrite(Data("gh".utf8), timeout: -1, tag: 4)
        #expect(engine.nextWrite() == .start(timeout: nil))
        #expect(engine.gatherQueuedWrites(byteLimit: 1000, itemLimit: 2) == 4)
        #expect(engine.gatheredCount == 1)
        #expect(engine.gatherQueuedWrites(byteLimit: 3, itemLimit: 64) == 4)
        #expect(engine.gatherQueuedWrites(byteLimit: 1000, itemLimit: 64) == 6)
        #expect(engine.gatheredCount == 2)
        #expect(engine.queuedWriteCount == 4)
        #expect(!engine.disconnectAfter(reading: false, writing: true))

        // One "send" took 5 of the 6 bytes: the passes hand them out write by write.
        let transport = ScriptedTransport()
        transport.sendCapacity = 5
        #expect(engine.runWritePass(transportWritable: true, transport: transport).completedTag == 1)
        #expect(engine.nextWrite() == .start(timeout: 5))
        #expect(engine.writeProgress.tag == 2)
        #expect(engine.runWritePass(transportWritable: true, transport: transport).completedTag == 2)
        #expect(engine.nextWrite() == .start(timeout: nil))
        let partial = engine.runWritePass(transportWritable: true, transport: transport)
        #expect(partial.partialLength == 1 && partial.partialTag == 3 && partial.waitsForWritable)
        #expect(transport.written == Array("abcde".utf8))
        #expect(engine.gatheredCount == 0)
        #expect(!engine.disconnectConditionHolds)
    }

    @Test("an error close and a reset drop the gathered writes")
    func gatheredDropped() {
        let engine = SocketEngine()
        _ = engine.enqueueWrite(Data("ab".utf8), timeout: -1, tag: 1)
        _ = engine.enqueueWrite(Data("cd".utf8), timeout: -1, tag: 2)
        _ = engine.nextWrite()
        engine.gatherQueuedWrites(byteLimit: 100, itemLimit: 64)
        engine.prepareErrorClose()
        #expect(engine.gatheredCount == 0 && engine.isIdle)
        _ = engine.enqueueWrite(Data("ef".utf8), timeout: -1, tag: 3)
        _ = engine.enqueueWrite(Data("gh".utf8), timeout: -1, tag: 4)
        _ = engine.nextWrite()
        #expect(engine.gatherQueuedWrites(byteLimit: 100, itemLimit: 64) == 4)
        engine.reset()
        #expect(engine.gatheredCount == 0 && engine.isIdle)
    }
}
