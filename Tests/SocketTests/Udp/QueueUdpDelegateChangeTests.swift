import AsyncSocketKit
import Dispatch
import Foundation
import SocketTestSupport
import Testing

// A delegate call goes to the delegate and queue of the moment the socket made it, as GCDAsyncUdpSocket
// captured them in each block (QueueUdpSocket+Delegate.swift): a change moves later calls only.

@Suite("QueueUdpSocket: a new delegate or delegate queue takes the calls made after it, and only those")
struct QueueUdpDelegateChangeTests {
    @Test(
        "datagrams and send reports go to the delegate of their moment, each on its queue; with no delegate, datagrams are dropped and not left pending"
    )
    func callsFollowTheDelegateOfTheirMoment() async throws {
        try await onNewThread {
            let first = QueueUdpRecorder()
            let second = QueueUdpRecorder()
            let socket = QueueUdpSocket(delegate: first, delegateQueue: first.queue)
            try socket.bind(toPort: 0, interface: "127.0.0.1")
            try socket.beginReceiving()
            let peer = UdpPeer()
            for text in ["a1", "a2"] { peer.send(bytes(text), to: socket.localPort) }
            #expect(first.wait(for: 2))

            socket.synchronouslySetDelegate(second, delegateQueue: second.queue)
            peer.send(bytes("b1"), to: socket.localPort)
            socket.send(Data("x".utf8), toHost: "127.0.0.1", port: peer.port, withTimeout: -1, tag: 5)
            #expect(second.wait(for: 2))
            #expect(Set(second.events) == ["received b1 from 127.0.0.1", "sent 5"])

            // With no delegate: two datagrams wait in the kernel while receiving is paused, then are read
            // (the queue empties) and dropped.
            socket.synchronouslySetDelegate(nil, delegateQueue: second.queue)
            socket.pauseReceiving()
            let fd = try #require(socket.descriptors.first)
            #expect(socket.isIPv4, "a call through the socket queue: the pause has run")
            #expect(sendAndWaitQueued(count: 2, on: fd) { peer.send(bytes("c\($0)"), to: socket.localPort) })
            try socket.beginReceiving()
            #expect(waitUntil { receiveQueueMemory(of: fd) == 0 })
            socket.synchronouslySetDelegate(first, delegateQueue: first.queue)
            peer.send(bytes("d1"), to: socket.localPort)
            #expect(first.wait(for: 3))
            first.queue.sync {}  // the delivering block is over: its datagram no longer pending
            #expect(
                first.events == [
                    "received a1 from 127.0.0.1", "received a2 from 127.0.0.1", "received d1 from 127.0.0.1",
                ])
            #expect(second.events.count == 2)
            #expect(socket.pendingDatagramCount == 0)
            #expect(first.callsOffQueue == 0 && second.callsOffQueue == 0)
            socket.close()
        }
    }
}
