import AsyncSocketKit
import Foundation
import SocketTestSupport
import Testing

// The datagram reader over a real loopback socket (a plain one, made non-blocking), then the read-ahead
// as RunLoopUdpSocket's delegate sees it. Every test queues its datagrams in the kernel first and waits
// until they are all there (sendAndWaitQueued), so what one read takes does not depend on timing.

@Suite("DatagramReader: recvmmsg read-ahead, handed out one datagram at a time")
struct DatagramReaderTests {
    /// A bound IPv4 socket to receive on, non-blocking as the sockets' descriptors are.
    private static func receiver() -> UdpPeer {
        let socket = UdpPeer()
        _ = fcntl(socket.fd, F_SETFL, fcntl(socket.fd, F_GETFL) | O_NONBLOCK)
        return socket
    }

    private static func text(_ result: UdpDescriptor.ReceiveResult) -> String {
        switch result {
        case .datagram(let data, let sender, _): "\(String(decoding: data, as: UTF8.self)) from \(sender.port)"
        case .tooLarge(let size, let sender): "too large \(size) from \(sender.port)"
        case .wouldBlock: "would block"
        case .failed(let code): "failed \(code)"
        }
    }

    @Test(
        "reading ahead: one recvmmsg takes what waits, up to slots that double from one and go back to one when none waits; handed out in arrival order"
    )
    func readsAheadInOrder() async throws {
        try await onNewThread {
            let receiver = Self.receiver()
            let peers = [UdpPeer(), UdpPeer()]
            #expect(
                sendAndWaitQueued(count: 7, on: receiver.fd) { index in
                    peers[index % 2].send(bytes("d\(index)"), to: receiver.port)
                })
            let reader = DatagramReader(readingAhead: true)
            var got: [String] = []
            var held: [Bool] = []
            for _ in 0..<8 {
                got.append(Self.text(reader.receive(receiver.fd, maxSize: 9216)))
                held.append(reader.holdsDatagrams)
                if got.count == 4 {
                    // The fourth call read the last four datagrams at once: none is left in the kernel.
                    #expect(kernelPending(receiver.fd).isEmpty)
                }
            }
            let ports = peers.map(\.port)
            #expect(got == (0..<7).map { "d\($0) from \(ports[$0 % 2])" } + ["would block"])
            // Reads of 1, 2 and 4 datagrams: after each read's first one, the rest of it is held.
            #expect(held == [false, true, false, true, true, true, false, false])
            // The read that found nothing took the slots back to one.
            #expect(
                sendAndWaitQueued(count: 2, on: receiver.fd) { peers[0].send(bytes("e\($0)"), to: receiver.port) })
            #expect(Self.text(reader.receive(receiver.fd, maxSize: 9216)) == "e0 from \(ports[0])")
            #expect(!reader.holdsDatagrams)
            #expect(kernelPending(receiver.fd) == bytes("e1"))
        }
    }

    @Test("without read-ahead (QueueUdpSocket's reader) each call takes one datagram; the rest stay in the kernel")
    func oneAtATime() async throws {
        try await onNewThread {
            let receiver = Self.receiver()
            let peer = UdpPeer()
            #expect(sendAndWaitQueued(count: 3, on: receiver.fd) { peer.send(bytes("d\($0)"), to: receiver.port) })
            let reader = DatagramReader(readingAhead: false)
            for index in 0..<3 {
                #expect(Self.text(reader.receive(receiver.fd, maxSize: 9216)) == "d\(index) from \(peer.port)")
                #expect(!reader.holdsDatagrams)
                #expect(kernelPending(receiver.fd) == (index < 2 ? bytes("d\(index + 1)") : []))
            }
        }
    }

    @Test(
        "a datagram read ahead is checked against the limit when it is handed out: lowered meanwhile, it is reported too large"
    )
    func limitCheckedWhenHandedOut() async throws {
        try await onNewThread {
            let receiver = Self.receiver()
            let peer = UdpPeer()
            #expect(
                sendAndWaitQueued(count: 3, on: receiver.fd) {
                    peer.send([UInt8](repeating: UInt8(65 + $0), count: 100), to: receiver.port)
                })
            let reader = DatagramReader(readingAhead: true)
            #expect(Self.text(reader.receive(receiver.fd, maxSize: 9216)).hasSuffix("from \(peer.port)"))
            #expect(Self.text(reader.receive(receiver.fd, maxSize: 9216)).hasPrefix("BBBB"))
            #expect(reader.holdsDatagrams)
            #expect(Self.text(reader.receive(receiver.fd, maxSize: 50)) == "too large 100 from \(peer.port)")
            #expect(Self.text(reader.receive(receiver.fd, maxSize: 9216)) == "would block")
        }
    }

    @Test("a datagram larger than the slot a read gave it is reported too large however high the limit is raised after")
    func cutInItsSlot() async throws {
        try await onNewThread {
            let receiver = Self.receiver()
            let peer = UdpPeer()
            #expect(
                sendAndWaitQueued(count: 3, on: receiver.fd) { _ in
                    peer.send([UInt8](repeating: 65, count: 100), to: receiver.port)
                })
            let reader = DatagramReader(readingAhead: true)
            #expect(Self.text(reader.receive(receiver.fd, maxSize: 100)).hasSuffix("from \(peer.port)"))
            // Read with slots of 60 bytes: both datagrams are cut there, so neither is handed out cut.
            #expect(Self.text(reader.receive(receiver.fd, maxSize: 60)) == "too large 100 from \(peer.port)")
            #expect(Self.text(reader.receive(receiver.fd, maxSize: 9216)) == "too large 100 from \(peer.port)")
        }
    }

    @Test("what was read ahead from a descriptor that closes is dropped; what was read from another is kept")
    func discardedWithItsDescriptor() async throws {
        try await onNewThread {
            let receiver = Self.receiver()
            let peer = UdpPeer()
            #expect(sendAndWaitQueued(count: 3, on: receiver.fd) { peer.send(bytes("d\($0)"), to: receiver.port) })
            let reader = DatagramReader(readingAhead: true)
            _ = reader.receive(receiver.fd, maxSize: 9216)
            _ = reader.receive(receiver.fd, maxSize: 9216)
            #expect(reader.holdsDatagrams)
            reader.discardHeld(from: receiver.fd + 1000)
            #expect(reader.holdsDatagrams)
            reader.discardHeld(from: receiver.fd)
            #expect(!reader.holdsDatagrams)
            #expect(Self.text(reader.receive(receiver.fd, maxSize: 9216)) == "would block")
        }
    }
}

