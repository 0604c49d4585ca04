import Foundation
import SocketTestSupport
import Testing

@Suite("asyncsocket udp-echo and udp-send")
struct UdpCommandTests {
    @Test(
        "udp-send's datagrams come back from udp-echo on either API and engine, each reply printed; it exits after --count",
        arguments: [["--api", "legacy"], ["--api", "legacy", "--engine", "queue-core"], ["--api", "queue"]])
    func sendToEcho(api: [String]) async throws {
        try await onNewThread {
            let echo = try ChildProcess(
                built: "asyncsocket", ["udp-echo"] + api + ["--host", "127.0.0.1", "--port", "0", "--count", "3"])
            defer { echo.stop() }
            let port = try #require(echo.port(announcedBy: "udp-echo: listening on port"))
            let send = try ChildProcess(built: "asyncsocket", ["udp-send", "127.0.0.1", "\(port)", "one", "two"])
            defer { send.stop() }
            #expect(send.waitForExit() == 0)
            #expect(send.output == "one\ntwo\n")
            let stdin = try ChildProcess(built: "asyncsocket", ["udp-send", "localhost", "\(port)"])
            defer { stdin.stop() }
            stdin.send("three\n")
            stdin.closeInput()
            #expect(stdin.waitForExit() == 0)
            #expect(stdin.output == "three\n")
            #expect(echo.waitForExit() == 0)
            #expect(echo.output.contains("udp-echo: closed"))
        }
    }

    @Test("udp-send to a port nobody listens on: the refusal is reported and the exit status is 1")
    func refused() async throws {
        try await onNewThread {
            let send = try ChildProcess(
                built: "asyncsocket", ["udp-send", "127.0.0.1", "\(freeUdpPort())", "anyone", "--timeout", "5"])
            defer { send.stop() }
            #expect(send.waitForExit() == 1)
            #expect(send.output.contains("udp-send: no reply: Connection refused"))
        }
    }

    @Test("udp-send --no-reply only sends; the datagram arrives")
    func noReply() async throws {
        try await onNewThread {
            let peer = UdpPeer()
            let send = try ChildProcess(
                built: "asyncsocket", ["udp-send", "127.0.0.1", "\(peer.port)", "fire", "--no-reply"])
            defer { send.stop() }
            #expect(send.waitForExit() == 0)
            #expect(peer.receive(timeout: 10)?.bytes == bytes("fire"))
        }
    }
}
