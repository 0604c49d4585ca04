// SwiftNIO echo server used as the "modern Swift peer" baseline.
//   NIOEchoServer <port> [threads]
// port   : raw byte echo (with NIO's BackPressureHandler)
// port+1 : line echo — frames on '\n' with a ByteToMessageDecoder (memchr scan), each decoded
//          line is copied into one outbound ByteBuffer that is written+flushed on channelReadComplete
//          (the same amount of work as the C servers, which append each line to an output buffer).
// UDP port: datagram echo on a DatagramBootstrap channel — each AddressedEnvelope written back to its
//          sender, flushed on channelReadComplete (NIO's own UDP echo example, with the TCP side's
//          maxMessagesPerRead of 16; no vector reads: NIO leaves them off by default).
import NIOCore
import NIOEchoLines
import NIOPosix

#if canImport(Glibc)
    import Glibc
#endif

final class EchoHandler: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        context.write(data, promise: nil)
    }
    func channelReadComplete(context: ChannelHandlerContext) {
        context.flush()
    }
    func errorCaught(context: ChannelHandlerContext, error: Error) {
        context.close(promise: nil)
    }
}

final class LineEchoHandler: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer
    private var out: ByteBuffer? = nil

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        var line = Self.unwrapInboundIn(data)
        if self.out == nil { self.out = context.channel.allocator.buffer(capacity: 64 * 1024) }
        self.out!.writeBuffer(&line)
    }
    func channelReadComplete(context: ChannelHandlerContext) {
        if let o = self.out, o.readableBytes > 0 {
            self.out = nil
            context.writeAndFlush(Self.wrapOutboundOut(o), promise: nil)
        }
    }
    func errorCaught(context: ChannelHandlerContext, error: Error) {
        context.close(promise: nil)
    }
}

final class DatagramEchoHandler: ChannelInboundHandler {
    typealias InboundIn = AddressedEnvelope<ByteBuffer>
    typealias OutboundOut = AddressedEnvelope<ByteBuffer>

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        context.write(data, promise: nil)
    }
    func channelReadComplete(context: ChannelHandlerContext) {
        context.flush()
    }
    func errorCaught(context: ChannelHandlerContext, error: Error) {
        // A refused send (ICMP) must not end the echo: keep the channel open.
    }
}

// Pitfall: Glibc `stdout` is a mutable C global -> error in Swift 6 mode; flush with fflush(nil) instead.
let args = CommandLine.arguments
let port = args.count > 1 ? Int(args[1])! : 9000
let threads = args.count > 2 ? Int(args[2])! : 1
let group = MultiThreadedEventLoopGroup(numberOfThreads: threads)

func bootstrap(line: Bool) -> ServerBootstrap {
    ServerBootstrap(group: group)
        .serverChannelOption(.backlog, value: 1024)
        .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
        .childChannelOption(.socketOption(.tcp_nodelay), value: 1)
        .childChannelOption(.socketOption(.so_reuseaddr), value: 1)
        .childChannelOption(.maxMessagesPerRead, value: 16)
        .childChannelInitializer { channel in
            channel.eventLoop.makeCompletedFuture {
                let ops = channel.pipeline.syncOperations
                if line {
                    try ops.addHandler(ByteToMessageHandler(NewlineDecoder()))
                    try ops.addHandler(LineEchoHandler())
                } else {
                    try ops.addHandler(BackPressureHandler())
                    try ops.addHandler(EchoHandler())
                }
            }
        }
}

let raw = try bootstrap(line: false).bind(host: "127.0.0.1", port: port).wait()
let lines = try bootstrap(line: true).bind(host: "127.0.0.1", port: port + 1).wait()
let datagrams = try DatagramBootstrap(group: group)
    .channelOption(.socketOption(.so_reuseaddr), value: 1)
    .channelOption(.maxMessagesPerRead, value: 16)
    .channelInitializer { channel in
        channel.eventLoop.makeCompletedFuture { try channel.pipeline.syncOperations.addHandler(DatagramEchoHandler()) }
    }
    .bind(host: "127.0.0.1", port: port).wait()
print("READY nio port=\(port) lineport=\(port + 1) udpport=\(port) threads=\(threads)")
fflush(nil)
try raw.closeFuture.wait()
_ = lines
_ = datagrams
