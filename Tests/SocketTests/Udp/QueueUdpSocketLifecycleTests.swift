import AsyncSocketKit
import Dispatch
import Foundation
import SocketTestSupport
import Testing

@Suite("QueueUdpSocket: connecting, filters, closing and misuse")
struct QueueUdpSocketLifecycleTests {
    @Test(
        "connect to a host: didConnectToAddress, the other family closes, sends go to the peer, a destination is refused"
    )
    func connect() async throws {
        try await onNewThread {
            let recorder = QueueUdpRecorder()
            let socket = QueueUdpSocket(delegate: recorder, delegateQueue: recorder.queue)
            let peer = UdpPeer()
            socket.setPreferIPv4()
            try socket.connect(toHost: "localhost", onPort: peer.port)
            #expect(recorder.wait(for: 1))
            #expect(recorder.events == ["connected 127.0.0.1 \(peer.port)"])
            #expect(socket.isConnected && socket.isIPv4 && !socket.isIPv6)
            #expect(socket.connectedHost == "127.0.0.1" && socket.connectedPort == peer.port)
            socket.send(Data("to peer".utf8), withTimeout: 5, tag: 1)
            socket.send(Data("elsewhere".utf8), toHost: "127.0.0.1", port: peer.port, withTimeout: 5, tag: 2)
            #expect(recorder.wait(for: 3))
            #expect(Array(recorder.events.dropFirst()) == ["sent 1", "not sent 2 GCDAsyncUdpSocketErrorDomain 1"])
            #expect(peer.receive()?.bytes == Array("to peer".utf8))
            try socket.beginReceiving()
            UdpPeer().send(bytes("stranger"), to: socket.localPort)
            peer.send(bytes("answer"), to: socket.localPort)
            #expect(recorder.wait(for: 4))
            #expect(recorder.events.last == "received answer from 127.0.0.1")
            let again = #expect(throws: QueueUdpSocketError.self) { try socket.connect(toHost: "127.0.0.1", onPort: 9) }
            #expect(again?.code == .badConfig)
            let bind = #expect(throws: QueueUdpSocketError.self) { try socket.bind(toPort: 0) }
            #expect(bind?.code == .badConfig)
        }
    }

