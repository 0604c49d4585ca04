import Foundation
import SocketTestSupport
import Testing

@Suite("Examples/UdpEchoServer, QueueUdpEchoServer and LanDiscovery, run as programs")
struct UdpExamplesTests {
    @Test(
        "UdpEchoServer (RunLoopUdpSocket), QueueUdpEchoServer: each datagram comes back to its sender whole; after --count answers it closes and exits 0",
        arguments: ["UdpEchoServer", "QueueUdpEchoServer"])
    func echo(program: String) async throws {
        try await onNewThread {
            let server = try ChildProcess(
                built: program, ["--interface", "127.0.0.1", "--port", "0", "--count", "2"])
            defer { server.stop() }
            let port = try #require(server.port(announcedBy: "UDP echo server started on port"))
            let peer = UdpPeer()
            peer.send(bytes("one"), to: port)
            #expect(peer.receive(timeout: 10)?.bytes == bytes("one"))
            let large = [UInt8](repeating: 7, count: 9000)
            peer.send(large, to: port)
            let echoed = peer.receive(timeout: 10)
            #expect(echoed?.bytes == large && echoed?.port == port)
            #expect(server.waitForExit() == 0)
            #expect(server.output.contains("Received 3 bytes from 127.0.0.1:\(peer.port)"))
            #expect(server.output.contains("Closed"))
        }
    }

    @Test("LanDiscovery: a seeker's question to the group reaches two responders; both answers come back by unicast")
    func discovery() async throws {
        try await onNewThread {
            let port = String(freeUdpPort())
            let group = "239.255.77.\(Int.random(in: 2...250))"
            let common = ["--group", group, "--port", port, "--interface", "127.0.0.1"]
            let first = try ChildProcess(built: "LanDiscovery", ["responder", "--name", "alpha"] + common)
            defer { first.stop() }
            let second = try ChildProcess(built: "LanDiscovery", ["responder", "--name", "beta"] + common)
            defer { second.stop() }
            #expect(first.wait(for: "Responder alpha listening on \(group):\(port)"))
            #expect(second.wait(for: "Responder beta listening on \(group):\(port)"))
            let seeker = try ChildProcess(built: "LanDiscovery", ["seeker", "--wait", "1"] + common)
            defer { seeker.stop() }
            #expect(seeker.waitForExit(timeout: 20) == 0)
            #expect(seeker.output.contains(": HERE alpha") && seeker.output.contains(": HERE beta"))
            #expect(seeker.output.contains("2 answer(s)"))
            #expect(first.wait(for: "Question from 127.0.0.1:") && second.wait(for: "Question from 127.0.0.1:"))
        }
    }

    @Test("LanDiscovery: a seeker nobody answers says so and exits 1; an unknown role prints the usage and exits 2")
    func nobodyAndUsage() async throws {
        try await onNewThread {
            let seeker = try ChildProcess(
                built: "LanDiscovery",
                ["seeker", "--wait", "0.3", "--group", "239.255.78.9", "--port", String(freeUdpPort())])
            defer { seeker.stop() }
            #expect(seeker.waitForExit(timeout: 20) == 1)
            #expect(seeker.output.contains("0 answer(s)"))
            let wrong = try ChildProcess(built: "LanDiscovery", ["bystander"])
            #expect(wrong.waitForExit() == 2)
            #expect(wrong.output.contains("usage: LanDiscovery"))
        }
    }
}
