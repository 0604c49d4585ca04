import AsyncSocketKit
import Dispatch
import Foundation
import SocketTestSupport
import Testing

@Suite("QueueUdpSocket: binding, receiving and sending datagrams over loopback, both families")
struct QueueUdpSocketTests {
    @Test("a fresh socket is closed until its descriptors exist; receiving before that is badConfig")
    func freshSocket() throws {
        let recorder = QueueUdpRecorder()
        let socket = QueueUdpSocket(delegate: recorder, delegateQueue: recorder.queue)
        #expect(socket.isClosed && socket.isIPv4 && socket.isIPv6 && !socket.isConnected)
        #expect(socket.localPort == 0 && socket.localAddress == nil && socket.descriptors.isEmpty)
        let early = #expect(throws: QueueUdpSocketError.self) { try socket.receiveOnce() }
        #expect(early?.code == .badConfig)
        socket.isIPv6Enabled = false
        #expect(socket.isIPv4 && !socket.isIPv6)
        socket.close()
        #expect(recorder.events.isEmpty)  // nothing was open: no close callback
    }

    @Test("bound to 127.0.0.1: only IPv4 opens; continuous receiving delivers each datagram, empty ones too")
    func receivesIPv4() async throws {
        try await onNewThread {
            let recorder = QueueUdpRecorder()
            let socket = QueueUdpSocket(delegate: recorder, delegateQueue: recorder.queue)
            try socket.bind(toPort: 0, interface: "127.0.0.1")
            #expect(!socket.isClosed && socket.isIPv4 && !socket.isIPv6)
            #expect(socket.localHost == "127.0.0.1" && socket.localPort != 0 && socket.localPortIPv6 == 0)
            try socket.beginReceiving()
            let peer = UdpPeer()
            for text in ["one", "", "three"] { peer.send(bytes(text), to: socket.localPort) }
            #expect(recorder.wait(for: 3))
            #expect(
                recorder.events == [
                    "received one from 127.0.0.1", "received  from 127.0.0.1", "received three from 127.0.0.1",
                ])
            #expect(
                recorder.datagrams.map { QueueUdpRecorder.port(of: $0.address) } == [peer.port, peer.port, peer.port])
            #expect(recorder.callsOffQueue == 0)
            socket.close()
        }
    }

    @Test("bound to ::1 only IPv6 opens; bound to the interface \"lo\" both do, on one port, and each receives")
    func interfaces() async throws {
        try await onNewThread {
            let recorder = QueueUdpRecorder()
            let six = QueueUdpSocket(delegate: recorder, delegateQueue: recorder.queue)
            try six.bind(toPort: 0, interface: "::1")
            #expect(!six.isIPv4 && six.isIPv6 && six.localHost == "::1")
            let both = QueueUdpSocket(delegate: recorder, delegateQueue: recorder.queue)
            try both.bind(toPort: 0, interface: "lo")
            #expect(both.isIPv4 && both.isIPv6)
            #expect(both.localPortIPv4 == both.localPortIPv6 && both.localHostIPv4 == "127.0.0.1")
            try both.beginReceiving()
            UdpPeer().send(bytes("v4"), to: both.localPortIPv4)
            UdpPeer(ipv6: true).send(bytes("v6"), to: both.localPortIPv6)
            #expect(recorder.wait(for: 2))
            #expect(Set(recorder.events) == ["received v4 from 127.0.0.1", "received v6 from ::1"])
        }
    }

    @Test("receiveOnce delivers one datagram; the next waits in the kernel for the next receiveOnce; pause keeps them")
    func receiveOnceAndPause() async throws {
        try await onNewThread {
            let recorder = QueueUdpRecorder()
            let socket = QueueUdpSocket(delegate: recorder, delegateQueue: recorder.queue)
            try socket.bind(toPort: 0, interface: "localhost")
            try socket.receiveOnce()
            let peer = UdpPeer()
            peer.send(bytes("a"), to: socket.localPortIPv4)
            peer.send(bytes("b"), to: socket.localPortIPv4)
            #expect(recorder.wait(for: 1))
            #expect(!recorder.wait(for: 2, timeout: 0.2))
            try socket.receiveOnce()
            #expect(recorder.wait(for: 2))
            try socket.beginReceiving()
            socket.pauseReceiving()
            peer.send(bytes("c"), to: socket.localPortIPv4)
            #expect(!recorder.wait(for: 3, timeout: 0.2))
            try socket.beginReceiving()
            #expect(recorder.wait(for: 3))
            #expect(
                recorder.events == [
                    "received a from 127.0.0.1", "received b from 127.0.0.1", "received c from 127.0.0.1",
                ])
        }
    }

    @Test("sends to host and port, to an address, and empty ones arrive whole and in order, each reported with its tag")
    func sends() async throws {
        try await onNewThread {
            let recorder = QueueUdpRecorder()
            let socket = QueueUdpSocket(delegate: recorder, delegateQueue: recorder.queue)
            let peer = UdpPeer()
            let peer6 = UdpPeer(ipv6: true)
            socket.setPreferIPv4()
            socket.send(Data("first".utf8), toHost: "127.0.0.1", port: peer.port, withTimeout: 5, tag: 1)
            socket.send(Data(), toHost: "localhost", port: peer.port, withTimeout: 5, tag: 2)
            var address = UdpPeer.loopback(ipv6: true, port: peer6.port)
            let bytes6 = withUnsafeBytes(of: &address) { Data($0.prefix(MemoryLayout<sockaddr_in6>.size)) }
            socket.send(Data("six".utf8), toAddress: bytes6, withTimeout: -1, tag: 3)
            #expect(recorder.wait(for: 3))
            #expect(recorder.events == ["sent 1", "sent 2", "sent 3"])
            #expect(peer.receive()?.bytes == Array("first".utf8))
            #expect(peer.receive()?.bytes == [])
            #expect(peer6.receive()?.bytes == Array("six".utf8))
            #expect(!socket.isClosed)  // the first send made the descriptors
        }
    }

    @Test(
        "bad sends are reported per datagram and the socket stays open: no destination, bad address, EMSGSIZE, bad name"
    )
    func badSends() async throws {
        try await onNewThread {
            let recorder = QueueUdpRecorder()
            let socket = QueueUdpSocket(delegate: recorder, delegateQueue: recorder.queue)
            let peer = UdpPeer()
            socket.send(Data("nowhere".utf8), withTimeout: 5, tag: 1)
            socket.send(Data("short".utf8), toAddress: Data([1, 2, 3]), withTimeout: 5, tag: 2)
            socket.send(Data(count: 65_508), toHost: "127.0.0.1", port: peer.port, withTimeout: 5, tag: 3)
            socket.send(Data("x".utf8), toHost: "bad\u{0}name", port: peer.port, withTimeout: 5, tag: 4)
            socket.send(Data("fine".utf8), toHost: "127.0.0.1", port: peer.port, withTimeout: 5, tag: 5)
            #expect(recorder.wait(for: 5))
            #expect(
                recorder.events == [
                    "not sent 1 GCDAsyncUdpSocketErrorDomain 1", "not sent 2 GCDAsyncUdpSocketErrorDomain 2",
                    "not sent 3 \(NSPOSIXErrorDomain) \(EMSGSIZE)",
                    "not sent 4 kCFStreamErrorDomainNetDB \(EAI_NONAME)",
                    "sent 5",
                ])
            #expect(peer.receive()?.bytes == Array("fine".utf8))
        }
    }

    @Test("a datagram above the receive maximum is dropped whole and logged; the next one arrives")
    func tooLarge() async throws {
        try await onNewThread {
            let recorder = QueueUdpRecorder()
            let capture = LogCapture()
            let socket = QueueUdpSocket(delegate: recorder, delegateQueue: recorder.queue, logger: capture.logger)
            socket.maxReceiveIPv4BufferSize = 100
            try socket.bind(toPort: 0, interface: "127.0.0.1")
            try socket.beginReceiving()
            let peer = UdpPeer()
            peer.send([UInt8](repeating: 65, count: 200), to: socket.localPort)
            peer.send(bytes("small"), to: socket.localPort)
            #expect(recorder.wait(for: 1))
            #expect(recorder.events == ["received small from 127.0.0.1"])
            #expect(
                capture.messages(at: .warning) == ["QueueUdpSocket: dropped a datagram larger than the receive maximum"]
            )
        }
    }

    @Test(
        "continuous receiving stops reading at maxPendingDatagrams undelivered, and loses none when the delegate catches up"
    )
    func backPressure() async throws {
        try await onNewThread {
            let recorder = QueueUdpRecorder()
            let socket = QueueUdpSocket(delegate: recorder, delegateQueue: recorder.queue)
            try socket.bind(toPort: 0, interface: "127.0.0.1")
            try socket.beginReceiving()
            recorder.queue.suspend()
            let peer = UdpPeer()
            let total = QueueUdpSocket.maxPendingDatagrams + 40
            // In steps the socket reads before the next, so the kernel's buffer never overflows.
            for first in stride(from: 0, to: total, by: 40) {
                let last = min(first + 40, total)
                for index in first..<last { peer.send(bytes("\(index)"), to: socket.localPort) }
                let expected = min(last, QueueUdpSocket.maxPendingDatagrams)
                #expect(waitUntil { socket.pendingDatagramCount >= expected })
            }
            #expect(socket.pendingDatagramCount == QueueUdpSocket.maxPendingDatagrams)
            recorder.queue.resume()
            #expect(recorder.wait(for: total))
            #expect(recorder.events == (0..<total).map { "received \($0) from 127.0.0.1" })
            #expect(waitUntil { socket.pendingDatagramCount == 0 })  // counted down after each delegate call
        }
    }

    @Test(
        "bound to every address: a reply leaves from the address the sender reached (IP_PKTINFO), not the kernel's pick"
    )
    func repliesFromReachedAddress() async throws {
        try await onNewThread {
            let recorder = QueueUdpRecorder()
            let socket = QueueUdpSocket(delegate: recorder, delegateQueue: recorder.queue)
            try socket.bind(toPort: 0)
            try socket.beginReceiving()
            let peer = UdpPeer()
            // 127.0.0.2 is on the loopback interface too; the kernel would answer from 127.0.0.1.
            peer.send(bytes("to two"), to: socket.localPort, host: "127.0.0.2")
            #expect(recorder.wait(for: 1))
            let sender = try #require(recorder.datagrams.first?.address)
            socket.send(Data("back".utf8), toAddress: sender, withTimeout: 5, tag: 1)
            let reply = try #require(peer.receive(timeout: 10))
            #expect(reply.bytes == bytes("back") && reply.host == "127.0.0.2" && reply.port == socket.localPort)
            peer.send(bytes("to one"), to: socket.localPort)
            #expect(recorder.wait(for: 3))
            socket.send(Data("again".utf8), toAddress: sender, withTimeout: 5, tag: 2)
            let second = try #require(peer.receive(timeout: 10))
            #expect(second.bytes == bytes("again") && second.host == "127.0.0.1")
        }
    }
}