    @Test(
        "a connect is queued behind earlier sends; a name not found is didNotConnect and the socket can connect again")
    func connectOrderAndFailure() async throws {
        try await onNewThread {
            let recorder = QueueUdpRecorder()
            let socket = QueueUdpSocket(delegate: recorder, delegateQueue: recorder.queue)
            let peer = UdpPeer()
            socket.send(Data("before".utf8), toHost: "127.0.0.1", port: peer.port, withTimeout: 5, tag: 1)
            try socket.connect(toHost: "bad\u{0}name", onPort: peer.port)
            #expect(recorder.wait(for: 2))
            #expect(recorder.events == ["sent 1", "not connected kCFStreamErrorDomainNetDB \(EAI_NONAME)"])
            #expect(!socket.isConnected)
            var address = UdpPeer.loopback(ipv6: false, port: peer.port)
            try socket.connect(
                toAddress: withUnsafeBytes(of: &address) { Data($0.prefix(MemoryLayout<sockaddr_in>.size)) })
            #expect(recorder.wait(for: 3))
            #expect(recorder.events.last == "connected 127.0.0.1 \(peer.port)")
            let bad = #expect(throws: QueueUdpSocketError.self) {
                try QueueUdpSocket(delegate: recorder, delegateQueue: recorder.queue).connect(toAddress: Data([0, 1]))
            }
            #expect(bad?.code == .badParam)
        }
    }

    @Test("send filter: a rejected datagram is not sent but reported sent; asynchronous and synchronous filters")
    func sendFilter() async throws {
        try await onNewThread {
            for asynchronous in [true, false] {
                let recorder = QueueUdpRecorder()
                let socket = QueueUdpSocket(delegate: recorder, delegateQueue: recorder.queue)
                let filterQueue = DispatchQueue(label: "filter")
                socket.setSendFilter({ _, _, tag in tag != 2 }, withQueue: filterQueue, isAsynchronous: asynchronous)
                let peer = UdpPeer()
                for tag in 1...3 {
                    socket.send(Data("\(tag)".utf8), toHost: "127.0.0.1", port: peer.port, withTimeout: 5, tag: tag)
                }
                #expect(recorder.wait(for: 3))
                #expect(recorder.events == ["sent 1", "sent 2", "sent 3"])
                #expect(peer.receive()?.bytes == Array("1".utf8))
                #expect(peer.receive()?.bytes == Array("3".utf8))
            }
        }
    }

    @Test(
        "an asynchronous receive filter that answers after close: the datagram is dropped, nothing reaches the delegate but the close"
    )
    func filterAnswersAfterClose() async throws {
        try await onNewThread {
            let recorder = QueueUdpRecorder()
            let socket = QueueUdpSocket(delegate: recorder, delegateQueue: recorder.queue)
            let asked = DispatchSemaphore(value: 0)
            let answer = DispatchSemaphore(value: 0)
            socket.setReceiveFilter(
                { _, _, _ in
                    asked.signal()
                    answer.wait()
                    return true
                }, withQueue: DispatchQueue(label: "filter"), isAsynchronous: true)
            try socket.bind(toPort: 0, interface: "127.0.0.1")
            try socket.beginReceiving()
            UdpPeer().send(bytes("late"), to: socket.localPort)
            #expect(asked.wait(timeout: .now() + 10) == .success)
            socket.close()
            answer.signal()
            #expect(recorder.wait(for: 1))
            #expect(recorder.events == ["closed"])
            // The answer is counted off on the socket queue; past it and past the delegate queue, a
            // delivery it caused would be recorded.
            #expect(waitUntil { socket.pendingDatagramCount == 0 })
            socket.perform {}
            recorder.queue.sync {}
            #expect(recorder.events == ["closed"])
        }
    }

    @Test("maxSendBufferSize never shrinks the system's send buffer (SO_SNDBUF stays at the default of a plain socket)")
    func sendBufferNeverShrinks() throws {
        let plain = socket(AF_INET, Int32(SOCK_DGRAM.rawValue), 0)
        defer { close(plain) }
        let recorder = QueueUdpRecorder()
        let udp = QueueUdpSocket(delegate: recorder, delegateQueue: recorder.queue)
        udp.maxSendBufferSize = 1024
        #expect(udp.maxSendBufferSize == 1024)
        try udp.bind(toPort: 0, interface: "127.0.0.1")
        let descriptor = try #require(udp.descriptors.first)
        #expect(sendBufferSize(descriptor) >= sendBufferSize(plain))
        udp.close()
    }

    @Test("receive filter: rejected datagrams never reach the delegate, passed ones carry the filter's context")
    func receiveFilter() async throws {
        try await onNewThread {
            for asynchronous in [true, false] {
                let recorder = QueueUdpRecorder()
                let socket = QueueUdpSocket(delegate: recorder, delegateQueue: recorder.queue)
                socket.setReceiveFilter(
                    { data, _, context in
                        context = "ctx-\(data.count)"
                        return data.first != UInt8(ascii: "x")
                    }, withQueue: DispatchQueue(label: "filter"), isAsynchronous: asynchronous)
                try socket.bind(toPort: 0, interface: "127.0.0.1")
                try socket.receiveOnce()
                let peer = UdpPeer()
                peer.send(bytes("xdrop"), to: socket.localPort)
                peer.send(bytes("keep"), to: socket.localPort)
                peer.send(bytes("later"), to: socket.localPort)
                #expect(recorder.wait(for: 1))
                #expect(!recorder.wait(for: 2, timeout: 0.2))  // once: "later" waits
                try socket.beginReceiving()
                #expect(recorder.wait(for: 2))
                #expect(
                    recorder.events == [
                        "received keep from 127.0.0.1 context ctx-4", "received later from 127.0.0.1 context ctx-5",
                    ])
            }
        }
    }

    @Test(
        "a delegate that answers each datagram behind a synchronous receive filter on its own queue does not deadlock")
    func echoBehindSynchronousFilter() async throws {
        try await onNewThread {
            let echo = EchoingDelegate()
            let socket = QueueUdpSocket(delegate: echo, delegateQueue: echo.queue)
            socket.setReceiveFilter({ data, _, _ in !data.isEmpty }, withQueue: echo.queue, isAsynchronous: false)
            try socket.bind(toPort: 0, interface: "127.0.0.1")
            try socket.beginReceiving()
            let port = socket.localPort  // read once: a getter waits for the socket queue
            let peer = UdpPeer()
            for text in ["one", "", "two"] { peer.send(bytes(text), to: port) }
            #expect(peer.receive()?.bytes == bytes("one"))
            #expect(peer.receive()?.bytes == bytes("two"))  // the empty one was filtered out
            // Datagrams keep coming while the delegate answers: the filter runs while sends are made.
            var echoed = 0
            var stalled = false
            func receiveEcho() {
                if peer.receive(timeout: 5) != nil { echoed += 1 } else { stalled = true }
            }
            for index in 0..<200 where !stalled {
                peer.send(bytes("\(index)"), to: port)
                if index >= 8 { receiveEcho() }
            }
            while !stalled, echoed < 200 { receiveEcho() }
            // Deadlocked queues would block close() too: only a test that passed so far goes on.
            try #require(echoed == 200)
            socket.setReceiveFilter(nil, withQueue: nil)
            peer.send(bytes("three"), to: port)
            #expect(peer.receive()?.bytes == bytes("three"))
            socket.close()
        }
    }

    @Test(
        "a socket queue targeting the delegate queue, unmarked: the delegate's answers still go out (queued, as in GCD)"
    )
    func socketQueueTargetingDelegateQueue() async throws {
        try await onNewThread {
            let echo = EchoingDelegate()
            let socket = try QueueUdpSocket(
                delegate: echo, delegateQueue: echo.queue,
                socketQueue: DispatchQueue(label: "socket", target: echo.queue))
            try socket.bind(toPort: 0, interface: "127.0.0.1")
            try socket.beginReceiving()
            let port = socket.localPort  // read once: a getter waits for the socket queue
            let peer = UdpPeer()
            var echoed = 0
            for index in 0..<20 {
                peer.send(bytes("\(index)"), to: port)
                guard peer.receive(timeout: 5) != nil else { break }
                echoed += 1
            }
            // Deadlocked queues would block close() too: only a test that passed so far goes on.
            try #require(echoed == 20)
            socket.close()
        }
    }

    @Test(
        "close: queued sends dropped silently, didClose with nil; the object binds again; closeAfterSending drains first"
    )
    func closing() async throws {
        try await onNewThread {
            let recorder = QueueUdpRecorder()
            let socket = QueueUdpSocket(delegate: recorder, delegateQueue: recorder.queue)
            try socket.bind(toPort: 0, interface: "127.0.0.1")
            let sockets = socketTargets(socket.descriptors)
            let port = socket.localPort
            socket.close()
            #expect(stillOpen(sockets).isEmpty)  // gone when close returns
            #expect(bindsWithoutReuse(port: port))  // so its port is free at once
            #expect(recorder.wait(for: 1))
            #expect(recorder.events == ["closed"] && socket.isClosed)
            try socket.bind(toPort: 0, interface: "127.0.0.1")
            #expect(!socket.isClosed)
            let peer = UdpPeer()
            for tag in 1...3 {
                socket.send(Data("\(tag)".utf8), toHost: "127.0.0.1", port: peer.port, withTimeout: 5, tag: tag)
            }
            socket.closeAfterSending()
            #expect(recorder.wait(for: 5))
            #expect(Array(recorder.events.dropFirst()) == ["sent 1", "sent 2", "sent 3", "closed"])
            #expect((1...3).map { _ in peer.receive()?.bytes } == [Array("1".utf8), Array("2".utf8), Array("3".utf8)])
        }
    }

    @Test(
        "connected to a closed port: the ICMP refusal comes back as ECONNREFUSED on a later send; the socket stays open"
    )
    func refusedWhileConnected() async throws {
        try await onNewThread {
            let recorder = QueueUdpRecorder()
            let socket = QueueUdpSocket(delegate: recorder, delegateQueue: recorder.queue)
            try socket.connect(toHost: "127.0.0.1", onPort: freeUdpPort())
            #expect(recorder.wait(for: 1))
            try socket.beginReceiving()
            // Each send is answered before the next is queued; the refusal of one surfaces on a later one.
            var refused = false
            for tag in 1...20 where !refused {
                socket.send(Data("anyone?".utf8), withTimeout: 5, tag: tag)
                #expect(recorder.wait(for: tag + 1))
                refused = recorder.events.last == "not sent \(tag) \(NSPOSIXErrorDomain) \(ECONNREFUSED)"
            }
            #expect(refused, "\(recorder.events)")
            #expect(recorder.events[1] == "sent 1")
            #expect(!socket.isClosed && socket.isConnected)
        }
    }

    @Test(
        "misuse is thrown, never a crash: no delegate, global socket queue, bind twice, unknown interface, both disabled"
    )
    func misuse() throws {
        let global = #expect(throws: QueueUdpSocketError.self) {
            try QueueUdpSocket(delegate: nil, delegateQueue: nil, socketQueue: .global())
        }
        #expect(global?.code == .badConfig)
        let lonely = QueueUdpSocket()
        let noDelegate = #expect(throws: QueueUdpSocketError.self) { try lonely.bind(toPort: 0) }
        #expect(noDelegate?.code == .badConfig)
        let recorder = QueueUdpRecorder()
        let socket = QueueUdpSocket(delegate: recorder, delegateQueue: recorder.queue)
        let unknown = #expect(throws: QueueUdpSocketError.self) { try socket.bind(toPort: 0, interface: "no-such-if0") }
        #expect(unknown?.code == .badParam && socket.isClosed)
        try socket.bind(toPort: 0, interface: "127.0.0.1")
        let twice = #expect(throws: QueueUdpSocketError.self) { try socket.bind(toPort: 0) }
        #expect(twice?.code == .badConfig)
        let group = #expect(throws: QueueUdpSocketError.self) { try socket.joinMulticastGroup("not-a-group") }
        #expect(group?.code == .badParam)
        let disabled = QueueUdpSocket(delegate: recorder, delegateQueue: recorder.queue)
        disabled.isIPv4Enabled = false
        disabled.isIPv6Enabled = false
        let none = #expect(throws: QueueUdpSocketError.self) { try disabled.bind(toPort: 0) }
        #expect(none?.code == .badConfig)
        let unbound = QueueUdpSocket(delegate: recorder, delegateQueue: recorder.queue)
        let join = #expect(throws: QueueUdpSocketError.self) { try unbound.joinMulticastGroup("239.255.42.9") }
        #expect(join?.code == .badConfig)
    }

    @Test("multicast: joined on the loopback interface a datagram to the group arrives and the IPv6 descriptor closes")
    func multicast() async throws {
        try await onNewThread {
            let recorder = QueueUdpRecorder()
            let socket = QueueUdpSocket(delegate: recorder, delegateQueue: recorder.queue)
            try socket.bind(toPort: 0)
            try socket.joinMulticastGroup("239.255.42.11", onInterface: "127.0.0.1")
            #expect(socket.isIPv4 && !socket.isIPv6)
            try socket.beginReceiving()
            let peer = UdpPeer()
            peer.useLoopbackForMulticast()
            peer.send(bytes("group"), to: socket.localPort, host: "239.255.42.11")
            #expect(recorder.wait(for: 1))
            #expect(recorder.events == ["received group from 127.0.0.1"])
            try socket.leaveMulticastGroup("239.255.42.11", onInterface: "127.0.0.1")
            #expect(throws: NSError.self) { try socket.leaveMulticastGroup("239.255.42.11", onInterface: "127.0.0.1") }
            let sender = QueueUdpSocket(delegate: recorder, delegateQueue: recorder.queue)
            try sender.sendIPv4Multicast(onInterface: "127.0.0.1")
            try sender.sendIPv6Multicast(onInterface: "lo")
            let unknown = #expect(throws: QueueUdpSocketError.self) {
                try sender.sendIPv4Multicast(onInterface: "nope0")
            }
            #expect(unknown?.code == .badParam)
        }
    }

    @Test("IPv6 multicast: joined at IPPROTO_IPV6 on lo (the system lists it), the IPv4 descriptor closes; left")
    func multicastIPv6() async throws {
        try await onNewThread {
            let recorder = QueueUdpRecorder()
            let socket = QueueUdpSocket(delegate: recorder, delegateQueue: recorder.queue)
            try socket.bind(toPort: 0)
            let group = "ff12::5153:\(String(Int.random(in: 1...0xfff0), radix: 16))"
            try socket.joinMulticastGroup(group, onInterface: "lo")
            #expect(!socket.isIPv4 && socket.isIPv6)
            #expect(ipv6GroupJoined(group, on: "lo"))
            try socket.leaveMulticastGroup(group, onInterface: "lo")
            #expect(!ipv6GroupJoined(group, on: "lo"))
        }
    }

    @Test("broadcast: EACCES until enableBroadcast(true), then the loopback broadcast address is reached")
    func broadcast() async throws {
        try await onNewThread {
            let recorder = QueueUdpRecorder()
            let listener = QueueUdpSocket(delegate: recorder, delegateQueue: recorder.queue)
            try listener.bind(toPort: 0, interface: nil)
            try listener.beginReceiving()
            let socket = QueueUdpSocket(delegate: recorder, delegateQueue: recorder.queue)
            socket.send(Data("all".utf8), toHost: "127.255.255.255", port: listener.localPort, withTimeout: 5, tag: 1)
            #expect(recorder.wait(for: 1))
            #expect(recorder.events == ["not sent 1 \(NSPOSIXErrorDomain) \(EACCES)"])
            try socket.enableBroadcast(true)
            try socket.enableReusePort(true)
            socket.send(Data("all".utf8), toHost: "127.255.255.255", port: listener.localPort, withTimeout: 5, tag: 2)
            #expect(recorder.wait(for: 3))
            #expect(Set(recorder.events.dropFirst()) == ["sent 2", "received all from 127.0.0.1"])
        }
    }

    @Test(
        "perform: the descriptors inside, -1 outside; getDelegate, a target queue that calls in, family of an address")
    func utilities() async throws {
        try await onNewThread {
            let recorder = QueueUdpRecorder()
            let target = DispatchQueue(label: "target")
            let socket = try QueueUdpSocket(
                delegate: nil, delegateQueue: nil, socketQueue: DispatchQueue(label: "socket", target: target))
            socket.setDelegate(recorder, delegateQueue: recorder.queue)
            var delegate: (any QueueUdpSocketDelegate)?
            var queue: DispatchQueue?
            socket.getDelegate(&delegate, delegateQueue: &queue)
            #expect(delegate === recorder && queue === recorder.queue)
            try socket.bind(toPort: 0, interface: "127.0.0.1")
            #expect(socket.socketFD == -1 && socket.socket4FD == -1)
            var inside: [Int32] = []
            socket.perform { inside = [socket.socketFD, socket.socket4FD, socket.socket6FD] }
            #expect(inside == [socket.descriptors[0], socket.descriptors[0], -1])
            socket.markSocketQueueTargetQueue(target)
            #expect(target.sync { socket.localPort } == socket.localPort)  // inline, no deadlock
            socket.unmarkSocketQueueTargetQueue(target)
            let peer = UdpPeer()
            try socket.connect(toAddress: QueueUdpSocketLifecycleTests.loopbackAddress(port: peer.port))
            socket.send(Data("tagged".utf8), withTag: 9)
            #expect(recorder.wait(for: 2))
            #expect(recorder.events.last == "sent 9")
            #expect(peer.receive()?.bytes == Array("tagged".utf8))
            #expect(QueueUdpSocket.family(fromAddress: try #require(socket.localAddress)) == AF_INET)
            #expect(QueueUdpSocket.family(fromAddress: Data([1, 2])) == AF_UNSPEC)
        }
    }

    static func loopbackAddress(port: UInt16) -> Data {
        var address = UdpPeer.loopback(ipv6: false, port: port)
        return withUnsafeBytes(of: &address) { Data($0.prefix(MemoryLayout<sockaddr_in>.size)) }
    }

    @Test("a socket released without close gives its descriptors back and tells nobody")
    func releasedWithoutClose() async throws {
        try await onNewThread {
            let recorder = QueueUdpRecorder()
            var sockets: [String] = []
            do {
                let socket = QueueUdpSocket(delegate: recorder, delegateQueue: recorder.queue)
                try socket.bind(toPort: 0)
                sockets = socketTargets(socket.descriptors)
                #expect(sockets.count == 2 && sockets.allSatisfy { $0.hasPrefix("socket:[") })
            }
            // The descriptors close from the sources' cancel handlers, on the socket queue.
            #expect(waitUntil { stillOpen(sockets).isEmpty })
            #expect(!recorder.wait(for: 1, timeout: 0.1))
        }
    }
}

