import AsyncSocketCore
import EngineTestSupport
import Foundation
import SocketTestSupport
import Testing

@Suite("Engine: writes, end of stream and unread data")
struct WriteAndCloseTests {
    @Test("writes go out FIFO with one partial report per pass of that pass's bytes")
    func partialWrites() {
        let harness = EngineHarness()
        harness.transport.sendCapacity = 3
        harness.write(bytes("hello"), tag: 1)
        harness.write(bytes("world"), tag: 2)
        harness.runPasses()
        harness.peerDrains(1)
        harness.peerDrains(100)
        harness.runPasses()
        #expect(
            harness.events == [
                .partialWrite(3, tag: 1), .partialWrite(1, tag: 1), .wrote(tag: 1), .wrote(tag: 2),
            ])
        #expect(harness.transport.written == bytes("helloworld"))
    }

    @Test("a transport error mid-write closes with it")
    func writeError() {
        let harness = EngineHarness()
        harness.transport.sendCapacity = 0
        harness.write(bytes("x"), tag: 1)
        harness.runPasses()
        #expect(harness.events.isEmpty)
        harness.engine.beginWritePass(transportWritable: true)
        harness.engine.transportWrote(.failed(32))
        guard case .finished(let result) = harness.engine.nextWriteStep() else {
            Issue.record("expected the pass to end")
            return
        }
        #expect(result.failure == .transport(32))
    }

    @Test("unreadData = the current read's bytes, then the prebuffer, then what the transport still holds")
    func unreadDataComposition() {
        let harness = EngineHarness(readChunk: 8)
        harness.read(.separator(bytes("\n"), maxLength: 0), tag: 1)
        harness.read(.separator(bytes("#"), maxLength: 0), timeout: 1, tag: 2)
        harness.runPasses()
        harness.feed("line\npartial-and-more-in-kernel")
        harness.runPasses()
        harness.advance(by: 1)
        #expect(harness.events.first == .read(bytes("line\n"), tag: 1))
        #expect(harness.events.last == .closed(.readTimeout))
        #expect(harness.unreadAtClose == bytes("partial-and-more-in-kernel"))
    }

    @Test("the peer's clean close: queued reads still get what was read ahead, then the close")
    func endOfStreamAfterPrebuffer() {
        let harness = EngineHarness()
        harness.read(.separator(bytes("\n"), maxLength: 0), tag: 1)
        harness.read(.separator(bytes("\n"), maxLength: 0), tag: 2)
        harness.read(.separator(bytes("\n"), maxLength: 0), tag: 3)
        harness.runPasses()
        harness.feed("a\nb\nc")
        harness.runPasses()
        harness.peerCloses()
        harness.runPasses()
        #expect(
            harness.events == [
                .read(bytes("a\n"), tag: 1), .read(bytes("b\n"), tag: 2), .partialRead(1, tag: 3),
                .closed(.failure(.endOfStream)),
            ])
        #expect(harness.unreadAtClose == bytes("c"))
    }

    @Test("a transport error mid-read: partial report, then the error close")
    func readError() {
        let harness = EngineHarness()
        harness.read(.length(10), tag: 1)
        harness.runPasses()
        harness.feed("abc")
        harness.transportFails(104)
        #expect(harness.events == [.partialRead(3, tag: 1), .closed(.failure(.transport(104)))])
        #expect(harness.unreadAtClose == bytes("abc"))
    }
}
