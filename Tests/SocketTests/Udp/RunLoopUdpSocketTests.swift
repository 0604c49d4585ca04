import AsyncSocketKit
import Foundation
import SocketTestSupport
import Testing

@Suite("RunLoopUdpSocket: binding, sending and receiving datagrams over loopback, both families")
struct RunLoopUdpSocketTests {
    @Test(
        "a datagram from a peer completes a receive: data, tag, numeric host, port; bound to 127.0.0.1 only IPv4 stays",
        arguments: RunLoopSocket.Engine.allCases)
    func receivesIPv4(engine: RunLoopSocket.Engine) async throws {
        try await onNewThread {
            let recorder = UdpRecorder()
            let socket = RunLoopUdpSocket(delegate: recorder, engine: engine)
            #expect(socket.isIPv4 && socket.isIPv6)
            try socket.bind(toAddress: "127.0.0.1", port: 0)
            #expect(socket.isIPv4 && !socket.isIPv6)
            #expect(socket.localHost == "127.0.0.1" && socket.localPort != 0)
            let peer = UdpPeer()
            socket.receive(withTimeout: 10, tag: 7)
            peer.send(bytes("hello"), to: socket.localPort)
            #expect(runUntil { !recorder.events.isEmpty })
            #expect(recorder.events == ["receive 7 hello from 127.0.0.1"])
            #expect(recorder.received.first?.port == peer.port)
            #expect(recorder.allOnLoopThread)
        }
    }

    @Test(
        "IPv6: bound to ::1 only IPv6 stays; a datagram from ::1 arrives with host ::1",
        arguments: RunLoopSocket.Engine.allCases)
    func receivesIPv6(engine: RunLoopSocket.Engine) async throws {
        try await onNewThread {
            let recorder = UdpRecorder()
            let socket = RunLoopUdpSocket(delegate: recorder, engine: engine)
            try socket.bind(toAddress: "::1", port: 0)
            #expect(!socket.isIPv4 && socket.isIPv6)
            #expect(socket.localHost == "::1")
            let peer = UdpPeer(ipv6: true)
            socket.receive(withTimeout: 10, tag: 1)
            peer.send(bytes("six"), to: socket.localPort)
            #expect(runUntil { !recorder.events.isEmpty })
            #expect(recorder.events == ["receive 1 six from ::1"])
        }
    }

    @Test(
        "bound to every address on port 0, both families share the port and each receives",
        arguments: RunLoopSocket.Engine.allCases)
    func bothFamiliesOnePort(engine: RunLoopSocket.Engine) async throws {
        try await onNewThread {
            let recorder = UdpRecorder()
            let socket = RunLoopUdpSocket(delegate: recorder, engine: engine)
            try socket.bind(toPort: 0)
            #expect(socket.isIPv4 && socket.isIPv6)
            let port = socket.localPort
            socket.receive(withTimeout: 10, tag: 1)
            socket.receive(withTimeout: 10, tag: 2)
            UdpPeer().send(bytes("four"), to: port)
            #expect(runUntil { recorder.events.count == 1 })
            UdpPeer(ipv6: true).send(bytes("six"), to: port)
            #expect(runUntil { recorder.events.count == 2 })
            #expect(recorder.events == ["receive 1 four from 127.0.0.1", "receive 2 six from ::1"])
        }
    }

    @Test(
        "sends go out in order, each reported with its tag; the peer gets each datagram whole",
        arguments: RunLoopSocket.Engine.allCases)
    func sendsInOrder(engine: RunLoopSocket.Engine) async throws {
        try await onNewThread {
            let recorder = UdpRecorder()
            let socket = RunLoopUdpSocket(delegate: recorder, engine: engine)
            let peer = UdpPeer()
            for (tag, text) in ["one", "two", "three"].enumerated() {
                #expect(socket.send(Data(text.utf8), toHost: "127.0.0.1", port: peer.port, withTimeout: 5, tag: tag))
            }
            #expect(recorder.events.isEmpty, "no callback inside the call")
            #expect(runUntil { recorder.events.count == 3 })
            #expect(recorder.events == ["send 0", "send 1", "send 2"])
            let got = (0..<3).compactMap { _ in
                peer.receive(timeout: 5).map { String(decoding: $0.bytes, as: UTF8.self) }
            }
            #expect(got == ["one", "two", "three"])
            #expect(socket.localPort != 0, "a send binds the socket")
        }
    }

