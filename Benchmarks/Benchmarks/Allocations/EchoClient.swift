import Foundation

/// A blocking loopback client that allocates nothing while it runs: its buffers are made once.
/// Any failure (the server gone, a short read) ends the process with the reason, as a benchmark
/// cannot go on without its peer.
final class EchoClient {
    private let fd: Int32
    private let lineLength: Int
    /// `copies` lines of `lineLength` bytes, each ending in LF (for ping-pong, the first is the message).
    private var outgoing: [UInt8]
    private var incoming: [UInt8]

    init(port: UInt16, lineLength: Int, copies: Int = 1_000) {
        self.lineLength = lineLength
        var line = [UInt8](repeating: UInt8(ascii: "x"), count: lineLength)
        line[lineLength - 1] = UInt8(ascii: "\n")
        outgoing = Array([[UInt8]](repeating: line, count: copies).joined())
        incoming = [UInt8](repeating: 0, count: outgoing.count)
        fd = connectToLoopback(port: port)
        var one: Int32 = 1
        setsockopt(fd, 6, 1, &one, socklen_t(MemoryLayout<Int32>.size))  // IPPROTO_TCP, TCP_NODELAY
    }

    deinit {
        close(fd)
    }

    /// Sends `count` lines (at most `copies`) in one write and reads until all of them are back.
    func echoLines(_ count: Int) {
        let bytes = count * lineLength
        send(bytes)
        receive(bytes)
    }

    /// `count` round trips of one message each.
    func pingPong(_ count: Int) {
        for _ in 0..<count {
            send(lineLength)
            receive(lineLength)
        }
    }

    private func send(_ count: Int) {
        var sent = 0
        while sent < count {
            let n = outgoing.withUnsafeBytes {
                Glibc.send(fd, $0.baseAddress! + sent, count - sent, Int32(MSG_NOSIGNAL))
            }
            guard n > 0 else { fatalError("send failed: errno \(errno)") }
            sent += n
        }
    }

    private func receive(_ count: Int) {
        var received = 0
        while received < count {
            let n = incoming.withUnsafeMutableBytes { recv(fd, $0.baseAddress! + received, count - received, 0) }
            guard n > 0 else { fatalError("the echo server closed or failed: errno \(errno)") }
            received += n
        }
    }
}

/// One short connection to the echo server on `port`: connect, one byte there and back, close — with
/// nothing allocated on the client's side (the address and the byte are on the stack).
func connectEchoClose(port: UInt16) {
    let fd = connectToLoopback(port: port)
    defer { close(fd) }
    var byte = UInt8(ascii: "x")
    guard Glibc.send(fd, &byte, 1, Int32(MSG_NOSIGNAL)) == 1, recv(fd, &byte, 1, 0) == 1 else {
        fatalError("the echo server did not echo: errno \(errno)")
    }
}

/// A blocking TCP socket connected to 127.0.0.1:`port` (the address is on the stack: nothing is
/// allocated); any failure ends the process.
private func connectToLoopback(port: UInt16) -> Int32 {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard fd >= 0 else { fatalError("socket failed: errno \(errno)") }
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
    return fd
}
