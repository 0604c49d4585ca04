import AsyncSocketKit
import Foundation
import SocketTestSupport
import Testing

// The async face over loopback: a listener of ours or a plain blocking peer (RawPeer) on the other
// side. Every await is bounded by `within` (10 s); nothing sleeps.

@Suite("AsyncSocketConnection: reads, writes, closing and cancellation over loopback")
struct AsyncSocketConnectionTests {
    @Test("a line there and back: read(through:), write, read(exactly:), read(upTo:); the addresses of both ends")
    func echo() async throws {
        try await onNewThread {
            let (listener, client, server) = try await asyncPair()
            #expect(client.remotePort == listener.port && server.localPort == listener.port)
            #expect(server.remotePort == client.localPort && client.remoteHost == "127.0.0.1")
            try await within { try await client.write(Data("hello\nworld".utf8)) }
            let line = try await within { try await server.read(through: Data("\n".utf8)) }
            #expect(text(line) == "hello\n")
            #expect(text(try await within { try await server.read(exactly: 5) }) == "world")
            try await within { try await server.write(Data("0123456789".utf8)) }
            let first = try await within { try await client.read(upTo: 4) }
            #expect(!first.isEmpty && first.count <= 4)
            let rest = try await within { try await client.read(exactly: 10 - first.count) }
            #expect(text(first + rest) == "0123456789")
        }
    }

