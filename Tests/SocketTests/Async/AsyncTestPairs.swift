import AsyncSocketKit
import Foundation
import SocketTestSupport
import Testing

// What the async face's tests set up: a listener of ours on 127.0.0.1 with a connection of ours or a
// plain blocking peer (RawPeer) on the other side, and what they look at on a connection.

/// A listener on 127.0.0.1 and a connection to it, with the accepted side.
func asyncPair() async throws -> (
    listener: AsyncSocketListener, client: AsyncSocketConnection, server: AsyncSocketConnection
) {
    let listener = try AsyncSocketListener(host: "127.0.0.1", port: 0)
    let port = listener.port
    let client = try await within { try await AsyncSocketConnection.connect(toHost: "127.0.0.1", port: port) }
    return (listener, client, try await nextConnection(from: listener))
}

/// A listener on 127.0.0.1, a plain blocking peer connected to it, and the accepted side.
func asyncRawPair() async throws -> (listener: AsyncSocketListener, peer: RawPeer, server: AsyncSocketConnection) {
    let listener = try AsyncSocketListener(host: "127.0.0.1", port: 0)
    let peer = try RawPeer(port: listener.port)
    return (listener, peer, try await nextConnection(from: listener))
}

/// The next connection `listener` accepts.
func nextConnection(from listener: AsyncSocketListener) async throws -> AsyncSocketConnection {
    try await within {
        var connections = listener.connections.makeAsyncIterator()
        return try #require(try await connections.next())
    }
}

/// The bytes the socket's current read holds so far (-1 with no read current).
func readDone(_ connection: AsyncSocketConnection) -> Int {
    var done = 0
    var total = 0
    let fraction = connection.socket.progressOfRead(returningTag: nil, bytesDone: &done, total: &total)
    return fraction.isNaN ? -1 : done
}

/// The bytes the socket's current write has sent so far (-1 with no write current).
func writeDone(_ connection: AsyncSocketConnection) -> Int {
    var done = 0
    var total = 0
    let fraction = connection.socket.progressOfWrite(returningTag: nil, bytesDone: &done, total: &total)
    return fraction.isNaN ? -1 : done
}

/// `data` as UTF-8 text.
func text(_ data: Data) -> String { String(decoding: data, as: UTF8.self) }
