import AsyncSocketCore
import AsyncSocketKit
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Why a peer's script stopped early.
struct PeerFailure: Error {
    let message: String
}

// One connection of a scripted peer: a non-blocking descriptor used with poll and deadlines (so no
// step can hang), optionally with TLS (AsyncSocketCore's engine over memory buffers). Everything
// received is kept, in order, as plaintext: `pending` holds what no step has consumed yet.
final class PeerConnection {
    private var fd: Int32
    private var tls: TLSEngine?
    private var pending = Data()
    private(set) var received = Data()
    private(set) var ended = false
    private var scratch = [UInt8](repeating: 0, count: 65_536)

    init(fd: Int32) {
        self.fd = fd
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
        var one: Int32 = 1
        setsockopt(fd, 6, TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
    }

    deinit {
        if fd >= 0 {
            Glibc.close(fd)
        }
    }

    // MARK: Sending

    func send(_ data: Data, deadline: Date) throws(PeerFailure) {
        guard let tls else {
            try sendRaw(data, deadline: deadline)
            return
        }
        var offset = 0
        while offset < data.count {
            let result = data.withUnsafeBytes { bytes in
                tls.writePlaintext(UnsafeRawBufferPointer(rebasing: bytes[offset...]))
            }
            switch result {
            case .bytes(let count): offset += count
            case .failed(let error): throw PeerFailure(message: "TLS write failed: \(error)")
            }
            try flushCiphertext(deadline: deadline)
        }
    }

    private func sendRaw(_ data: Data, deadline: Date) throws(PeerFailure) {
        var offset = 0
        while offset < data.count {
            let sent = data.withUnsafeBytes { bytes in
                Glibc.send(fd, bytes.baseAddress! + offset, bytes.count - offset, Int32(MSG_NOSIGNAL))
            }
            if sent > 0 {
                offset += sent
            } else if sent < 0 && (errno == EAGAIN || errno == EINTR) {
                try waitFor(Int16(POLLOUT), deadline: deadline, doing: "sending")
            } else {
                throw PeerFailure(message: "send failed: \(String(cString: strerror(errno)))")
            }
        }
    }

    private func flushCiphertext(deadline: Date) throws(PeerFailure) {
        guard let tls else { return }
        while tls.pendingCiphertext > 0 {
            let count = scratch.withUnsafeMutableBytes { tls.takeCiphertext(into: $0) }
            try sendRaw(Data(scratch[0..<count]), deadline: deadline)
        }
    }

    // MARK: Receiving

    /// Receives more plaintext into `pending`; returns false at the end of the program's data.
    private func fill(deadline: Date) throws(PeerFailure) -> Bool {
        if ended {
            return false
        }
        if try takeBufferedPlaintext() {
            return true
        }
        while true {
            try waitFor(Int16(POLLIN), deadline: deadline, doing: "receiving")
            let count = scratch.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if count < 0 {
                if errno == EAGAIN || errno == EINTR { continue }
                if errno == ECONNRESET {
                    ended = true
                    return false
                }
                throw PeerFailure(message: "receive failed: \(String(cString: strerror(errno)))")
            }
            guard let tls else {
                if count == 0 {
                    ended = true
                    return false
                }
                append(Data(scratch[0..<count]))
                return true
            }
            if count == 0 {
                tls.peerClosed()
            } else {
                scratch.withUnsafeBytes { tls.feedCiphertext(UnsafeRawBufferPointer(rebasing: $0[0..<count])) }
            }
            if try takeBufferedPlaintext() {
                return true
            }
            if count == 0 || ended {
                ended = true
                return false
            }
        }
    }

    /// Decrypts what TLS holds into `pending`; returns whether it produced bytes.
    private func takeBufferedPlaintext() throws(PeerFailure) -> Bool {
        guard let tls else { return false }
        var produced = false
        reading: while true {
            let result = scratch.withUnsafeMutableBytes { tls.readPlaintext(into: $0) }
            switch result {
            case .bytes(let count):
                append(Data(scratch[0..<count]))
                produced = true
            case .needsMoreCiphertext:
                break reading
            case .closed:
                ended = true
                break reading
            case .failed(let error):
                if produced { break reading }
                ended = true
                throw PeerFailure(message: "TLS read failed: \(error)")
            }
        }
        try flushCiphertext(deadline: Date(timeIntervalSinceNow: 5))
        return produced
    }

    private func append(_ data: Data) {
        pending.append(data)
        received.append(data)
    }

    /// Exactly `count` bytes, once they have arrived.
    func take(_ count: Int, deadline: Date) throws(PeerFailure) -> Data {
        while pending.count < count {
            guard try fill(deadline: deadline) else {
                throw PeerFailure(
                    message: "the connection ended after \(ByteText.describe(pending)), \(count) bytes expected")
            }
        }
        let taken = Data(pending.prefix(count))
        pending.removeFirst(count)
        return taken
    }

    /// The next line, with its line ending, once it has arrived.
    func takeLine(deadline: Date) throws(PeerFailure) -> Data {
        while true {
            if let end = pending.firstIndex(of: 0x0A) {
                let line = Data(pending[pending.startIndex...end])
                pending.removeSubrange(pending.startIndex...end)
                return line
            }
            guard try fill(deadline: deadline) else {
                throw PeerFailure(
                    message: "the connection ended in the middle of a line: \(ByteText.describe(pending))")
            }
        }
    }

    /// Receives until the program's data ends or `deadline`; returns whether it ended.
    func receiveUntilEnd(deadline: Date) -> Bool {
        do {
            while try fill(deadline: deadline) {
                pending.removeAll()
            }
            return true
        } catch {
            return ended
        }
    }

    /// Receives until `deadline` (a pause), keeping what arrives.
    func receive(until deadline: Date) {
        while Date() < deadline, !ended {
            guard (try? fill(deadline: deadline)) == true else { return }
        }
    }

    private func waitFor(_ events: Int16, deadline: Date, doing what: String) throws(PeerFailure) {
        while true {
            let remaining = deadline.timeIntervalSinceNow
            guard remaining > 0 else { throw PeerFailure(message: "timed out \(what)") }
            var poller = pollfd(fd: fd, events: events, revents: 0)
            let ready = poll(&poller, 1, Int32(min(remaining * 1000, 60_000)) + 1)
            if ready > 0 {
                return
            }
            if ready < 0 && errno != EINTR {
                throw PeerFailure(message: "poll failed: \(String(cString: strerror(errno)))")
            }
        }
    }

    // MARK: TLS and closing

    func startTLS(_ settings: TLSSettings, deadline: Date) throws(PeerFailure) {
        let engine: TLSEngine
        do {
            engine = try TLSEngine(settings: settings, connectHost: "localhost", logger: nil)
        } catch {
            throw PeerFailure(message: "TLS settings refused: \(error)")
        }
        if !pending.isEmpty {
            pending.withUnsafeBytes { engine.feedCiphertext($0) }
            received.removeLast(pending.count)
            pending.removeAll()
        }
        tls = engine
        while true {
            let status = engine.handshake()
            try flushCiphertext(deadline: deadline)
            switch status {
            case .complete:
                return
            case .failed(let error):
                throw PeerFailure(message: "TLS handshake failed: \(error)")
            case .trustDecisionNeeded:
                engine.resolveTrust(accepted: true)
            case .needsMoreCiphertext:
                try waitFor(Int16(POLLIN), deadline: deadline, doing: "in the TLS handshake")
                let count = scratch.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
                if count > 0 {
                    scratch.withUnsafeBytes { engine.feedCiphertext(UnsafeRawBufferPointer(rebasing: $0[0..<count])) }
                } else if count == 0 || (errno != EAGAIN && errno != EINTR) {
                    engine.peerClosed()
                }
            }
        }
    }

    func halfClose() {
        sendCloseNotify()
        shutdown(fd, Int32(SHUT_WR))
    }

    func close() {
        guard fd >= 0 else { return }
        sendCloseNotify()
        Glibc.close(fd)
        fd = -1
    }

    func reset() {
        guard fd >= 0 else { return }
        var linger = Glibc.linger(l_onoff: 1, l_linger: 0)
        setsockopt(fd, SOL_SOCKET, SO_LINGER, &linger, socklen_t(MemoryLayout<Glibc.linger>.size))
        Glibc.close(fd)
        fd = -1
    }

    private func sendCloseNotify() {
        guard let tls else { return }
        tls.close()
        try? flushCiphertext(deadline: Date(timeIntervalSinceNow: 1))
    }
}