    @Test("writes from two tasks leave in the order they were started: the second waits behind the first")
    func writesInOrder() async throws {
        try await onNewThread {
            // Tasks of the test on a thread of their own: the shared pool may be kept busy by other tests.
            let executor = ThreadExecutor(name: "tasks")
            defer { executor.shutdown() }
            let (_, peer, server) = try await asyncRawPair()
            let big = Data(repeating: 97, count: 8 << 20)
            let first = Task(executorPreference: executor) { try await server.write(big) }
            // The first write is under way, and stays so: the peer reads nothing yet.
            #expect(
                waitUntil {
                    var done = 0
                    var total = 0
                    _ = server.socket.progressOfWrite(returningTag: nil, bytesDone: &done, total: &total)
                    return total == big.count && done > 0
                })
            let second = Task(executorPreference: executor) { try await server.write(Data("b".utf8)) }
            let received = peer.receive(count: big.count + 1)
            #expect(received.count == big.count + 1)
            #expect(received.last == 98 && received.dropLast().allSatisfy { $0 == 97 })
            try await within { try await first.value }
            try await within { try await second.value }
        }
    }

    @Test("the peer's close fails the waiting read with QueueSocketError closed, and every later operation at once")
    func peerClose() async throws {
        try await onNewThread {
            // Tasks of the test on a thread of their own: the shared pool may be kept busy by other tests.
            let executor = ThreadExecutor(name: "tasks")
            defer { executor.shutdown() }
            let (_, peer, server) = try await asyncRawPair()
            let read = Task(executorPreference: executor) { try await server.read(exactly: 10) }
            peer.send("abc")
            peer.shutdownWrite()
            let error = await #expect(throws: QueueSocketError.self) { try await within { try await read.value } }
            #expect(error?.code == .closed)
            await #expect(throws: QueueSocketError.self) { try await within { try await server.write(Data("x".utf8)) } }
        }
    }

    @Test(
        "close() fails the waiting read with AsyncConnectionError.closed; the peer sees the close; a second close does nothing"
    )
    func closeFailsWaiting() async throws {
        try await onNewThread {
            // Tasks of the test on a thread of their own: the shared pool may be kept busy by other tests.
            let executor = ThreadExecutor(name: "tasks")
            defer { executor.shutdown() }
            let (_, peer, server) = try await asyncRawPair()
            let read = Task(executorPreference: executor) { try await server.read(through: Data("\n".utf8)) }
            peer.send("no newline")
            // The read has taken what came and waits for more (nothing unread for the close to reset).
            #expect(waitUntil { readDone(server) == 10 })
            server.close()
            await #expect(throws: AsyncConnectionError.closed) { try await within { try await read.value } }
            #expect(peer.sawClose())
            server.close()
            await #expect(throws: AsyncConnectionError.closed) { try await within { try await server.read(upTo: 0) } }
        }
    }

    @Test("cancelling a task that waits in a read: CancellationError, the connection closes, the others fail closed")
    func cancelWaitingRead() async throws {
        try await onNewThread {
            // Tasks of the test on a thread of their own: the shared pool may be kept busy by other tests.
            let executor = ThreadExecutor(name: "tasks")
            defer { executor.shutdown() }
            let (_, peer, server) = try await asyncRawPair()
            let reading = Task(executorPreference: executor) { try await server.read(exactly: 4) }
            let other = Task(executorPreference: executor) { try await server.read(exactly: 4) }
            peer.send("ab")
            #expect(waitUntil { readDone(server) == 2 })
            reading.cancel()
            await #expect(throws: CancellationError.self) { try await within { try await reading.value } }
            await #expect(throws: AsyncConnectionError.closed) { try await within { try await other.value } }
            #expect(peer.sawClose())
        }
    }

    @Test("a task cancelled before it reads gets CancellationError at once, and the connection closes")
    func cancelledBeforeRead() async throws {
        try await onNewThread {
            // Tasks of the test on a thread of their own: the shared pool may be kept busy by other tests.
            let executor = ThreadExecutor(name: "tasks")
            defer { executor.shutdown() }
            let (_, client, server) = try await asyncPair()
            let task = Task(executorPreference: executor) {
                withUnsafeCurrentTask { $0?.cancel() }
                return try await server.read(exactly: 1)
            }
            await #expect(throws: CancellationError.self) { try await within { try await task.value } }
            await #expect(throws: QueueSocketError.self) { try await within { try await client.read(exactly: 1) } }
        }
    }

    @Test("bad arguments throw invalidArgument, start nothing, and leave the connection usable")
    func badArguments() async throws {
        try await onNewThread {
            let (_, client, server) = try await asyncPair()
            await #expect(throws: AsyncConnectionError.self) { try await server.read(exactly: -1) }
            await #expect(throws: AsyncConnectionError.self) { try await server.read(through: Data()) }
            await #expect(throws: AsyncConnectionError.self) {
                try await server.read(through: Data("\r\n".utf8), maxLength: 1)
            }
            await #expect(throws: AsyncConnectionError.self) { try await server.read(upTo: -1) }
            #expect(try await server.read(exactly: 0).isEmpty)
            try await server.write(Data())
            try await within { try await client.write(Data("ok".utf8)) }
            #expect(text(try await within { try await server.read(exactly: 2) }) == "ok")
        }
    }

    @Test("a separator not found within maxLength closes the connection with QueueSocketError readMaxedOut")
    func maxLengthExceeded() async throws {
        try await onNewThread {
            let (_, client, server) = try await asyncPair()
            try await within { try await client.write(Data("abcdefgh".utf8)) }
            let error = await #expect(throws: QueueSocketError.self) {
                try await within { try await server.read(through: Data("\n".utf8), maxLength: 4) }
            }
            #expect(error?.code == .readMaxedOut)
            await #expect(throws: QueueSocketError.self) { try await within { try await client.read(exactly: 1) } }
        }
    }

    @Test("lines: each without its separator, an empty one included; the peer's close ends the sequence")
    func lines() async throws {
        try await onNewThread {
            let (_, client, server) = try await asyncPair()
            try await within { try await server.write(Data("a\nbb\n\nccc\n".utf8)) }
            server.close()
            let lines = try await within {
                var lines: [String] = []
                for try await line in client.lines() { lines.append(text(line)) }
                return lines
            }
            #expect(lines == ["a", "bb", "", "ccc"])
        }
    }

    @Test("startTLS on both ends, then lines both ways encrypted; a second startTLS throws and changes nothing")
    func tls() async throws {
        try await onNewThread {
            let fixture = try TLSFixture.shared()
            let listener = try AsyncSocketListener(host: "localhost", port: 0)
            let port = listener.port
            let client = try await within { try await AsyncSocketConnection.connect(toHost: "localhost", port: port) }
            let server = try await nextConnection(from: listener)
            try await within {
                async let clientSide: Void = client.startTLS(fixture.clientSettings())
                async let serverSide: Void = server.startTLS(fixture.serverSettings())
                _ = try await (clientSide, serverSide)
            }
            #expect(client.isSecure && server.isSecure)
            await #expect(throws: AsyncConnectionError.self) { try await client.startTLS(fixture.clientSettings()) }
            try await within { try await client.write(Data("secret\n".utf8)) }
            #expect(text(try await within { try await server.read(through: Data("\n".utf8)) }) == "secret\n")
            try await within { try await server.write(Data("reply\n".utf8)) }
            #expect(text(try await within { try await client.read(through: Data("\n".utf8)) }) == "reply\n")
        }
    }

    @Test("a task on the connection's executor reads, writes and asks the addresses (which wait for the socket queue)")
    func onItsExecutor() async throws {
        try await onNewThread {
            let (_, client, server) = try await asyncPair()
            let echo = Task(executorPreference: server.executor) {
                let line = try await server.read(through: Data("\n".utf8))
                try await server.write(Data("\(server.remotePort) ".utf8) + line)
                return server.localPort
            }
            try await within { try await client.write(Data("ping\n".utf8)) }
            let reply = try await within { try await client.read(through: Data("\n".utf8)) }
            #expect(text(reply) == "\(client.localPort) ping\n")
            #expect(try await within { try await echo.value } == client.remotePort)
        }
    }

    @Test("a refused connect throws the socket's error; no connection is made")
    func refused() async throws {
        try await onNewThread {
            let port = unusedPort()
            await #expect(throws: (any Error).self) {
                try await within { try await AsyncSocketConnection.connect(toHost: "127.0.0.1", port: port) }
            }
        }
    }
}

