import AsyncSocketKit
import Foundation
import SocketTestSupport
import Testing

// TCPSocketOptions on each face's connected socket, read back from the descriptor with getsockopt.

/// One option of `fd` as the kernel reports it.
private func option(_ fd: Int32, _ level: Int32, _ name: Int32) -> Int32 {
    var value: Int32 = -1
    var length = socklen_t(MemoryLayout<Int32>.size)
    _ = getsockopt(fd, level, name, &value, &length)
    return value
}

/// The options every test sets, and what the kernel must report for them.
private let options = TCPSocketOptions(
    noDelay: true, keepAlive: .on(idleSeconds: 30, intervalSeconds: 5, count: 4), userTimeoutMilliseconds: 1500,
    sendBufferSize: 32_768, receiveBufferSize: 65_536)

private func expectSet(_ fd: Int32) {
    let tcp = Int32(IPPROTO_TCP)
    #expect(option(fd, tcp, TCP_NODELAY) == 1)
    #expect(option(fd, SOL_SOCKET, SO_KEEPALIVE) == 1)
    #expect(option(fd, tcp, TCP_KEEPIDLE) == 30 && option(fd, tcp, TCP_KEEPINTVL) == 5)
    #expect(option(fd, tcp, TCP_KEEPCNT) == 4)
    #expect(option(fd, tcp, TCP_USER_TIMEOUT) == 1500)
    // The kernel doubles a buffer size it is given (its bookkeeping).
    #expect(option(fd, SOL_SOCKET, SO_SNDBUF) == 2 * 32_768)
    #expect(option(fd, SOL_SOCKET, SO_RCVBUF) == 2 * 65_536)
}

@Suite("TCPSocketOptions: typed TCP options on every face, read back from the descriptor")
struct TCPSocketOptionsTests {
    @Test(
        "RunLoopSocket: set on the connected socket; keep-alive off again; before connecting, a usage error",
        arguments: RunLoopSocket.Engine.allCases)
    func runLoopSocket(engine: RunLoopSocket.Engine) async throws {
        try await onNewThread {
            let unconnected = RunLoopSocket(delegate: Recorder(), engine: engine)
            #expect(throws: AsyncSocketUsageError.self) { try unconnected.setOptions(options) }
            let connection = try AcceptedConnection(engine: engine)
            defer { connection.tearDown() }
            try connection.child.setOptions(options)
            expectSet(connection.child.socketFD)
            try connection.child.setOptions(TCPSocketOptions(noDelay: false, keepAlive: .off))
            #expect(option(connection.child.socketFD, Int32(IPPROTO_TCP), TCP_NODELAY) == 0)
            #expect(option(connection.child.socketFD, SOL_SOCKET, SO_KEEPALIVE) == 0)
        }
    }

    @Test("QueueSocket: set on the connected socket; before connecting, badConfig")
    func queueSocket() throws {
        let unconnected = QueueSocket()
        #expect(throws: QueueSocketError.self) { try unconnected.setOptions(options) }
        let pair = try QueuePair()
        defer { pair.tearDown() }
        try pair.client.setOptions(options)
        pair.client.perform { expectSet(pair.client.socketFD) }
    }

    @Test("AsyncSocketConnection: set on the connection; once closed, badConfig")
    func asyncConnection() async throws {
        try await onNewThread {
            let listener = try AsyncSocketListener(host: "127.0.0.1", port: 0)
            let port = listener.port
            let client = try await within { try await AsyncSocketConnection.connect(toHost: "127.0.0.1", port: port) }
            try client.setOptions(options)
            client.socket.perform { expectSet(client.socket.socketFD) }
            client.close()
            #expect(throws: QueueSocketError.self) { try client.setOptions(options) }
        }
    }

    @Test(
        "values no socket takes throw EINVAL naming the option and set nothing: a keep-alive time or count of 0, a negative size or timeout"
    )
    func refusedValues() throws {
        let pair = try QueuePair()
        defer { pair.tearDown() }
        let refused: [(TCPSocketOptions, String)] = [
            (
                TCPSocketOptions(noDelay: true, keepAlive: .on(idleSeconds: 0, intervalSeconds: 5, count: 4)),
                "TCP_KEEPIDLE"
            ),
            (
                TCPSocketOptions(noDelay: true, keepAlive: .on(idleSeconds: 30, intervalSeconds: 0, count: 4)),
                "TCP_KEEPINTVL"
            ),
            (
                TCPSocketOptions(noDelay: true, keepAlive: .on(idleSeconds: 30, intervalSeconds: 5, count: 0)),
                "TCP_KEEPCNT"
            ),
            (TCPSocketOptions(noDelay: true, sendBufferSize: -1), "SO_SNDBUF"),
            (TCPSocketOptions(noDelay: true, receiveBufferSize: -1), "SO_RCVBUF"),
            (TCPSocketOptions(noDelay: true, userTimeoutMilliseconds: -1), "TCP_USER_TIMEOUT"),
        ]
        for (options, name) in refused {
            let error = #expect(throws: NSError.self) { try pair.client.setOptions(options) }
            #expect(error?.domain == NSPOSIXErrorDomain && error?.code == Int(EINVAL))
            // The failure reason names the option refused.
            #expect(error?.localizedFailureReason?.contains("(\(name))") == true)
        }
        // noDelay came first in each, and was not set: the values are checked before any is.
        pair.client.perform { #expect(option(pair.client.socketFD, Int32(IPPROTO_TCP), TCP_NODELAY) == 0) }
    }
}
