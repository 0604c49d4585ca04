// The line framing both NIO echo servers use: each line, with its '\n', found with memchr.
import NIOCore

#if canImport(Glibc)
    import Glibc
#endif

public struct NewlineDecoder: ByteToMessageDecoder {
    public typealias InboundOut = ByteBuffer

    public init() {}

    public mutating func decode(context: ChannelHandlerContext, buffer: inout ByteBuffer) throws -> DecodingState {
        let nl: Int? = buffer.withUnsafeReadableBytes { raw -> Int? in
            guard let base = raw.baseAddress, raw.count > 0,
                let hit = memchr(base, 0x0A, raw.count)
            else { return nil }
            return base.distance(to: UnsafeRawPointer(hit))
        }
        guard let idx = nl else { return .needMoreData }
        let line = buffer.readSlice(length: idx + 1)!  // keep the '\n'
        context.fireChannelRead(Self.wrapInboundOut(line))
        return .continue
    }

    public mutating func decodeLast(context: ChannelHandlerContext, buffer: inout ByteBuffer, seenEOF: Bool) throws
        -> DecodingState
    {
        while try self.decode(context: context, buffer: &buffer) == .continue {}
        return .needMoreData
    }
}
