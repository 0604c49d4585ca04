import AsyncSocketKit
import EchoServers
import Foundation

/// Starts `RunLoopUdpSocket`'s echo (the echo server executable's delegate) on `engine`, on its own
/// loop thread, on a port of 127.0.0.1 the system picks, for the life of the process; returns the port.
func startUdpEcho(engine: RunLoopSocket.Engine) -> UInt16 {
    let started = PortHandOff()
    let thread = Thread {
        let delegate = RunLoopUdpEchoDelegate()
        let socket = RunLoopUdpSocket(delegate: delegate, families: .ipv4Only, engine: engine)
        do {
            try socket.bind(toAddress: "127.0.0.1", port: 0)
        } catch {
            fatalError("cannot bind: \(error)")
        }
        socket.receive(withTimeout: -1, tag: 0)
        started.hand(socket.localPort)
        withExtendedLifetime((delegate, socket)) {
            EventRunLoop.current.run()
        }
    }
    thread.start()
    return started.take()
}

/// Starts `QueueUdpSocket`'s echo (the queue echo server executable's delegate: continuous receiving,
/// each datagram sent back from the delegate queue) on a port of 127.0.0.1 the system picks, for the
/// life of what it returns: the port, and the socket and delegate to keep.
func startQueueUdpEcho() -> (port: UInt16, kept: AnyObject) {
    let delegate = QueueUdpEchoDelegate()
    let socket = QueueUdpSocket(delegate: delegate, delegateQueue: delegate.queue)
    do {
        try socket.bind(toPort: 0, interface: "127.0.0.1")
        try socket.beginReceiving()
    } catch {
        fatalError("cannot bind: \(error)")
    }
    return (socket.localPort, [delegate, socket] as [AnyObject] as AnyObject)
}

/// A blocking UDP client connected to the echo that allocates nothing while it runs: one datagram
/// out, its echo in, again and again.
final class DatagramClient {
    private let fd: Int32
    private var outgoing: [UInt8]
    private var incoming: [UInt8]
    /// What the echo needs kept while the client uses it (a QueueUdpSocket closes when released).
    private let echo: AnyObject?

    init(port: UInt16, size: Int, keeping echo: AnyObject? = nil) {
        self.echo = echo
        outgoing = [UInt8](repeating: UInt8(ascii: "u"), count: size)
        incoming = [UInt8](repeating: 0, count: size)
        fd = socket(AF_INET, Int32(SOCK_DGRAM.rawValue), 0)
        var timeout = timeval(tv_sec: 5, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else { fatalError("cannot connect to 127.0.0.1:\(port): errno \(errno)") }
    }

    deinit {
        close(fd)
    }

    /// Sends `count` datagrams, each after the previous one came back.
    func echo(_ count: Int) {
        for _ in 0..<count {
            let sent = outgoing.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, 0) }
            guard sent == outgoing.count else { fatalError("send failed: errno \(errno)") }
            let received = incoming.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            guard received == outgoing.count else { fatalError("no echo: errno \(errno)") }
        }
    }
}
