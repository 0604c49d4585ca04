// SwiftNIO with swift-nio-ssl: the TLS peer TLSBench measures `openssl s_time` handshakes against,
// beside our two servers. One event loop, raw byte echo over TLS on 127.0.0.1:PORT (0: the system
// picks one); prints "listening on PORT" once it accepts.
//
//   NIOSSLEchoServer PORT CERTIFICATE.pem KEY.pem
import NIOCore
import NIOPosix
import NIOSSL

#if canImport(Glibc)
    import Glibc
#endif

final class EchoHandler: ChannelInboundHandler, Sendable {
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

let arguments = CommandLine.arguments
guard arguments.count == 4, let port = Int(arguments[1]) else {
    print("usage: NIOSSLEchoServer PORT CERTIFICATE.pem KEY.pem")
    exit(2)
}
let chain = try NIOSSLCertificate.fromPEMFile(arguments[2]).map { NIOSSLCertificateSource.certificate($0) }
let key = try NIOSSLPrivateKey(file: arguments[3], format: .pem)
let context = try NIOSSLContext(
    configuration: .makeServerConfiguration(certificateChain: chain, privateKey: .privateKey(key)))
let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
let channel = try ServerBootstrap(group: group)
    .serverChannelOption(.backlog, value: 1024)
    .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
    .childChannelInitializer { channel in
        channel.eventLoop.makeCompletedFuture {
            try channel.pipeline.syncOperations.addHandler(NIOSSLServerHandler(context: context))
            try channel.pipeline.syncOperations.addHandler(EchoHandler())
        }
    }
    .bind(host: "127.0.0.1", port: port)
    .wait()
print("listening on \(channel.localAddress?.port ?? port)")
fflush(nil)
try channel.closeFuture.wait()
