import AsyncSocketKit
import Foundation
import SocketTestSupport
import Testing

// QueueSocket shares one array for the common line ends (LF, CRLF, CR, NUL) instead of copying the
// separator per read (SeparatorBytes.swift); every other separator is copied. Each kind, and a
// separator handed over as a slice of a larger Data, must still split the stream exactly.
@Suite("QueueSocket: reads to every kind of separator")
struct QueueSeparatorReadTests {
    @Test(
        "each read ends with its separator, and no byte is lost or repeated",
        arguments: [
            ("LF", Data([0x0A])), ("CRLF", Data([0x0D, 0x0A])), ("CR", Data([0x0D])), ("NUL", Data([0x00])),
            ("one other byte", Data("x".utf8)), ("LF CR (not CRLF)", Data([0x0A, 0x0D])),
            ("CRLF CRLF", Data("\r\n\r\n".utf8)), ("CRLF as a slice", Data("ab\r\n".utf8).suffix(2)),
        ])
    func readsToSeparator(name: String, separator: Data) throws {
        let pair = try QueuePair()
        defer { pair.tearDown() }
        let records = ["alpha", "b", "", "gamma delta"].map { Data($0.utf8) + separator }
        for (tag, _) in records.enumerated() {
            pair.client.readData(to: separator, withTimeout: 10, tag: tag)
        }
        pair.child.write(records.reduce(Data(), +), withTimeout: 10, tag: 0)
        let reads = {
            pair.recorder.events("client").filter { if case .read = $0 { true } else { false } }
        }
        #expect(pair.recorder.wait { reads().count == records.count }, "\(name)")
        #expect(reads() == records.enumerated().map { .read($0.element, tag: $0.offset) })
    }
}
