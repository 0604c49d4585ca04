import AsyncSocketKit
import Dispatch
import Foundation
import SocketTestSupport
import Testing

/// A delegate that records every callback with a ``QueueUdpRecorder`` and answers each datagram with
/// `answer`, on the delegate queue, as an echo server does.
private final class AnsweringDelegate: QueueUdpSocketDelegate, Sendable {
    let recorder = QueueUdpRecorder()
    let answer: @Sendable (QueueUdpSocket, Data, Data) -> Void

    init(answer: @escaping @Sendable (QueueUdpSocket, Data, Data) -> Void) {
        self.answer = answer
    }

    func udpSocket(_ sock: QueueUdpSocket, didSendDataWithTag tag: Int) {
        recorder.udpSocket(sock, didSendDataWithTag: tag)
    }

    func udpSocket(_ sock: QueueUdpSocket, didNotSendDataWithTag tag: Int, dueToError error: (any Error)?) {
        recorder.udpSocket(sock, didNotSendDataWithTag: tag, dueToError: error)
    }

    func udpSocket(
        _ sock: QueueUdpSocket, didReceive data: Data, fromAddress address: Data,
        withFilterContext filterContext: (any Sendable)?
    ) {
        recorder.udpSocket(sock, didReceive: data, fromAddress: address, withFilterContext: filterContext)
        answer(sock, data, address)
    }

    func udpSocketDidClose(_ sock: QueueUdpSocket, withError error: (any Error)?) {
        recorder.udpSocketDidClose(sock, withError: error)
    }

    /// A socket with this delegate (on the recorder's queue), bound to 127.0.0.1, receiving.
    func receivingSocket() throws -> QueueUdpSocket {
        let socket = QueueUdpSocket(delegate: self, delegateQueue: recorder.queue)
        try socket.bind(toPort: 0, interface: "127.0.0.1")
        try socket.beginReceiving()
        return socket
    }
}

/// The sends a delegate makes while datagrams are delivered to it wait for the batch to end and leave
/// together (QueueUdpSocket+Batching.swift): nothing may change order, go missing or overtake them.
@Suite("QueueUdpSocket: sends made while a batch of datagrams is delivered, and datagrams sent together")
struct QueueUdpBatchingTests {
    @Test(
        "each datagram answered from didReceive: every answer arrives in order, each reported once, after its datagram")
    func answersInOrder() async throws {
        try await onNewThread {
            let delegate = AnsweringDelegate { sock, data, address in
                let number = Int(String(decoding: data, as: UTF8.self))!
                sock.send(Data("answer \(number)".utf8), toAddress: address, withTimeout: 5, tag: number)
            }
            let socket = try delegate.receivingSocket()
            let peer = UdpPeer()
            let count = 40
            for number in 0..<count { peer.send(bytes("\(number)"), to: socket.localPort) }
            for number in 0..<count {
                let answer = peer.receive()
                #expect(answer?.bytes == bytes("answer \(number)") && answer?.port == socket.localPort)
            }
            #expect(delegate.recorder.wait(for: 2 * count))
            let events = delegate.recorder.events
            #expect(events.filter { $0.hasPrefix("sent") } == (0..<count).map { "sent \($0)" })
            for number in 0..<count {
                let received = events.firstIndex(of: "received \(number) from 127.0.0.1")
                let sent = events.firstIndex(of: "sent \(number)")
                #expect(received != nil && sent != nil && received! < sent!)
            }
            socket.close()
        }
    }

