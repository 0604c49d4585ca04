import AsyncSocketKit
import Foundation
import Testing

@Suite("UdpOperations: the queue and close-after rules of the run-loop UDP socket, without I/O")
struct UdpOperationsTests {
    private static func send(_ tag: Int) -> UdpSend {
        UdpSend(data: Data([1]), destination: nil, timeout: -1, tag: tag)
    }

    @Test("one current operation per direction, first in first out")
    func fifo() {
        var operations = UdpOperations()
        let queued = [operations.enqueue(Self.send(1)), operations.enqueue(Self.send(2))]
        #expect(queued == [true, true])
        let first = operations.startNextSend()?.tag
        let whileCurrent = operations.startNextSend()
        let finished = operations.finishSend()?.tag
        let second = operations.startNextSend()?.tag
        #expect(first == 1 && whileCurrent == nil && finished == 1 && second == 2)
        let receiveQueued = operations.enqueue(UdpReceive(timeout: 1, tag: 7))
        let receive = operations.startNextReceive()?.tag
        let receiveWhileCurrent = operations.startNextReceive()
        #expect(receiveQueued && receive == 7 && receiveWhileCurrent == nil)
    }

    /// (close after sending, close after receiving, a send pending, a receive pending) → close due.
    static let closeTable: [(Bool, Bool, Bool, Bool, Bool)] = [
        (true, false, false, false, true), (true, false, false, true, true), (true, false, true, false, false),
        (true, false, true, true, false), (false, true, false, false, true), (false, true, true, false, true),
        (false, true, false, true, false), (false, true, true, true, false), (true, true, false, false, true),
        (true, true, true, false, false), (true, true, false, true, false), (true, true, true, true, false),
    ]

    @Test("a close-after call is due exactly when the queues it names are empty", arguments: closeTable)
    func closeDue(row: (Bool, Bool, Bool, Bool, Bool)) {
        let (afterSending, afterReceiving, sendPending, receivePending, due) = row
        var operations = UdpOperations()
        if sendPending { _ = operations.enqueue(Self.send(1)) }
        if receivePending { _ = operations.enqueue(UdpReceive(timeout: 1, tag: 2)) }
        #expect(!operations.closeIsDue, "nothing is due before a close-after call")
        operations.closeAfter(sending: afterSending, receiving: afterReceiving)
        #expect(operations.closeIsDue == due)
        let refused = [operations.enqueue(Self.send(3)), operations.enqueue(UdpReceive(timeout: 1, tag: 4))]
        #expect(refused == [false, false])
    }

    @Test("a current operation counts as pending until it finishes")
    func currentIsPending() {
        var operations = UdpOperations()
        _ = operations.enqueue(Self.send(1))
        _ = operations.startNextSend()
        operations.closeAfter(sending: true, receiving: false)
        #expect(!operations.closeIsDue)
        operations.finishSend()
        #expect(operations.closeIsDue)
    }

    @Test("removeAll drops everything and refuses new work")
    func removeAll() {
        var operations = UdpOperations()
        _ = operations.enqueue(Self.send(1))
        _ = operations.enqueue(UdpReceive(timeout: 1, tag: 2))
        _ = operations.startNextReceive()
        operations.removeAll()
        #expect(!operations.hasSends && !operations.hasReceives && operations.currentReceive == nil)
        let refused = operations.enqueue(Self.send(3))
        #expect(!refused)
    }
}
