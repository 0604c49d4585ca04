import AsyncSocketKit
import Foundation
import SocketTestSupport
import Testing

@Suite("RunLoopUdpSocket: connecting, closing, run loops and modes, multicast and broadcast")
struct RunLoopUdpSocketLifecycleTests {
    @Test(
        "connected: sends go to the peer, the other family closes, the peer's host and port answer; unconnected sends are refused",
        arguments: RunLoopSocket.Engine.allCases)
    func connected(engine: RunLoopSocket.Engine) async throws {
        try await onNewThread {
            let recorder = UdpRecorder()
            let socket = RunLoopUdpSocket(delegate: recorder, engine: engine)
            let peer = UdpPeer()
            #expect(!socket.send(Data("x".utf8), withTimeout: 5, tag: 0), "not connected")
            #expect(socket.maximumTransmissionUnit == 0, "not connected")
            try socket.connect(toHost: "127.0.0.1", port: peer.port)
            #expect(socket.isConnected && socket.isIPv4 && !socket.isIPv6)
            #expect(socket.connectedHost == "127.0.0.1" && socket.connectedPort == peer.port)
            // The path to the peer is the loopback interface: its MTU, at most an IP packet's 65,535 bytes.
            let text = try String(contentsOfFile: "/sys/class/net/lo/mtu", encoding: .utf8)
            let loopbackMTU = try #require(UInt(text.trimmingCharacters(in: .whitespacesAndNewlines)))
            #expect(socket.maximumTransmissionUnit == min(loopbackMTU, 65_535))
            #expect(!socket.send(Data("x".utf8), toHost: "127.0.0.1", port: peer.port, withTimeout: 5, tag: 0))
            #expect(socket.send(Data("ping".utf8), withTimeout: 5, tag: 1))
            #expect(runUntil { recorder.events == ["send 1"] })
            let got = try #require(peer.receive(timeout: 5))
            #expect(got.bytes == bytes("ping") && got.port == socket.localPort)
            socket.receive(withTimeout: 10, tag: 2)
            peer.send(bytes("pong"), to: socket.localPort)
            #expect(runUntil { recorder.events.count == 2 })
            #expect(recorder.events.last == "receive 2 pong from 127.0.0.1")
            #expect(throws: AsyncSocketUsageError.self) { try socket.connect(toHost: "127.0.0.1", port: peer.port) }
            #expect(throws: AsyncSocketUsageError.self) { try socket.bind(toPort: 0) }
        }
    }

    @Test(
        "connected to a port nobody listens on: the ICMP refusal fails the pending receive with ECONNREFUSED, the socket stays open"
    )
    func refusedOnConnectedSocket() async throws {
        try await onNewThread {
            let recorder = UdpRecorder()
            let socket = RunLoopUdpSocket(delegate: recorder)
            try socket.connect(toAddress: loopbackAddress(port: freeUdpPort()))
            socket.receive(withTimeout: 10, tag: 1)
            #expect(socket.send(Data("anyone?".utf8), withTimeout: 5, tag: 2))
            #expect(runUntil { recorder.events.contains("not-receive 1 \(NSPOSIXErrorDomain) \(ECONNREFUSED)") })
            #expect(recorder.events.contains("send 2"))
            #expect(!socket.isClosed)
        }
    }