@Suite("AsyncSocketListener: accepted connections as an async sequence")
struct AsyncSocketListenerTests {
    @Test("connections arrive in order; close() ends the sequence; a port in use throws")
    func sequenceEnds() async throws {
        try await onNewThread {
            let listener = try AsyncSocketListener(host: "127.0.0.1", port: 0)
            let peers = try (0..<3).map { _ in try RawPeer(port: listener.port) }
            let ports = try await within {
                var ports: [UInt16] = []
                for try await connection in listener.connections {
                    ports.append(connection.remotePort)
                    if ports.count == 3 { break }
                }
                return ports
            }
            #expect(Set(ports).count == 3 && ports.allSatisfy { $0 != 0 })
            #expect(peers.count == 3)
            #expect(throws: (any Error).self) { try AsyncSocketListener(host: "127.0.0.1", port: listener.port) }
            listener.close()
            let rest = try await within {
                var count = 0
                for try await _ in listener.connections { count += 1 }
                return count
            }
            #expect(rest == 0)
        }
    }

    @Test("at most pendingLimit accepted connections wait to be taken; those accepted beyond are closed at once")
    func pendingLimit() async throws {
        try await onNewThread {
            let listener = try AsyncSocketListener(host: "127.0.0.1", port: 0)
            let limit = AsyncSocketListener.pendingLimit
            let peers = try (0..<(limit + 2)).map { _ in try RawPeer(port: listener.port) }
            // The listener accepts in the order the peers connected: the last two find no room.
            #expect(peers[limit].sawClose() && peers[limit + 1].sawClose())
            listener.close()
            let waiting = try await within {
                var connections: [AsyncSocketConnection] = []
                for try await connection in listener.connections { connections.append(connection) }
                return connections
            }
            #expect(waiting.count == limit)
            // Those taken are open: the first peer's bytes reach its connection.
            peers[0].send("hi")
            let first = try #require(waiting.first)
            #expect(String(decoding: try await within { try await first.read(exactly: 2) }, as: UTF8.self) == "hi")
        }
    }

    @Test("a peer that closes at once: its connection still arrives, and reading it fails closed")
    func peerClosesAtOnce() async throws {
        try await onNewThread {
            let listener = try AsyncSocketListener(host: "127.0.0.1", port: 0)
            do {
                let peer = try RawPeer(port: listener.port)
                peer.shutdownWrite()
            }
            let connection = try await within {
                var connections = listener.connections.makeAsyncIterator()
                return try #require(try await connections.next())
            }
            let error = await #expect(throws: QueueSocketError.self) {
                try await within { try await connection.read(exactly: 1) }
            }
            #expect(error?.code == .closed)
        }
    }
}