@Suite("RunLoopUdpSocket: datagrams read ahead reach the receives queued later")
struct RunLoopUdpReadAheadTests {
    @Test(
        "in order, each with its sender and its receive's tag; one held when maxReceiveBufferSize is lowered is EMSGSIZE, the socket open",
        arguments: RunLoopSocket.Engine.allCases)
    func heldDatagramsReachLaterReceives(engine: RunLoopSocket.Engine) async throws {
        try await onNewThread {
            let recorder = UdpRecorder()
            let socket = RunLoopUdpSocket(delegate: recorder, engine: engine)
            try socket.bind(toAddress: "127.0.0.1", port: 0)
            let peers = [UdpPeer(), UdpPeer()]
            let fd = try #require(socket.descriptors.first)
            #expect(
                sendAndWaitQueued(count: 6, on: fd) { index in
                    peers[index % 2].send(bytes("d\(index)"), to: socket.localPort)
                })
            // One receive at a time, each queued after the one before completed: reads of 1, 2 and 4.
            for tag in 0..<2 {
                socket.receive(withTimeout: 10, tag: tag)
                #expect(runUntil { recorder.events.count == tag + 1 })
            }
            // "d2" waits in the socket, read with "d1" (the kernel's next is "d3"): lowered below its
            // size, the limit refuses it.
            #expect(kernelPending(fd) == bytes("d3"))
            socket.maxReceiveBufferSize = 1
            socket.receive(withTimeout: 10, tag: 2)
            #expect(runUntil { recorder.events.count == 3 })
            socket.maxReceiveBufferSize = 9216
            for tag in 3..<6 {
                socket.receive(withTimeout: 10, tag: tag)
                #expect(runUntil { recorder.events.count == tag + 1 })
            }
            #expect(
                recorder.events == [
                    "receive 0 d0 from 127.0.0.1", "receive 1 d1 from 127.0.0.1",
                    "not-receive 2 \(NSPOSIXErrorDomain) \(EMSGSIZE)", "receive 3 d3 from 127.0.0.1",
                    "receive 4 d4 from 127.0.0.1", "receive 5 d5 from 127.0.0.1",
                ])
            #expect(recorder.received.map(\.port) == [0, 1, 3, 4, 5].map { peers[$0 % 2].port })
            #expect(!socket.isClosed)
        }
    }
}