    @Test(
        "queue-core engine: libdispatch does not report the ICMP refusal to the pending receive; a later send gets ECONNREFUSED"
    )
    func refusedOnConnectedSocketQueueCore() async throws {
        try await onNewThread {
            let recorder = UdpRecorder()
            let socket = RunLoopUdpSocket(delegate: recorder, engine: .queueCore)
            try socket.connect(toAddress: loopbackAddress(port: freeUdpPort()))
            socket.receive(withTimeout: 30, tag: 1)
            // Each send is answered before the next is queued; the refusal of one surfaces on a later one.
            var refused = false
            for tag in 2...20 where !refused {
                #expect(socket.send(Data("anyone?".utf8), withTimeout: 5, tag: tag))
                #expect(
                    runUntil { recorder.events.contains { $0 == "send \(tag)" || $0.hasPrefix("not-send \(tag) ") } })
                refused = recorder.events.contains("not-send \(tag) \(NSPOSIXErrorDomain) \(ECONNREFUSED)")
            }
            #expect(refused, "\(recorder.events)")
            #expect(recorder.events.first == "send 2")
            #expect(!recorder.events.contains { $0.hasPrefix("not-receive") })
            #expect(!socket.isClosed && socket.isConnected)
        }
    }

    @Test(
        "a datagram another sender queued before the connect is dropped; the connected peer's completes the receive",
        arguments: RunLoopSocket.Engine.allCases)
    func strayBeforeConnect(engine: RunLoopSocket.Engine) async throws {
        try await onNewThread {
            let recorder = UdpRecorder()
            let socket = RunLoopUdpSocket(delegate: recorder, engine: engine)
            try socket.bind(toAddress: "127.0.0.1", port: 0)
            let stranger = UdpPeer()
            let peer = UdpPeer()
            stranger.send(bytes("stray"), to: socket.localPort)
            let fd = try #require(socket.descriptors.first)
            #expect(waitUntil { kernelPending(fd) == bytes("stray") })
            try socket.connect(toHost: "127.0.0.1", port: peer.port)
            socket.receive(withTimeout: 10, tag: 1)
            peer.send(bytes("mine"), to: socket.localPort)
            #expect(runUntil { !recorder.events.isEmpty })
            #expect(recorder.events == ["receive 1 mine from 127.0.0.1"])
        }
    }

    @Test(
        "a delegate that closes inside didReceive gets no more callbacks but the close",
        arguments: RunLoopSocket.Engine.allCases)
    func closeInsideReceive(engine: RunLoopSocket.Engine) async throws {
        try await onNewThread {
            let recorder = UdpRecorder()
            recorder.onEvent = { sock, event in
                if event.hasPrefix("receive") { sock.close() }
            }
            let socket = RunLoopUdpSocket(delegate: recorder, engine: engine)
            try socket.bind(toAddress: "127.0.0.1", port: 0)
            socket.receive(withTimeout: 10, tag: 1)
            socket.receive(withTimeout: 0.05, tag: 2)
            let peer = UdpPeer()
            peer.send(bytes("a"), to: socket.localPort)
            peer.send(bytes("b"), to: socket.localPort)
            #expect(runUntil { recorder.events.last == "close" })
            // Long enough for the second receive's timeout, had it survived the close.
            EventRunLoop.current.run(mode: .default, timeout: 0.1)
            #expect(recorder.events == ["receive 1 a from 127.0.0.1", "close"])
        }
    }

    @Test(
        "misuse throws AsyncSocketUsageError in the original exception's words; enableBroadcast after close does nothing",
        arguments: RunLoopSocket.Engine.allCases)
    func misuseWords(engine: RunLoopSocket.Engine) async throws {
        try await onNewThread {
            func message(_ body: () throws -> Void) -> String? {
                do {
                    try body()
                    return nil
                } catch let error as AsyncSocketUsageError {
                    return error.message
                } catch {
                    return "another error: \(error)"
                }
            }
            let peer = UdpPeer()
            let socket = RunLoopUdpSocket(engine: engine)
            #expect(
                message { try socket.joinMulticastGroup("239.1.2.3") }
                    == "Must bind a socket before joining a multicast group.")
            try socket.bind(toAddress: "127.0.0.1", port: 0)
            #expect(message { try socket.bind(toPort: 0) } == "Cannot bind a socket more than once.")
            try socket.connect(toHost: "127.0.0.1", port: peer.port)
            #expect(
                message { try socket.connect(toHost: "127.0.0.1", port: peer.port) }
                    == "Cannot connect a socket more than once.")
            #expect(
                message { try socket.joinMulticastGroup("239.1.2.3") } == "Cannot join a multicast group if connected.")
            let connectedFirst = RunLoopUdpSocket(engine: engine)
            try connectedFirst.connect(toHost: "127.0.0.1", port: peer.port)
            #expect(connectedFirst.localPort != 0)
            #expect(
                message { try connectedFirst.bind(toPort: 0) }
                    == "Cannot bind after connecting. If needed, bind first, then connect.")
            let invalid = #expect(throws: AsyncUdpSocketError.self) {
                try RunLoopUdpSocket(engine: engine).connect(toAddress: Data(count: 10))
            }
            #expect(invalid?.message == "remoteAddr parameter is not a valid address")
            socket.close()
            #expect(message { try socket.bind(toPort: 0) } == "The socket is closed.")
            #expect(message { try socket.enableBroadcast(true) } == nil)
        }
    }

    @Test(
        "bad input: each call refused or thrown as the original did, nothing crashes",
        arguments: RunLoopSocket.Engine.allCases)
    func badInput(engine: RunLoopSocket.Engine) async throws {
        try await onNewThread {
            let recorder = UdpRecorder()
            let socket = RunLoopUdpSocket(delegate: recorder, engine: engine)
            #expect(!socket.send(Data(), toHost: "127.0.0.1", port: 9, withTimeout: 1, tag: 0), "empty datagram")
            #expect(!socket.send(Data("x".utf8), toAddress: Data([1, 2, 3]), withTimeout: 1, tag: 0))
            let overlong = String(repeating: "a", count: 254)
            #expect(!socket.send(Data("x".utf8), toHost: overlong, port: 9, withTimeout: 1, tag: 0))
            let badParameter = #expect(throws: AsyncUdpSocketError.self) {
                try socket.connect(toAddress: Data(count: 10))
            }
            #expect(badParameter?.code == .badParameter)
            #expect(throws: AsyncSocketUsageError.self) { try socket.joinMulticastGroup("239.1.2.3") }
            let notFound = #expect(throws: NSError.self) { try socket.bind(toAddress: overlong, port: 0) }
            #expect(notFound?.domain == "kCFStreamErrorDomainNetDB")
            try socket.bind(toAddress: "127.0.0.1", port: 0)
            #expect(throws: AsyncSocketUsageError.self) { try socket.bind(toPort: 0) }
            let wrongFamily = #expect(throws: AsyncUdpSocketError.self) {
                try socket.connect(toAddress: SocketAddressBytes.ipv6Loopback(port: 9))
            }
            #expect(wrongFamily?.code == .ipv6Unavailable)
            // Larger than any datagram: the kernel refuses it, reported to the delegate.
            let peer = UdpPeer()
            #expect(socket.send(Data(count: 70_000), toHost: "127.0.0.1", port: peer.port, withTimeout: 5, tag: 5))
            #expect(runUntil { !recorder.events.isEmpty })
            #expect(recorder.events == ["not-send 5 \(NSPOSIXErrorDomain) \(EMSGSIZE)"])
            // Port 0 is no destination: the kernel refuses it, reported the same way.
            #expect(socket.send(Data("x".utf8), toHost: "127.0.0.1", port: 0, withTimeout: 5, tag: 6))
            #expect(runUntil { recorder.events.count == 2 })
            #expect(recorder.events.last == "not-send 6 \(NSPOSIXErrorDomain) \(EINVAL)")
            // A second receive while one is pending is queued behind it, not refused.
            socket.receive(withTimeout: 0.05, tag: 7)
            socket.receive(withTimeout: 0.05, tag: 8)
            #expect(runUntil { recorder.events.count == 4 })
            #expect(
                recorder.events.suffix(2) == [
                    "not-receive 7 AsyncUdpSocketErrorDomain 5", "not-receive 8 AsyncUdpSocketErrorDomain 5",
                ])
            #expect(!socket.isClosed)
        }
    }

    @Test(
        "close: queued work dropped without callbacks, onUdpSocketDidClose after the call returns, then the socket is spent",
        arguments: RunLoopSocket.Engine.allCases)
    func closeNow(engine: RunLoopSocket.Engine) async throws {
        try await onNewThread {
            let recorder = UdpRecorder()
            let socket = RunLoopUdpSocket(delegate: recorder, engine: engine)
            try socket.bind(toAddress: "127.0.0.1", port: 0)
            socket.receive(withTimeout: 10, tag: 1)
            #expect(socket.send(Data("x".utf8), toHost: "127.0.0.1", port: UdpPeer().port, withTimeout: 5, tag: 2))
            socket.close()
            #expect(socket.isClosed && !socket.isIPv4 && !socket.isIPv6)
            #expect(recorder.events.isEmpty, "no callback inside close()")
            #expect(runUntil { !recorder.events.isEmpty })
            #expect(recorder.events == ["close"])
            #expect(throws: AsyncSocketUsageError.self) { try socket.bind(toPort: 0) }
            #expect(!socket.send(Data("x".utf8), toHost: "127.0.0.1", port: 9, withTimeout: 1, tag: 3))
        }
    }

    @Test(
        "closeAfterSending: new work refused, queued sends finish, a pending receive does not hold the close",
        arguments: RunLoopSocket.Engine.allCases)
    func closeAfterSending(engine: RunLoopSocket.Engine) async throws {
        try await onNewThread {
            let recorder = UdpRecorder()
            let socket = RunLoopUdpSocket(delegate: recorder, engine: engine)
            let peer = UdpPeer()
            #expect(socket.send(Data("a".utf8), toHost: "127.0.0.1", port: peer.port, withTimeout: 5, tag: 1))
            #expect(socket.send(Data("b".utf8), toHost: "127.0.0.1", port: peer.port, withTimeout: 5, tag: 2))
            socket.receive(withTimeout: -1, tag: 3)
            socket.closeAfterSending()
            #expect(!socket.send(Data("c".utf8), toHost: "127.0.0.1", port: peer.port, withTimeout: 5, tag: 4))
            #expect(runUntil { recorder.events.last == "close" })
            #expect(recorder.events == ["send 1", "send 2", "close"])
        }
    }

    @Test(
        "closeAfterReceiving closes once the pending receive completes; closeAfterSendingAndReceiving waits for both",
        arguments: RunLoopSocket.Engine.allCases)
    func closeAfterReceiving(engine: RunLoopSocket.Engine) async throws {
        try await onNewThread {
            let recorder = UdpRecorder()
            let socket = RunLoopUdpSocket(delegate: recorder, engine: engine)
            try socket.bind(toAddress: "127.0.0.1", port: 0)
            socket.receive(withTimeout: 10, tag: 1)
            socket.closeAfterReceiving()
            socket.receive(withTimeout: 10, tag: 2)
            UdpPeer().send(bytes("last"), to: socket.localPort)
            #expect(runUntil { recorder.events.last == "close" })
            #expect(recorder.events == ["receive 1 last from 127.0.0.1", "close"])

            let both = UdpRecorder()
            let other = RunLoopUdpSocket(delegate: both, engine: engine)
            try other.bind(toAddress: "127.0.0.1", port: 0)
            other.receive(withTimeout: 0.1, tag: 5)
            #expect(other.send(Data("x".utf8), toHost: "127.0.0.1", port: UdpPeer().port, withTimeout: 5, tag: 6))
            other.closeAfterSendingAndReceiving()
            #expect(runUntil { both.events.last == "close" })
            #expect(both.events == ["send 6", "not-receive 5 AsyncUdpSocketErrorDomain 5", "close"])
        }
    }

    @Test(
        "an open socket keeps its modes busy: run() waits for a datagram to a receive without a timeout; closed, it returns",
        arguments: RunLoopSocket.Engine.allCases)
    func openSocketKeepsLoopRunning(engine: RunLoopSocket.Engine) async throws {
        try await onNewThread {
            let recorder = UdpRecorder()
            let socket = RunLoopUdpSocket(delegate: recorder, families: .ipv4Only, engine: engine)
            try socket.bind(toAddress: "127.0.0.1", port: 0)
            socket.receive(withTimeout: -1, tag: 1)
            let port = socket.localPort
            // Sent from the loop once it runs with nothing else in the mode: only the socket keeps it.
            EventRunLoop.current.enqueue { UdpPeer().send(bytes("late"), to: port) }
            #expect(runUntil { !recorder.events.isEmpty })
            #expect(recorder.events == ["receive 1 late from 127.0.0.1"])
            socket.close()
            #expect(runUntil { recorder.events.last == "close" })
            #expect(EventRunLoop.current.run(mode: .default, timeout: 5) == .finished)
        }
    }

    @Test(
        "a socket released without close gives its descriptors back and reports nothing",
        arguments: RunLoopSocket.Engine.allCases)
    func releasedWithoutClose(engine: RunLoopSocket.Engine) async throws {
        try await onNewThread {
            let recorder = UdpRecorder()
            var socket: RunLoopUdpSocket? = RunLoopUdpSocket(delegate: recorder, engine: engine)
            try socket?.bind(toPort: 0)
            socket?.receive(withTimeout: 10, tag: 1)
            let sockets = (socket?.descriptors ?? []).map { fd in
                (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/\(fd)")) ?? "?"
            }
            #expect(sockets.count == 2 && sockets.allSatisfy { $0.hasPrefix("socket:[") })
            socket = nil
            let open = openFileDescriptorTargets()
            #expect(!open.contains { target in sockets.contains { target.hasSuffix($0) } })
            EventRunLoop.current.run(mode: .default, timeout: 0.05)
            #expect(recorder.events.isEmpty)
        }
    }

    @Test(
        "in a custom mode only: a datagram is delivered while the loop runs in that mode, not in the default one",
        arguments: RunLoopSocket.Engine.allCases)
    func modes(engine: RunLoopSocket.Engine) async throws {
        try await onNewThread {
            let recorder = UdpRecorder()
            let socket = RunLoopUdpSocket(delegate: recorder, engine: engine)
            let modal = RunLoopMode("com.example.udp")
            #expect(!socket.setRunLoopModes([]))
            #expect(socket.setRunLoopModes([modal]))
            #expect(socket.runLoopModes == [modal])
            try socket.bind(toAddress: "127.0.0.1", port: 0)
            socket.receive(withTimeout: 10, tag: 1)
            UdpPeer().send(bytes("modal"), to: socket.localPort)
            EventRunLoop.current.run(mode: .default, timeout: 0.05)
            #expect(recorder.events.isEmpty)
            #expect(runUntil(mode: modal) { !recorder.events.isEmpty })
            #expect(recorder.events == ["receive 1 modal from 127.0.0.1"])
        }
    }

    @Test(
        "moveToRunLoop: the pending receive and its callbacks follow the socket to the other loop's thread",
        arguments: RunLoopSocket.Engine.allCases)
    func movesToAnotherLoop(engine: RunLoopSocket.Engine) async throws {
        let worker = EventRunLoopThread(name: "udp-worker")
        defer { worker.terminate() }
        let done = CallLog()
        try await onNewThread {
            let recorder = UdpRecorder()
            recorder.onEvent = { sock, event in
                done.add("\(event) on worker: \(sock.runLoop === worker.loop && worker.loop.isCurrent)")
            }
            let socket = RunLoopUdpSocket(delegate: recorder, engine: engine)
            try socket.bind(toAddress: "127.0.0.1", port: 0)
            socket.receive(withTimeout: 10, tag: 1)
            #expect(!socket.moveToRunLoop(nil))
            #expect(socket.moveToRunLoop(EventRunLoop.current))
            let port = socket.localPort
            #expect(socket.moveToRunLoop(worker.loop))
            UdpPeer().send(bytes("moved"), to: port)
            #expect(done.wait(for: "receive 1 moved from 127.0.0.1 on worker: true"))
            let closed = SocketCarrier(socket)
            worker.loop.perform { closed.socket.close() }
            #expect(done.wait(for: "close on worker: true"))
        }
    }

    @Test(
        "moved inside didReceive answering true: that receive ends; the next one and its timeout run on the new loop",
        arguments: RunLoopSocket.Engine.allCases)
    func moveInsideReceive(engine: RunLoopSocket.Engine) async throws {
        let worker = EventRunLoopThread(name: "udp-worker")
        defer { worker.terminate() }
        let log = CallLog()
        try await onNewThread {
            let recorder = UdpRecorder()
            recorder.onEvent = { sock, event in
                log.add("\(event) on worker: \(worker.loop.isCurrent)")
                if event.hasPrefix("receive 1") { sock.moveToRunLoop(worker.loop) }
            }
            let socket = RunLoopUdpSocket(delegate: recorder, engine: engine)
            try socket.bind(toAddress: "127.0.0.1", port: 0)
            socket.receive(withTimeout: 10, tag: 1)
            socket.receive(withTimeout: 0.2, tag: 2)
            UdpPeer().send(bytes("first"), to: socket.localPort)
            #expect(runUntil { !log.all.isEmpty })
            #expect(log.wait(for: "not-receive 2 AsyncUdpSocketErrorDomain 5 on worker: true"))
            #expect(
                log.all == [
                    "receive 1 first from 127.0.0.1 on worker: false",
                    "not-receive 2 AsyncUdpSocketErrorDomain 5 on worker: true",
                ])
            let carrier = SocketCarrier(socket)
            worker.loop.perform { carrier.socket.close() }
            #expect(log.wait(for: "close on worker: true"))
        }
    }

    @Test(
        "IPv6 multicast: joined at IPPROTO_IPV6 on the interface of ::1 (the system lists it), the IPv4 socket closes; left",
        arguments: RunLoopSocket.Engine.allCases)
    func multicastIPv6(engine: RunLoopSocket.Engine) async throws {
        try await onNewThread {
            let socket = RunLoopUdpSocket(engine: engine)
            try socket.bind(toPort: 0)
            let group = "ff12::4153:\(String(Int.random(in: 1...0xfff0), radix: 16))"
            try socket.joinMulticastGroup(group, withAddress: "::1")
            #expect(!socket.isIPv4 && socket.isIPv6)
            #expect(ipv6GroupJoined(group, on: "lo"))
            try socket.leaveMulticastGroup(group, withAddress: "::1")
            #expect(!ipv6GroupJoined(group, on: "lo"))
            #expect(throws: NSError.self) { try socket.leaveMulticastGroup(group, withAddress: "::1") }
        }
    }

    @Test(
        "multicast: joined on the loopback interface, a datagram to the group arrives; the IPv6 socket closes; leave works once",
        arguments: RunLoopSocket.Engine.allCases)
    func multicast(engine: RunLoopSocket.Engine) async throws {
        try await onNewThread {
            let recorder = UdpRecorder()
            let socket = RunLoopUdpSocket(delegate: recorder, engine: engine)
            try socket.bind(toPort: 0)
            try socket.joinMulticastGroup("239.255.42.7", withAddress: "127.0.0.1")
            #expect(socket.isIPv4 && !socket.isIPv6)
            socket.receive(withTimeout: 10, tag: 1)
            let peer = UdpPeer()
            peer.useLoopbackForMulticast()
            peer.send(bytes("group"), to: socket.localPort, host: "239.255.42.7")
            #expect(runUntil { !recorder.events.isEmpty })
            #expect(recorder.events == ["receive 1 group from 127.0.0.1"])
            try socket.leaveMulticastGroup("239.255.42.7", withAddress: "127.0.0.1")
            #expect(throws: NSError.self) { try socket.leaveMulticastGroup("239.255.42.7", withAddress: "127.0.0.1") }
            let mismatch = #expect(throws: AsyncUdpSocketError.self) {
                try socket.joinMulticastGroup("ff12::1", withAddress: "127.0.0.1")
            }
            #expect(mismatch?.code == .badParameter)
            // An interface address no interface has: the system's error (ENODEV).
            let missing = #expect(throws: NSError.self) {
                try socket.joinMulticastGroup("239.255.42.8", withAddress: "198.51.100.77")
            }
            #expect(missing?.domain == NSPOSIXErrorDomain && missing?.code == Int(ENODEV))
        }
    }

    @Test(
        "multicast sending options: interface, time to live, loopback; a closed family or a foreign address is refused",
        arguments: RunLoopSocket.Engine.allCases)
    func multicastOptions(engine: RunLoopSocket.Engine) async throws {
        try await onNewThread {
            let socket = RunLoopUdpSocket(families: .ipv4Only, engine: engine)
            try socket.setMulticastInterface("127.0.0.1")
            try socket.setMulticastTimeToLive(4)
            try socket.setMulticastLoopback(false)
            let fd = try #require(socket.descriptors.first)
            func option(_ name: Int32) -> Int32 {
                var value: Int32 = -1
                var length = socklen_t(MemoryLayout<Int32>.size)
                _ = getsockopt(fd, Int32(IPPROTO_IP), name, &value, &length)
                return value
            }
            #expect(option(IP_MULTICAST_TTL) == 4 && option(IP_MULTICAST_LOOP) == 0)
            let wrongFamily = #expect(throws: AsyncUdpSocketError.self) { try socket.setMulticastInterface("::1") }
            #expect(wrongFamily?.code == .ipv6Unavailable)
            let foreign = #expect(throws: NSError.self) { try socket.setMulticastInterface("198.51.100.77") }
            #expect(foreign?.domain == NSPOSIXErrorDomain && foreign?.code == Int(EADDRNOTAVAIL))
            socket.close()
            #expect(throws: AsyncSocketUsageError.self) { try socket.setMulticastTimeToLive(1) }
        }
    }

    @Test(
        "broadcast: refused (EACCES) until enableBroadcast(true), then sent to the loopback broadcast address",
        arguments: RunLoopSocket.Engine.allCases)
    func broadcast(engine: RunLoopSocket.Engine) async throws {
        try await onNewThread {
            let recorder = UdpRecorder()
            let socket = RunLoopUdpSocket(delegate: recorder, families: .ipv4Only, engine: engine)
            #expect(socket.isIPv4 && !socket.isIPv6)
            let listener = RunLoopUdpSocket(delegate: recorder, families: .ipv4Only, engine: engine)
            try listener.bind(toPort: 0)
            let port = listener.localPort
            #expect(socket.send(Data("all".utf8), toHost: "127.255.255.255", port: port, withTimeout: 5, tag: 1))
            #expect(runUntil { !recorder.events.isEmpty })
            #expect(recorder.events == ["not-send 1 \(NSPOSIXErrorDomain) \(EACCES)"])
            try socket.enableBroadcast(true)
            listener.receive(withTimeout: 10, tag: 3)
            #expect(socket.send(Data("all".utf8), toHost: "127.255.255.255", port: port, withTimeout: 5, tag: 2))
            #expect(runUntil { recorder.events.count == 3 })
            #expect(recorder.events.dropFirst().sorted() == ["receive 3 all from 127.0.0.1", "send 2"])
        }
    }
}

/// `sockaddr` bytes for the tests.
enum SocketAddressBytes {
    static func ipv6Loopback(port: UInt16) -> Data {
        var storage = UdpPeer.loopback(ipv6: true, port: port)
        return withUnsafeBytes(of: &storage) { Data($0.prefix(MemoryLayout<sockaddr_in6>.size)) }
    }
}

/// Carries a socket into a block for another loop's thread, where the test uses it.
final class SocketCarrier: @unchecked Sendable {
    // @unchecked Sendable: the socket moved to that loop, and only its thread touches it after.
    let socket: RunLoopUdpSocket
    init(_ socket: RunLoopUdpSocket) {
        self.socket = socket
    }
}
