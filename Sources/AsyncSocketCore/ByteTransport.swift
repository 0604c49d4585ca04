import Foundation

/// Where a driver's bytes come from and go to: a socket, a TLS session over a socket, or a
/// scripted transport in tests. Calls never block.
package protocol ByteTransport: AnyObject {
    /// Reads up to `buffer.count` bytes into `buffer`.
    func read(into buffer: UnsafeMutableRawBufferPointer) -> TransportReadResult
    /// Writes up to `bytes.count` bytes from `bytes`.
    func write(_ bytes: UnsafeRawBufferPointer) -> TransportWriteResult
}

extension SocketEngine {
    /// Runs a whole read pass against `transport` (inlinable, so it is specialized for the caller's
    /// transport instead of copying its results through value witnesses). The pass is one access to
    /// the engine's value: the transport must not reach back into this engine (none does: it only
    /// moves bytes).
    @inlinable
    package func runReadPass(transportReadable: Bool, transport: some ByteTransport) -> ReadPassResult {
        core.runReadPass(transportReadable: transportReadable, transport: transport)
    }

    /// Runs a whole write pass against `transport` (inlinable and one access, like
    /// ``runReadPass(transportReadable:transport:)``).
    @inlinable
    package func runWritePass(transportWritable: Bool, transport: some ByteTransport) -> WritePassResult {
        core.runWritePass(transportWritable: transportWritable, transport: transport)
    }

    /// Reads everything the transport can give now into the unread buffer and returns it all.
    package func collectUnreadData(from transport: some ByteTransport) -> Data {
        while case .bytes(let count) = transport.read(into: unreadSpace()), count > 0 {
            unreadDidRead(count)
        }
        return unreadData
    }
}

extension EngineCore {
    @inlinable
    package mutating func runReadPass(transportReadable: Bool, transport: some ByteTransport) -> ReadPassResult {
        beginReadPass(transportReadable: transportReadable)
        while true {
            switch nextReadStep() {
            case .read(let buffer):
                transportRead(transport.read(into: buffer))
            case .finished(let result):
                return result
            }
        }
    }

    @inlinable
    package mutating func runWritePass(transportWritable: Bool, transport: some ByteTransport) -> WritePassResult {
        beginWritePass(transportWritable: transportWritable)
        while true {
            switch nextWriteStep() {
            case .write(let data, let offset):
                let result = data.withUnsafeBytes { bytes in
                    transport.write(UnsafeRawBufferPointer(rebasing: bytes[offset...]))
                }
                transportWrote(result)
            case .finished(let result):
                return result
            }
        }
    }
}
