import AsyncSocketCore
import EngineTestSupport
import Foundation
import SocketTestSupport
import Testing

@Suite("Engine: read kinds")
struct ReadKindTests {
    @Test("read-to-length: one partial report per pass with that pass's bytes, then the data")
    func readToLength() {
        let harness = EngineHarness()
        harness.read(.length(10), tag: 7)
        harness.runPasses()
        harness.feed("abc")
        harness.feed("defg")
        harness.feed("hijKL")
        harness.runPasses()
        #expect(
            harness.events == [
                .partialRead(3, tag: 7), .partialRead(4, tag: 7), .read(bytes("abcdefghij"), tag: 7),
            ])
        #expect(Array(harness.transport.remaining) == bytes("KL"))
    }

    @Test("read-any returns everything available at once, never partial reports, never zero bytes")
    func readAvailable() {
        let harness = EngineHarness(readChunk: 4)
        harness.read(.available(maxLength: 0), tag: 1)
        harness.runPasses()
        #expect(harness.events.isEmpty)
        harness.transport.feed(bytes("0123456789"))
        harness.feed([])
        #expect(harness.events == [.read(bytes("0123456789"), tag: 1)])
    }

    @Test(
        "read-any, GCD: the read source's estimate is taken in one read call, with no call that finds nothing after it; legacy reads until the transport has no more",
        arguments: [Semantics.gcd, .legacy])
    func readAvailableTakesEstimate(semantics: Semantics) {
        let harness = EngineHarness(semantics: semantics)
        let payload = [UInt8](repeating: 0x61, count: 5000)
        harness.read(.available(maxLength: 0), tag: 1)
        harness.runPasses()
        let callsBefore = harness.transport.readCalls
        harness.feed(payload)
        harness.runPasses()
        #expect(harness.events == [.read(payload, tag: 1)])
        // Legacy: 2 KiB (the first read's room), 2 KiB more into the buffer grown to 4 KiB, the
        // rest into 8 KiB.
        #expect(harness.transport.readCalls - callsBefore == (semantics == .gcd ? 1 : 3))
        #expect(harness.readableHint == false)
    }

    @Test("read-any, GCD: bytes that came after the estimate go to the next read, none lost")
    func readAvailableBeyondEstimate() {
        let harness = EngineHarness(semantics: .gcd)
        harness.read(.available(maxLength: 0), tag: 1)
        harness.runPasses()
        harness.transport.feed(bytes("0123456789"))
        harness.readableEvent(estimate: 4)
        harness.runPasses()
        #expect(harness.events == [.read(bytes("0123"), tag: 1)])
        #expect(Array(harness.transport.remaining) == bytes("456789"))
        harness.read(.available(maxLength: 0), tag: 2)
        harness.runPasses()
        #expect(harness.events == [.read(bytes("0123"), tag: 1), .read(bytes("456789"), tag: 2)])
    }

    @Test(
        "read-any takes at most 1 MiB; the rest goes to the reads after it, in order, none lost",
        arguments: [Semantics.legacy, .gcd])
    func readAvailableAtMostOneMiB(semantics: Semantics) {
        let harness = EngineHarness(semantics: semantics)
        var payload = [UInt8](repeating: 0x61, count: (3 << 20) + 5)
        for marked in [0, (1 << 20) - 1, 1 << 20, 2 << 20, 3 << 20, payload.count - 1] {
            payload[marked] = UInt8(truncatingIfNeeded: marked % 251)
        }
        harness.read(.available(maxLength: 0), tag: 1)
        harness.runPasses()
        harness.feed(payload)
        harness.read(.available(maxLength: 0), tag: 2)
        harness.read(.available(maxLength: 0), tag: 3)
        harness.read(.available(maxLength: 0), tag: 4)
        harness.runPasses()
        let reads = harness.events.compactMap { event -> [UInt8]? in
            if case .read(let bytes, _) = event { return bytes }
            return nil
        }
        #expect(reads.map(\.count) == [1 << 20, 1 << 20, 1 << 20, 5])
        var received = Data()
        for read in reads {
            received.append(contentsOf: read)
        }
        #expect(received == Data(payload))
    }

    @Test("read-any with maxLength takes at most maxLength and leaves the rest")
    func readAvailableMax() {
        let harness = EngineHarness()
        harness.feed("0123456789")
        harness.read(.available(maxLength: 4), tag: 1)
        harness.read(.available(maxLength: 0), tag: 2)
        harness.runPasses()
        #expect(harness.events == [.read(bytes("0123"), tag: 1), .read(bytes("456789"), tag: 2)])
    }

    @Test("read-to-data with prebuffering: bytes past the separator feed the next reads")
    func separatorWithPrebuffer() {
        let harness = EngineHarness()
        harness.read(.separator(bytes("\r\n"), maxLength: 0), tag: 1)
        harness.runPasses()
        harness.feed("one\r\ntwo\r\nthree")
        harness.runPasses()
        #expect(harness.events == [.read(bytes("one\r\n"), tag: 1)])
        #expect(harness.engine.prebufferedCount == 10)
        #expect(harness.transport.remaining.isEmpty)
        harness.read(.separator(bytes("\r\n"), maxLength: 0), tag: 2)
        harness.read(.length(3), tag: 3)
        harness.runPasses()
        #expect(
            harness.events == [
                .read(bytes("one\r\n"), tag: 1), .read(bytes("two\r\n"), tag: 2), .read(bytes("thr"), tag: 3),
            ])
    }

    @Test("read-to-data without prebuffering never takes a byte past the separator")
    func separatorByteExact() {
        let harness = EngineHarness(prebuffering: false)
        harness.read(.separator(bytes("\r\n"), maxLength: 0), tag: 1)
        harness.runPasses()
        harness.feed("one\r\ntwo\r\nthree")
        #expect(harness.events == [.read(bytes("one\r\n"), tag: 1)])
        #expect(harness.engine.prebufferedCount == 0)
        #expect(Array(harness.transport.remaining) == bytes("two\r\nthree"))
    }

    @Test(
        "a separator straddling any chunk boundary is found, with and without prebuffering",
        arguments: [true, false], [1, 2, 3, 5, 7])
    func straddlingSeparator(prebuffering: Bool, chunk: Int) {
        let harness = EngineHarness(prebuffering: prebuffering, readChunk: chunk)
        let separator = bytes("<END>")
        harness.read(.separator(separator, maxLength: 0), tag: 1)
        harness.read(.separator(separator, maxLength: 0), tag: 2)
        harness.runPasses()
        let input = bytes("<EN<E<END><<END>tail")
        for start in stride(from: 0, to: input.count, by: chunk) {
            harness.feed(Array(input[start..<min(start + chunk, input.count)]))
            harness.runPasses()
        }
        let reads = harness.events.compactMap { event -> [UInt8]? in
            if case .read(let data, _) = event { return data }
            return nil
        }
        #expect(reads == [bytes("<EN<E<END>"), bytes("<<END>")])
    }

    @Test("maxLength: a separator ending exactly at maxLength succeeds")
    func maxLengthExactHit() {
        let harness = EngineHarness()
        harness.read(.separator(bytes("\n"), maxLength: 4), tag: 1)
        harness.runPasses()
        harness.feed("abc\nrest")
        #expect(harness.events == [.read(bytes("abc\n"), tag: 1)])
    }

    @Test(
        "maxLength: the pass's partial report comes first, then readMaxedOut; never more than maxLength taken",
        arguments: [true, false])
    func maxedOut(prebuffering: Bool) {
        let harness = EngineHarness(prebuffering: prebuffering)
        harness.read(.separator(bytes("\n"), maxLength: 5), tag: 9)
        harness.runPasses()
        harness.feed("ab")
        harness.feed("cdefgh\nxyz")
        #expect(
            harness.events == [
                .partialRead(2, tag: 9), .partialRead(3, tag: 9), .closed(.failure(.readMaxedOut)),
            ])
        // Nothing lost: the maxed-out read's 5 bytes, then everything after them.
        #expect(harness.unreadAtClose == bytes("abcdefgh\nxyz"))
    }

    @Test("reads of every kind are served strictly in FIFO order")
    func fifoOfMixedKinds() {
        let harness = EngineHarness()
        harness.read(.length(2), tag: 1)
        harness.read(.separator(bytes(";"), maxLength: 0), tag: 2)
        harness.read(.available(maxLength: 3), tag: 3)
        harness.read(.length(1), tag: 4)
        harness.read(.available(maxLength: 0), tag: 5)
        harness.feed("ABcd;efghIJK")
        harness.runPasses()
        #expect(
            harness.events == [
                .read(bytes("AB"), tag: 1), .read(bytes("cd;"), tag: 2), .read(bytes("efg"), tag: 3),
                .read(bytes("h"), tag: 4), .read(bytes("IJK"), tag: 5),
            ])
    }

    @Test("a caller buffer: bytes go in at the offset, it grows as needed and is trimmed back")
    func callerBufferGrowsAndTrims() {
        let harness = EngineHarness()
        let grown = mutableData("XY")
        harness.read(.length(5), buffer: grown, offset: 2, tag: 1)
        let roomy = mutableData("0123456789")
        harness.read(.length(3), buffer: roomy, offset: 2, tag: 2)
        let exact = mutableData("ab")
        harness.read(.separator(bytes("\n"), maxLength: 0), buffer: exact, offset: 1, tag: 3)
        harness.feed("hello")
        harness.feed("abc")
        harness.feed("long line\n")
        harness.runPasses()
        #expect(grown.byteArray == bytes("XYhello"))
        #expect(roomy.byteArray == bytes("01abc56789"))
        #expect(exact.byteArray == bytes("along line\n"))
        #expect(
            harness.events == [
                .read(bytes("hello"), tag: 1), .read(bytes("abc"), tag: 2), .read(bytes("long line\n"), tag: 3),
            ])
    }

    @Test("an error close on a caller buffer trims what it grew, keeping the partial bytes in place")
    func callerBufferOnFailure() {
        let harness = EngineHarness()
        let buffer = mutableData("P")
        harness.read(.length(10), buffer: buffer, offset: 1, tag: 1)
        harness.runPasses()
        harness.feed("abc")
        harness.peerCloses()
        #expect(buffer.byteArray == bytes("Pabc"))
        #expect(harness.unreadAtClose == bytes("abc"))
        #expect(harness.events == [.partialRead(3, tag: 1), .closed(.failure(.endOfStream))])
    }
}