    @Test(
        "bound to every address: a reply leaves from the address the sender reached (IP_PKTINFO), not the kernel's pick",
        arguments: RunLoopSocket.Engine.allCases)
    func repliesFromReachedAddress(engine: RunLoopSocket.Engine) async throws {
        try await onNewThread {
            let recorder = UdpRecorder()
            let socket = RunLoopUdpSocket(delegate: recorder, families: .ipv4Only, engine: engine)
            recorder.onEvent = { sock, event in
                guard event.hasPrefix("receive"), let last = recorder.received.last else { return }
                sock.send(last.data, toHost: last.host, port: last.port, withTimeout: 5, tag: 1)
            }
            try socket.bind(toPort: 0)
            socket.receive(withTimeout: 10, tag: 0)
            socket.receive(withTimeout: 10, tag: 0)
            let peer = UdpPeer()
            // 127.0.0.2 is on the loopback interface too; the kernel would answer from 127.0.0.1.
            peer.send(bytes("to two"), to: socket.localPort, host: "127.0.0.2")
            #expect(runUntil { recorder.events.contains("send 1") })
            let reply = try #require(peer.receive(timeout: 10))
            #expect(reply.bytes == bytes("to two") && reply.host == "127.0.0.2" && reply.port == socket.localPort)
            peer.send(bytes("to one"), to: socket.localPort)
            #expect(runUntil { recorder.events.filter { $0 == "send 1" }.count == 2 })
            let second = try #require(peer.receive(timeout: 10))
            #expect(second.host == "127.0.0.1")
        }
    }

    @Test("receives are served in order, one datagram each", arguments: RunLoopSocket.Engine.allCases)
    func receivesInOrder(engine: RunLoopSocket.Engine) async throws {
        try await onNewThread {
            let recorder = UdpRecorder()
            let socket = RunLoopUdpSocket(delegate: recorder, engine: engine)
            try socket.bind(toAddress: "127.0.0.1", port: 0)
            let peer = UdpPeer()
            socket.receive(withTimeout: 10, tag: 1)
            socket.receive(withTimeout: 10, tag: 2)
            peer.send(bytes("a"), to: socket.localPort)
            peer.send(bytes("b"), to: socket.localPort)
            #expect(runUntil { recorder.events.count == 2 })
            #expect(recorder.events == ["receive 1 a from 127.0.0.1", "receive 2 b from 127.0.0.1"])
        }
    }

