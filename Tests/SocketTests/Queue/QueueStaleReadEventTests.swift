import AsyncSocketKit
import Foundation
import SocketTestSupport
import Testing

/// Reads one byte (tag 1), then a line (tag 2), and so on; tells the peer when each has arrived.
private final class AlternatingReader: QueueSocketDelegate, @unchecked Sendable {
    let queue = DispatchQueue(label: "alternating-reader")
    let gotByte = DispatchSemaphore(value: 0)
    let gotLine = DispatchSemaphore(value: 0)
    let connected = DispatchSemaphore(value: 0)
    /// Touched on `queue` only.
    private var disconnectError: (any Error)?
    private var disconnected = false

    func socket(_ sock: QueueSocket, didConnectToHost host: String, port: UInt16) {
        sock.readData(toLength: 1, withTimeout: -1, tag: 1)
        connected.signal()
    }

    func socket(_ sock: QueueSocket, didRead data: Data, withTag tag: Int) {
        if tag == 1 {
            gotByte.signal()
            sock.readData(to: QueueSocket.lfData, withTimeout: -1, tag: 2)
        } else {
            gotLine.signal()
            sock.readData(toLength: 1, withTimeout: -1, tag: 1)
        }
    }

    func socketDidDisconnect(_ sock: QueueSocket, withError error: (any Error)?) {
        disconnected = true
        disconnectError = error
        gotByte.signal()
        gotLine.signal()
    }

    var disconnect: (happened: Bool, error: (any Error)?) {
        queue.sync { (disconnected, disconnectError) }
    }
}

@Suite("QueueSocket: a read event that finds no bytes is not the end")
struct QueueStaleReadEventTests {
    // libdispatch measures a read event's bytes (FIONREAD) after epoll reports them; a read pass
    // running meanwhile (a read queued while the last estimate was still positive) may take them
    // first, and the event then arrives with an estimate of 0. That event used to be taken as the
    // peer's close, ending a live connection. Here every line arrives just as the read for it is
    // queued (that read's pass starts with the estimate the exact one-byte read left), so many
    // rounds make the window likely.
    @Test("bytes arriving as a read is queued never end a live connection")
    func staleZeroEstimate() throws {
        let listener = try RawListener()
        let reader = AlternatingReader()
        let socket = QueueSocket(delegate: reader, delegateQueue: reader.queue)
        try socket.connect(toHost: "127.0.0.1", onPort: listener.port)
        let peer = try #require(listener.accept())
        try #require(reader.connected.wait(timeout: .now() + 10) == .success)
        let deadline = Date(timeIntervalSinceNow: 5)
        var rounds = 0
        while rounds < 3000 && Date() < deadline && !reader.disconnect.happened {
            peer.send("a")
            guard reader.gotByte.wait(timeout: .now() + 10) == .success else { break }
            peer.send("b\n")
            guard reader.gotLine.wait(timeout: .now() + 10) == .success else { break }
            rounds += 1
        }
        let (ended, error) = reader.disconnect
        #expect(!ended, "the socket closed after \(rounds) rounds: \(String(describing: error))")
        #expect(rounds > 0)
        socket.disconnect()
    }
}