    @Test("sends made in didReceive before close() leave first, from the socket's port, reported before the close")
    func closeAfterAnswers() async throws {
        try await onNewThread {
            let delegate = AnsweringDelegate { sock, _, address in
                for tag in 1...3 {
                    sock.send(Data("answer \(tag)".utf8), toAddress: address, withTimeout: 5, tag: tag)
                }
                sock.close()
            }
            let socket = try delegate.receivingSocket()
            let port = socket.localPort
            let peer = UdpPeer()
            peer.send(bytes("close"), to: port)
            for tag in 1...3 {
                let answer = peer.receive()
                #expect(answer?.bytes == bytes("answer \(tag)") && answer?.port == port)
            }
            #expect(delegate.recorder.wait(for: 5))
            #expect(
                delegate.recorder.events == ["received close from 127.0.0.1", "sent 1", "sent 2", "sent 3", "closed"])
            #expect(socket.isClosed)  // no send after the close made the descriptors again
        }
    }

    @Test(
        "a close() handed to another thread after a send in didReceive: the send leaves first and the socket stays closed"
    )
    func closeOnAnotherThreadAfterAnswer() async throws {
        try await onNewThread {
            let delegate = AnsweringDelegate { sock, _, address in
                sock.send(Data("answer".utf8), toAddress: address, withTimeout: 5, tag: 1)
                // The close runs, and returns, while this callback still holds the send back.
                let done = DispatchSemaphore(value: 0)
                DispatchQueue.global().async {
                    sock.close()
                    done.signal()
                }
                done.wait()
            }
            let socket = try delegate.receivingSocket()
            let port = socket.localPort
            let peer = UdpPeer()
            peer.send(bytes("close"), to: port)
            let answer = peer.receive()
            #expect(answer?.bytes == bytes("answer") && answer?.port == port)
            #expect(delegate.recorder.wait(for: 3))
            #expect(delegate.recorder.events == ["received close from 127.0.0.1", "sent 1", "closed"])
            #expect(socket.isClosed)  // the held send did not make the descriptors again after the close
        }
    }

    @Test(
        "one batch's sends to both families and to a name that needs a lookup keep their order, per peer and in the reports"
    )
    func mixedDestinations() async throws {
        try await onNewThread {
            let four = UdpPeer()
            let six = UdpPeer(ipv6: true)
            let (fourPort, sixPort) = (four.port, six.port)
            let delegate = AnsweringDelegate { sock, _, _ in
                sock.send(Data("a1".utf8), toHost: "127.0.0.1", port: fourPort, withTimeout: 5, tag: 1)
                sock.send(Data("b1".utf8), toHost: "::1", port: sixPort, withTimeout: 5, tag: 2)
                sock.send(Data("a2".utf8), toHost: "localhost", port: fourPort, withTimeout: 5, tag: 3)
                sock.send(Data("a3".utf8), toHost: "127.0.0.1", port: fourPort, withTimeout: 5, tag: 4)
                sock.send(Data("a4".utf8), toHost: "127.0.0.1", port: fourPort, withTimeout: 5, tag: 5)
                sock.send(Data("b2".utf8), toHost: "::1", port: sixPort, withTimeout: 5, tag: 6)
                sock.send(Data("b3".utf8), toHost: "::1", port: sixPort, withTimeout: 5, tag: 7)
            }
            let socket = QueueUdpSocket(delegate: delegate, delegateQueue: delegate.recorder.queue)
            socket.setPreferIPv4()
            try socket.bind(toPort: 0, interface: "lo")
            #expect(socket.isIPv4 && socket.isIPv6)
            try socket.beginReceiving()
            UdpPeer().send(bytes("go"), to: socket.localPortIPv4)
            #expect((0..<4).map { _ in four.receive()?.bytes } == ["a1", "a2", "a3", "a4"].map(bytes))
            #expect((0..<3).map { _ in six.receive()?.bytes } == ["b1", "b2", "b3"].map(bytes))
            #expect(delegate.recorder.wait(for: 8))
            #expect(delegate.recorder.events.dropFirst() == ArraySlice((1...7).map { "sent \($0)" }))
            socket.close()
        }
    }

    @Test("one callback sending more datagrams than a batch or a sendmmsg holds: all arrive, in order, each reported")
    func manySendsFromOneCallback() async throws {
        try await onNewThread {
            let peer = UdpPeer()
            let target = peer.port
            let count = 150
            let delegate = AnsweringDelegate { sock, _, _ in
                for tag in 0..<count {
                    sock.send(Data("\(tag)".utf8), toHost: "127.0.0.1", port: target, withTimeout: 5, tag: tag)
                }
            }
            let socket = try delegate.receivingSocket()
            UdpPeer().send(bytes("go"), to: socket.localPort)
            #expect((0..<count).map { _ in peer.receive()?.bytes } == (0..<count).map { bytes("\($0)") })
            #expect(delegate.recorder.wait(for: count + 1))
            #expect(delegate.recorder.events.dropFirst() == ArraySlice((0..<count).map { "sent \($0)" }))
            socket.close()
        }
    }

    @Test("a concurrent delegate queue answering from didReceive: every answer arrives and is reported once")
    func concurrentDelegateQueue() async throws {
        try await onNewThread {
            let delegate = AnsweringDelegate { sock, data, address in
                let number = Int(String(decoding: data, as: UTF8.self))!
                sock.send(Data("answer \(number)".utf8), toAddress: address, withTimeout: 5, tag: number)
            }
            let queue = DispatchQueue(label: "QueueUdpBatchingTests.concurrent", attributes: .concurrent)
            let socket = QueueUdpSocket(delegate: delegate, delegateQueue: queue)
            try socket.bind(toPort: 0, interface: "127.0.0.1")
            try socket.beginReceiving()
            let peer = UdpPeer()
            let count = 200
            for number in 0..<count { peer.send(bytes("\(number)"), to: socket.localPort) }
            var answers = Set<[UInt8]>()
            for _ in 0..<count {
                guard let answer = peer.receive() else { break }
                answers.insert(answer.bytes)
            }
            #expect(answers == Set((0..<count).map { bytes("answer \($0)") }))
            #expect(delegate.recorder.wait(for: 2 * count))
            let sent = delegate.recorder.events.filter { $0.hasPrefix("sent ") }
            #expect(Set(sent) == Set((0..<count).map { "sent \($0)" }) && sent.count == count)
            socket.close()
        }
    }

    @Test(
        "sends queued from another thread while the socket is busy leave together: all arrive in order, each reported")
    func sendsQueuedElsewhere() async throws {
        try await onNewThread {
            let recorder = QueueUdpRecorder()
            let socket = QueueUdpSocket(delegate: recorder, delegateQueue: recorder.queue)
            let peer = UdpPeer()
            socket.setPreferIPv4()
            // A connect queued first keeps the datagrams behind it until its lookup is done: those queued
            // by then leave as runs (all of them, when the lookup takes longer than the sends).
            try socket.connect(toHost: "localhost", onPort: peer.port)
            let count = 100
            for tag in 0..<count {
                socket.send(Data("\(tag)".utf8), withTimeout: 5, tag: tag)
            }
            #expect((0..<count).map { _ in peer.receive()?.bytes } == (0..<count).map { bytes("\($0)") })
            #expect(recorder.wait(for: count + 1))
            #expect(recorder.events.first?.hasPrefix("connected") == true)
            #expect(recorder.events.dropFirst() == ArraySlice((0..<count).map { "sent \($0)" }))
            socket.close()
        }
    }

    @Test("sends queued on a connected socket whose peer is gone: the ICMP refusal reaches one of them as ECONNREFUSED")
    func refusalAmongQueuedSends() async throws {
        try await onNewThread {
            let recorder = QueueUdpRecorder()
            let socket = QueueUdpSocket(delegate: recorder, delegateQueue: recorder.queue)
            socket.setPreferIPv4()
            // Queued behind the connect's lookup, the sends are ready together; each still goes alone, so
            // the refusal the first one draws is not lost in a batch.
            try socket.connect(toHost: "localhost", onPort: freeUdpPort())
            let count = 20
            for tag in 0..<count {
                socket.send(Data("anyone?".utf8), withTimeout: 5, tag: tag)
            }
            #expect(recorder.wait(for: count + 1))
            let refused = "\(NSPOSIXErrorDomain) \(ECONNREFUSED)"
            #expect(
                recorder.events.contains { $0.hasPrefix("not sent ") && $0.hasSuffix(refused) }, "\(recorder.events)")
            #expect(!socket.isClosed && socket.isConnected)
            socket.close()
        }
    }
}
