import Foundation

/// One client of a line server, as a ``LineService`` sees it.
protocol LineConnection: AnyObject, Sendable {
    /// The client's address, "host:port".
    var name: String { get }
    /// Queues `data` for the client; callable from any thread.
    func send(_ data: Data)
}

/// What a line server does with its clients. The calls for one connection arrive in order, on that
/// connection's thread or queue; calls for different connections may run concurrently, so a service
/// guards whatever it shares between them.
protocol LineService: Sendable {
    /// `connection` is connected (and, with TLS, its handshake queued).
    func connected(_ connection: any LineConnection)
    /// `connection` sent `line`, its LF included.
    func received(_ line: Data, from connection: any LineConnection)
    /// `connection` is gone.
    func disconnected(_ connection: any LineConnection)
}
