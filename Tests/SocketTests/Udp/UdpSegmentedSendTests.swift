import AsyncSocketKit
import Foundation
import SocketTestSupport
import Testing

/// `send(_:segmentSize:…)` on both faces: one call, one report, the bytes cut by the kernel into datagrams
/// of the segment size (`UDP_SEGMENT`), each arriving whole and in order; sizes the kernel cannot cut are
/// refused or reported, and the socket stays usable.
@Suite("UDP segmented sends (UDP_SEGMENT): both faces, both engines, IPv4 and IPv6")
struct UdpSegmentedSendTests {
    /// 3,500 bytes, each byte its index modulo 251, so a datagram out of order or cut wrong shows.
    static let payload = Data((0..<3500).map { UInt8($0 % 251) })

    /// The datagrams a 1,000-byte segment size makes of ``payload``.
    static var expectedDatagrams: [[UInt8]] {
        stride(from: 0, to: payload.count, by: 1000).map { Array(payload[$0..<min($0 + 1000, payload.count)]) }
    }

    static func received(by peer: UdpPeer, count: Int) -> [[UInt8]] {
        (0..<count).compactMap { _ in peer.receive(timeout: 5)?.bytes }
    }

    @Test(
        "RunLoopUdpSocket: to a host (IPv4, IPv6) and to the connected peer, four datagrams from one send, one report",
        arguments: RunLoopSocket.Engine.allCases)
    func runLoopSocket(engine: RunLoopSocket.Engine) async throws {
        try await onNewThread {
            for ipv6 in [false, true] {
                let recorder = UdpRecorder()
                let socket = RunLoopUdpSocket(delegate: recorder, engine: engine)
                let peer = UdpPeer(ipv6: ipv6)
                let host = ipv6 ? "::1" : "127.0.0.1"
                #expect(
                    socket.send(Self.payload, segmentSize: 1000, toHost: host, port: peer.port, withTimeout: 5, tag: 1))
                #expect(runUntil { recorder.events.count == 1 })
                #expect(recorder.events == ["send 1"])
                #expect(Self.received(by: peer, count: 4) == Self.expectedDatagrams)
                socket.close()
            }
            let recorder = UdpRecorder()
            let socket = RunLoopUdpSocket(delegate: recorder, engine: engine)
            let peer = UdpPeer()
            try socket.connect(toAddress: loopbackAddress(port: peer.port))
            #expect(socket.send(Self.payload, segmentSize: 1000, withTimeout: 5, tag: 2))
            #expect(runUntil { recorder.events.count == 1 })
            #expect(recorder.events == ["send 2"])
            #expect(Self.received(by: peer, count: 4) == Self.expectedDatagrams)
        }
    }

    @Test(
        "RunLoopUdpSocket: a segment size outside 1...65507 is refused; 200 segments are the kernel's EINVAL; the socket goes on",
        arguments: RunLoopSocket.Engine.allCases)
    func runLoopSocketLimits(engine: RunLoopSocket.Engine) async throws {
        try await onNewThread {
            let recorder = UdpRecorder()
            let socket = RunLoopUdpSocket(delegate: recorder, engine: engine)
            let peer = UdpPeer()
            for size in [0, -1, 65508] {
                #expect(
                    !socket.send(
                        Self.payload, segmentSize: size, toHost: "127.0.0.1", port: peer.port, withTimeout: 5, tag: 9))
            }
            #expect(
                socket.send(
                    Data(count: 2000), segmentSize: 10, toHost: "127.0.0.1", port: peer.port, withTimeout: 5, tag: 1))
            #expect(socket.send(Data("after".utf8), toHost: "127.0.0.1", port: peer.port, withTimeout: 5, tag: 2))
            #expect(runUntil { recorder.events.count == 2 })
            #expect(recorder.events == ["not-send 1 \(NSPOSIXErrorDomain) \(EINVAL)", "send 2"])
            #expect(peer.receive(timeout: 5)?.bytes == Array("after".utf8))
            #expect(!socket.isClosed)
        }
    }

    @Test("QueueUdpSocket: to a host (IPv4, IPv6) and to the connected peer, four datagrams from one send, one report")
    func queueSocket() async throws {
        try await onNewThread {
            for ipv6 in [false, true] {
                let recorder = QueueUdpRecorder()
                let socket = QueueUdpSocket(delegate: recorder, delegateQueue: recorder.queue)
                let peer = UdpPeer(ipv6: ipv6)
                socket.send(
                    Self.payload, segmentSize: 1000, toHost: ipv6 ? "::1" : "127.0.0.1", port: peer.port,
                    withTimeout: 5, tag: 1)
                #expect(recorder.wait(for: 1))
                #expect(recorder.events == ["sent 1"])
                #expect(Self.received(by: peer, count: 4) == Self.expectedDatagrams)
                socket.close()
            }
            let recorder = QueueUdpRecorder()
            let socket = QueueUdpSocket(delegate: recorder, delegateQueue: recorder.queue)
            let peer = UdpPeer()
            try socket.connect(toAddress: loopbackAddress(port: peer.port))
            socket.send(Self.payload, segmentSize: 1000, withTimeout: 5, tag: 2)
            #expect(recorder.wait(for: 2))
            #expect(recorder.events.last == "sent 2")
            #expect(Self.received(by: peer, count: 4) == Self.expectedDatagrams)
            socket.close()
        }
    }

    @Test("QueueUdpSocket: a bad segment size is badParam; 200 segments are the kernel's EINVAL; the socket goes on")
    func queueSocketLimits() async throws {
        try await onNewThread {
            let recorder = QueueUdpRecorder()
            let socket = QueueUdpSocket(delegate: recorder, delegateQueue: recorder.queue)
            let peer = UdpPeer()
            socket.send(Self.payload, segmentSize: 0, toHost: "127.0.0.1", port: peer.port, withTimeout: 5, tag: 1)
            socket.send(
                Data(count: 2000), segmentSize: 10, toHost: "127.0.0.1", port: peer.port, withTimeout: 5, tag: 2)
            socket.send(Data("after".utf8), toHost: "127.0.0.1", port: peer.port, withTimeout: 5, tag: 3)
            #expect(recorder.wait(for: 3))
            #expect(
                recorder.events == [
                    "not sent 1 \(QueueUdpSocketError.errorDomain) \(QueueUdpSocketError.Code.badParam.rawValue)",
                    "not sent 2 \(NSPOSIXErrorDomain) \(EINVAL)", "sent 3",
                ])
            #expect(peer.receive(timeout: 5)?.bytes == Array("after".utf8))
            #expect(!socket.isClosed)
            socket.close()
        }
    }
}
