import AsyncSocketKit
import CAsyncSocketShims
import Foundation
import SocketTestSupport
import Testing

// Receive coalescing (`UDP_GRO`, `enableReceiveCoalescing(_:)`): a sender that cuts its bytes with
// `UDP_SEGMENT` reaches a coalescing socket on loopback as one buffer; the delegate still sees each
// datagram as sent. The sender here is a plain socket with `UDP_SEGMENT` set, so each `send` is one
// buffer of the segments below; the datagrams are queued in the kernel before the receiver reads, so
// what one read takes does not depend on timing.

@Suite("UDP receive coalescing (UDP_GRO): one buffer read, each datagram handed over as sent")
struct UdpReceiveCoalescingTests {
    /// 5 datagrams of 100 bytes and one of 40, each byte its offset modulo 251.
    static let payload = Data((0..<540).map { UInt8($0 % 251) })
    static let segment = 100

    static var datagrams: [Data] {
        stride(from: 0, to: payload.count, by: segment).map { payload[$0..<min($0 + segment, payload.count)] }
            .map { Data($0) }
    }

    /// A peer whose every send leaves as datagrams of ``segment`` bytes (`UDP_SEGMENT`: 103 at `SOL_UDP`,
    /// 17, in netinet/udp.h, which Glibc does not bring into Swift).
    static func segmentingPeer() -> UdpPeer {
        let peer = UdpPeer()
        var size = Int32(segment)
        #expect(setsockopt(peer.fd, 17, 103, &size, socklen_t(MemoryLayout<Int32>.size)) == 0)
        return peer
    }

    /// Sends ``payload`` once from `peer` to `port` and waits until it waits on `fd` as one buffer.
    static func sendCoalesced(from peer: UdpPeer, to port: UInt16, queuedOn fd: Int32) -> Bool {
        sendAndWaitQueued(count: 1, on: fd) { _ in peer.send(Array(payload), to: port) }
    }

    /// A `QueueUdpSocket` bound to 127.0.0.1 with coalescing on, its recorder and its descriptor.
    static func coalescingQueueSocket() throws -> (QueueUdpRecorder, QueueUdpSocket, Int32) {
        let recorder = QueueUdpRecorder()
        let socket = QueueUdpSocket(delegate: recorder, delegateQueue: recorder.queue)
        try socket.bind(toPort: 0, interface: "127.0.0.1")
        try socket.enableReceiveCoalescing(true)
        return (recorder, socket, try #require(socket.descriptors.first))
    }

    @Test(
        "the reader: one recvmmsg takes the buffer, each datagram is handed out in order with its sender; a limit applies to each"
    )
    func readerSplitsBuffer() async throws {
        try await onNewThread {
            let receiver = UdpPeer()
            _ = fcntl(receiver.fd, F_SETFL, fcntl(receiver.fd, F_GETFL) | O_NONBLOCK)
            #expect(ask_set_receive_coalescing(receiver.fd, 1) == 0)
            let peer = Self.segmentingPeer()
            let reader = DatagramReader(readingAhead: false)
            reader.coalescing = true
            #expect(Self.sendCoalesced(from: peer, to: receiver.port, queuedOn: receiver.fd))
            var got: [Data] = []
            while case .datagram(let data, let sender, _) = reader.receive(receiver.fd, maxSize: 65_535) {
                #expect(sender.port == peer.port)
                got.append(data)
                if got.count == 1 {
                    #expect(receiveQueueMemory(of: receiver.fd) == 0, "the whole buffer left with the first read")
                    #expect(reader.holdsDatagrams && reader.heldDescriptor == receiver.fd)
                }
            }
            #expect(got == Self.datagrams)
            #expect(!reader.holdsDatagrams)

            #expect(Self.sendCoalesced(from: peer, to: receiver.port, queuedOn: receiver.fd))
            var results: [String] = []
            for _ in 0..<7 {
                switch reader.receive(receiver.fd, maxSize: 90) {
                case .datagram(let data, _, _): results.append("datagram \(data.count)")
                case .tooLarge(let size, _): results.append("too large \(size)")
                case .wouldBlock: results.append("would block")
                case .failed(let code): results.append("failed \(code)")
                }
            }
            #expect(results == Array(repeating: "too large 100", count: 5) + ["datagram 40", "would block"])

            #expect(Self.sendCoalesced(from: peer, to: receiver.port, queuedOn: receiver.fd))
            _ = reader.receive(receiver.fd, maxSize: 65_535)
            reader.discardHeld(from: receiver.fd)
            #expect(!reader.holdsDatagrams)
        }
    }

    @Test("QueueUdpSocket: continuous receiving delivers each datagram of a coalesced buffer, in order")
    func queueSocketContinuous() async throws {
        try await onNewThread {
            let (recorder, socket, fd) = try Self.coalescingQueueSocket()
            let peer = Self.segmentingPeer()
            #expect(Self.sendCoalesced(from: peer, to: socket.localPort, queuedOn: fd))
            try socket.beginReceiving()
            #expect(recorder.wait(for: 6))
            #expect(recorder.datagrams.map(\.data) == Self.datagrams)
            #expect(recorder.datagrams.allSatisfy { QueueUdpRecorder.port(of: $0.address) == peer.port })
            socket.close()
        }
    }

    @Test(
        "QueueUdpSocket: receiveOnce takes one datagram of the buffer; the next receiveOnce delivers the next one held, with nothing left in the kernel"
    )
    func queueSocketOnce() async throws {
        try await onNewThread {
            let (recorder, socket, fd) = try Self.coalescingQueueSocket()
            #expect(Self.sendCoalesced(from: Self.segmentingPeer(), to: socket.localPort, queuedOn: fd))
            for count in 1...6 {
                try socket.receiveOnce()
                #expect(recorder.wait(for: count))
                #expect(receiveQueueMemory(of: fd) == 0)
            }
            #expect(recorder.datagrams.map(\.data) == Self.datagrams)
            socket.close()
        }
    }

    @Test(
        "RunLoopUdpSocket: each queued receive completes with one datagram of the buffer, in order",
        arguments: RunLoopSocket.Engine.allCases)
    func runLoopSocket(engine: RunLoopSocket.Engine) async throws {
        try await onNewThread {
            let recorder = UdpRecorder()
            let socket = RunLoopUdpSocket(delegate: recorder, families: .ipv4Only, engine: engine)
            try socket.bind(toAddress: "127.0.0.1", port: 0)
            try socket.enableReceiveCoalescing(true)
            let fd = try #require(socket.descriptors.first)
            let peer = Self.segmentingPeer()
            #expect(Self.sendCoalesced(from: peer, to: socket.localPort, queuedOn: fd))
            for tag in 1...6 { socket.receive(withTimeout: 5, tag: tag) }
            #expect(runUntil { recorder.received.count == 6 })
            #expect(recorder.received.map(\.data) == Self.datagrams)
            #expect(recorder.received.map(\.tag) == Array(1...6))
            #expect(recorder.received.allSatisfy { $0.port == peer.port })
            socket.close()
        }
    }
}