    @Test(
        "a delegate answering false keeps the same receive (tag) waiting; the ignored datagram is not given again",
        arguments: RunLoopSocket.Engine.allCases)
    func ignoredDatagramKeepsReceive(engine: RunLoopSocket.Engine) async throws {
        try await onNewThread {
            let recorder = UdpRecorder()
            recorder.answer = { String(decoding: $0, as: UTF8.self) != "skip" }
            let socket = RunLoopUdpSocket(delegate: recorder, engine: engine)
            try socket.bind(toAddress: "127.0.0.1", port: 0)
            let peer = UdpPeer()
            socket.receive(withTimeout: 10, tag: 4)
            socket.receive(withTimeout: 10, tag: 5)
            peer.send(bytes("skip"), to: socket.localPort)
            peer.send(bytes("take"), to: socket.localPort)
            peer.send(bytes("next"), to: socket.localPort)
            #expect(runUntil { recorder.events.count == 3 })
            #expect(
                recorder.events == [
                    "receive 4 skip from 127.0.0.1 ignored", "receive 4 take from 127.0.0.1",
                    "receive 5 next from 127.0.0.1",
                ])
        }
    }

    @Test(
        "a receive that gets nothing times out with AsyncUdpSocketErrorDomain 5; the socket stays open and receives",
        arguments: RunLoopSocket.Engine.allCases)
    func receiveTimeout(engine: RunLoopSocket.Engine) async throws {
        try await onNewThread {
            let recorder = UdpRecorder()
            let socket = RunLoopUdpSocket(delegate: recorder, engine: engine)
            try socket.bind(toAddress: "127.0.0.1", port: 0)
            socket.receive(withTimeout: 0.05, tag: 3)
            #expect(runUntil { !recorder.events.isEmpty })
            #expect(recorder.events == ["not-receive 3 AsyncUdpSocketErrorDomain 5"])
            #expect(recorder.errors.first?.localizedDescription == "Receive operation timed out")
            #expect(!socket.isClosed)
            socket.receive(withTimeout: 10, tag: 4)
            UdpPeer().send(bytes("late"), to: socket.localPort)
            #expect(runUntil { recorder.events.count == 2 })
            #expect(recorder.events.last == "receive 4 late from 127.0.0.1")
        }
    }

    @Test(
        "an empty datagram is a datagram: it completes a receive with empty data",
        arguments: RunLoopSocket.Engine.allCases)
    func emptyDatagram(engine: RunLoopSocket.Engine) async throws {
        try await onNewThread {
            let recorder = UdpRecorder()
            let socket = RunLoopUdpSocket(delegate: recorder, engine: engine)
            try socket.bind(toAddress: "127.0.0.1", port: 0)
            socket.receive(withTimeout: 10, tag: 1)
            UdpPeer().send([], to: socket.localPort)
            #expect(runUntil { !recorder.events.isEmpty })
            #expect(recorder.received.first?.data == Data())
            #expect(recorder.events == ["receive 1  from 127.0.0.1"])
        }
    }

    @Test(
        "a datagram larger than maxReceiveBufferSize is reported as EMSGSIZE and dropped, never cut; the next one arrives whole",
        arguments: RunLoopSocket.Engine.allCases)
    func tooLargeDatagram(engine: RunLoopSocket.Engine) async throws {
        try await onNewThread {
            let recorder = UdpRecorder()
            let socket = RunLoopUdpSocket(delegate: recorder, engine: engine)
            #expect(socket.maxReceiveBufferSize == 9216)
            socket.maxReceiveBufferSize = 100
            try socket.bind(toAddress: "127.0.0.1", port: 0)
            let peer = UdpPeer()
            socket.receive(withTimeout: 10, tag: 1)
            socket.receive(withTimeout: 10, tag: 2)
            peer.send([UInt8](repeating: 65, count: 200), to: socket.localPort)
            peer.send([UInt8](repeating: 66, count: 100), to: socket.localPort)
            #expect(runUntil { recorder.events.count == 2 })
            #expect(recorder.events.first == "not-receive 1 \(NSPOSIXErrorDomain) \(EMSGSIZE)")
            #expect(recorder.received.first?.data == Data(repeating: 66, count: 100))
            #expect(recorder.received.first?.tag == 2)
        }
    }

    @Test(
        "with no receive queued nothing is read: a datagram waits in the kernel for the receive queued later",
        arguments: RunLoopSocket.Engine.allCases)
    func readsOnlyWhenAsked(engine: RunLoopSocket.Engine) async throws {
        try await onNewThread {
            let recorder = UdpRecorder()
            let socket = RunLoopUdpSocket(delegate: recorder, engine: engine)
            try socket.bind(toAddress: "127.0.0.1", port: 0)
            UdpPeer().send(bytes("early"), to: socket.localPort)
            let fd = try #require(socket.descriptors.first)
            #expect(waitUntil { kernelPending(fd) == bytes("early") })
            // The loop comes round with nothing queued: the datagram stays in the kernel.
            EventRunLoop.current.run(mode: .default, timeout: 0.05)
            #expect(kernelPending(fd) == bytes("early"))
            #expect(recorder.events.isEmpty)
            socket.receive(withTimeout: 10, tag: 9)
            #expect(runUntil { !recorder.events.isEmpty })
            #expect(recorder.events == ["receive 9 early from 127.0.0.1"])
        }
    }
}
