import AsyncSocketCore
import EngineTestSupport
import Foundation
import SocketTestSupport
import Testing

@Suite("Engine: ignored read and write arguments")
struct ReadArgumentTests {
    struct Case: CustomTestStringConvertible, Sendable {
        let name: String
        let kind: ReadKind
        let bufferLength: Int?
        let offset: Int
        let ignored: Bool
        var testDescription: String { name }
    }

    static let cases: [Case] = [
        Case(name: "read-any", kind: .available(maxLength: 0), bufferLength: nil, offset: 0, ignored: false),
        Case(name: "nil buffer, offset 1", kind: .available(maxLength: 0), bufferLength: nil, offset: 1, ignored: true),
        Case(name: "offset == length", kind: .available(maxLength: 0), bufferLength: 4, offset: 4, ignored: false),
        Case(name: "offset past length", kind: .available(maxLength: 0), bufferLength: 4, offset: 5, ignored: true),
        Case(
            name: "maxLength 0 is unlimited", kind: .available(maxLength: 0), bufferLength: 0, offset: 0, ignored: false
        ),
        Case(name: "length 0", kind: .length(0), bufferLength: nil, offset: 0, ignored: true),
        Case(name: "length with bad offset", kind: .length(3), bufferLength: 2, offset: 3, ignored: true),
        Case(name: "empty separator", kind: .separator([], maxLength: 0), bufferLength: nil, offset: 0, ignored: true),
        Case(
            name: "maxLength shorter than separator", kind: .separator([13, 10], maxLength: 1), bufferLength: nil,
            offset: 0, ignored: true),
        Case(
            name: "maxLength equal to separator", kind: .separator([13, 10], maxLength: 2), bufferLength: nil,
            offset: 0, ignored: false),
        Case(
            name: "separator with bad offset", kind: .separator([10], maxLength: 0), bufferLength: 0, offset: 1,
            ignored: true),
    ]

    @Test("each invalid read is ignored without a callback; valid ones are queued", arguments: cases)
    func readArguments(_ testCase: Case) {
        let harness = EngineHarness()
        let buffer = testCase.bufferLength.map { NSMutableData(length: $0)! }
        let rejection = harness.read(testCase.kind, buffer: buffer, offset: testCase.offset)
        #expect((rejection != nil) == testCase.ignored)
        harness.runPasses()
        harness.feed("abc\r\n")
        harness.runPasses()
        if testCase.ignored {
            #expect(harness.events.isEmpty)
            #expect(harness.engine.queuedReadCount == 0 && harness.engine.currentRead == nil)
        } else {
            #expect(!harness.events.isEmpty)
        }
    }

    @Test("an empty write is ignored")
    func emptyWrite() {
        let harness = EngineHarness()
        #expect(harness.write([]) != nil)
        harness.runPasses()
        #expect(harness.events.isEmpty)
        #expect(harness.transport.written.isEmpty)
    }

    @Test("reads and writes after disconnectAfter… are ignored; startTLS is not")
    func forbiddenAfterDisconnectAfter() {
        let harness = EngineHarness()
        harness.read(.length(10), tag: 1)
        harness.disconnectAfter(reading: true, writing: false)
        #expect(harness.read(.length(1), tag: 2) != nil)
        #expect(harness.write(bytes("x"), tag: 3) != nil)
        harness.startTLS()
        #expect(harness.engine.queuedReadCount == 2)
        #expect(harness.engine.queuedWriteCount == 1)
    }
}
