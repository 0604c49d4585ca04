import AsyncSocketCore
import CLibevent
import Foundation

// A connected descriptor as the engine's transport: one recv or send per step, its result in the
// engine's terms. Both engines' faces read and write their descriptor through these two functions.
enum DescriptorTransport {
    /// One `recv` into `buffer`: bytes, would-block, the peer's end (0 bytes into a non-empty buffer),
    /// or the errno.
    static func read(_ fd: Int32, into buffer: UnsafeMutableRawBufferPointer) -> TransportReadResult {
        let (count, code) = SocketOps.receive(fd, buffer)
        if count > 0 { return .bytes(count) }
        if count == 0 { return buffer.isEmpty ? .bytes(0) : .endOfStream }
        return code == EAGAIN || code == EWOULDBLOCK ? .wouldBlock : .failed(code)
    }

    /// One `send` of `bytes`: what was sent, would-block, or the errno.
    static func write(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) -> TransportWriteResult {
        let (count, code) = SocketOps.send(fd, bytes)
        if count >= 0 { return .bytes(count) }
        return code == EAGAIN || code == EWOULDBLOCK ? .wouldBlock : .failed(code)
    }
}