/// Sends every datagram back to its sender, from its own queue.
private final class EchoingDelegate: QueueUdpSocketDelegate, @unchecked Sendable {
    // @unchecked Sendable: no state but the queue.
    let queue = DispatchQueue(label: "EchoingDelegate")

    func udpSocket(
        _ sock: QueueUdpSocket, didReceive data: Data, fromAddress address: Data,
        withFilterContext filterContext: (any Sendable)?
    ) {
        sock.send(data, toAddress: address, withTimeout: 5, tag: 0)
    }
}

/// What each descriptor is ("socket:[inode]"): unlike its number, which the system gives to the next
/// socket any test opens, the inode names this socket only.
private func socketTargets(_ descriptors: [Int32]) -> [String] {
    descriptors.map { (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/\($0)")) ?? "?" }
}

/// Whether a datagram socket without `SO_REUSEADDR` can bind 127.0.0.1:`port` (nothing else holds it).
private func bindsWithoutReuse(port: UInt16) -> Bool {
    let fd = socket(AF_INET, Int32(SOCK_DGRAM.rawValue), 0)
    defer { close(fd) }
    var address = UdpPeer.loopback(ipv6: false, port: port)
    return withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
            bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
        }
    }
}

/// The ones of `sockets` some descriptor of the process still is.
private func stillOpen(_ sockets: [String]) -> [String] {
    let open = openFileDescriptorTargets()
    return sockets.filter { socket in open.contains { $0.hasSuffix(socket) } }
}

/// The `SO_SNDBUF` of `descriptor`.
private func sendBufferSize(_ descriptor: Int32) -> Int32 {
    var size: Int32 = 0
    var length = socklen_t(MemoryLayout<Int32>.size)
    getsockopt(descriptor, SOL_SOCKET, SO_SNDBUF, &size, &length)
    return size
}
