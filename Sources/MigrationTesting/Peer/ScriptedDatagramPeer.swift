import AsyncSocketCore
import AsyncSocketKit
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A loopback UDP peer playing a ``DatagramScript`` on a thread of its own, every wait bounded by the
/// script's step timeout. Its socket is bound to 127.0.0.1 when it is made (``port`` is known before
/// the program starts); it records every datagram it receives.
public final class ScriptedDatagramPeer: Sendable {

    /// The port the peer's socket is bound to (127.0.0.1).
    public let port: UInt16
    private let fd: Int32
    private let result = PeerResult()
    /// Whether `play` has handed the socket to the playing thread.
    private let playing = Lock(false)

    /// A peer with a UDP socket bound to a free port of 127.0.0.1. Throws the system's error.
    public init() throws {
        let fd = socket(AF_INET, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw SystemError.posix(errno, "socket") }
        var address = Self.loopback(port: 0)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let named = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        guard bound == 0, named == 0 else {
            let error = SystemError.posix(errno, "bind")
            close(fd)
            throw error
        }
        self.fd = fd
        port = UInt16(bigEndian: address.sin_port)
    }

    /// Plays `script` on a thread of its own, which then owns the socket and closes it; `programPort`
    /// is where the program receives, when it said so. Later calls do nothing.
    public func play(_ script: DatagramScript, programPort: UInt16?) {
        let first = playing.withLock { playing in
            defer { playing = true }
            return !playing
        }
        guard first else { return }
        Thread.detachNewThread { [self] in
            var player = Player(fd: fd, script: script, programPort: programPort)
            let outcome = player.play()
            close(fd)
            result.finish(outcome)
        }
    }

    deinit {
        // A peer that never played still owns its socket.
        if !playing.withLock({ $0 }) {
            close(fd)
        }
    }

    /// The outcome, once the peer has finished.
    public var outcome: PeerOutcome? {
        result.outcome
    }

    /// Waits up to `timeout` seconds for the peer to finish; returns its outcome, or `nil` if it has
    /// not finished.
    public func waitUntilFinished(timeout: TimeInterval) -> PeerOutcome? {
        result.wait(timeout: timeout)
    }

    static func loopback(port: UInt16) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
        return address
    }
}

/// The playing of one script, on the peer's thread.
private struct Player {
    let fd: Int32
    let script: DatagramScript
    /// Where datagrams go: the program's announced port, else the sender of the last datagram.
    var target: sockaddr_in?
    let followsSender: Bool
    var datagrams: [Data] = []
    var buffer = [UInt8](repeating: 0, count: 65_536)

    init(fd: Int32, script: DatagramScript, programPort: UInt16?) {
        self.fd = fd
        self.script = script
        target = programPort.map(ScriptedDatagramPeer.loopback(port:))
        followsSender = programPort == nil
    }

    mutating func play() -> PeerOutcome {
        var failure: String?
        var completed = 0
        for (index, step) in script.steps.enumerated() {
            if let problem = perform(step) {
                failure = "step \(index + 1) (\(step)): \(problem)"
                break
            }
            completed += 1
        }
        // What is already waiting counts as received (a program that sends more than expected).
        while let datagram = receive(waitingUpTo: 0) {
            datagrams.append(datagram)
        }
        var outcome = PeerOutcome(
            received: datagrams.reduce(Data(), +), completedSteps: completed, failure: failure, programClosed: false)
        outcome.datagrams = datagrams
        return outcome
    }

    private mutating func perform(_ step: DatagramStep) -> String? {
        switch step {
        case .send(let data):
            guard var destination = target else {
                return "nowhere to send: the program announced no port and sent no datagram"
            }
            let sent = data.withUnsafeBytes { bytes in
                withUnsafePointer(to: &destination) {
                    $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                        sendto(fd, bytes.baseAddress, bytes.count, 0, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                    }
                }
            }
            return sent == data.count ? nil : "sendto failed: \(String(cString: strerror(errno)))"
        case .expect(let expected):
            guard let datagram = receive(waitingUpTo: script.stepTimeout) else {
                return "no datagram within \(script.stepTimeout) s"
            }
            datagrams.append(datagram)
            return datagram == expected ? nil : "received \(ByteText.describe(datagram))"
        case .receive:
            guard let datagram = receive(waitingUpTo: script.stepTimeout) else {
                return "no datagram within \(script.stepTimeout) s"
            }
            datagrams.append(datagram)
            return nil
        }
    }

    /// The next datagram, waiting at most `seconds` for it; `nil` when none came.
    private mutating func receive(waitingUpTo seconds: TimeInterval) -> Data? {
        var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        guard poll(&poller, 1, Int32(max(0, seconds * 1000))) == 1 else { return nil }
        var source = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let count = buffer.withUnsafeMutableBytes { bytes in
            withUnsafeMutablePointer(to: &source) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    recvfrom(fd, bytes.baseAddress, bytes.count, Int32(MSG_DONTWAIT), $0, &length)
                }
            }
        }
        guard count >= 0 else { return nil }
        if followsSender {
            target = source
        }
        return Data(buffer[0..<count])
    }
}
