// SwiftNIO's async/await face as a peer of AsyncSocketKit's (`AsyncEchoServer`): NIOAsyncChannel, one
// task per connection, as NIO's own async examples serve connections.
//   NIOAsyncEchoServer <port>
// port   : raw byte echo — each inbound ByteBuffer written back with `outbound.write`
// port+1 : line echo — lines framed by a ByteToMessageDecoder in the child pipeline (memchr, as
//          NIOEchoServer's), each line written back with `outbound.write`
// One event loop thread (MultiThreadedEventLoopGroup(1)); the tasks run on Swift's global executor.
import NIOCore
import NIOEchoLines
import NIOPosix

let arguments = CommandLine.arguments
let port = arguments.count > 1 ? Int(arguments[1])! : 9000
let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)

func serve(port: Int, lines: Bool) async throws {
    let server = try await ServerBootstrap(group: group)
        .serverChannelOption(.backlog, value: 1024)
        .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
        .childChannelOption(.socketOption(.tcp_nodelay), value: 1)
        .childChannelOption(.maxMessagesPerRead, value: 16)
        .bind(host: "127.0.0.1", port: port) { channel in
            channel.eventLoop.makeCompletedFuture {
                if lines {
                    try channel.pipeline.syncOperations.addHandler(ByteToMessageHandler(NewlineDecoder()))
                }
                return try NIOAsyncChannel<ByteBuffer, ByteBuffer>(wrappingChannelSynchronously: channel)
            }
        }
    try await withThrowingDiscardingTaskGroup { connections in
        try await server.executeThenClose { inbound in
            for try await connection in inbound {
                connections.addTask {
                    try? await connection.executeThenClose { input, output in
                        for try await buffer in input {
                            try await output.write(buffer)
                        }
                    }
                }
            }
        }
    }
}

print("READY nio-async port=\(port) lineport=\(port + 1)")
try await withThrowingTaskGroup(of: Void.self) { servers in
    servers.addTask { try await serve(port: port, lines: false) }
    servers.addTask { try await serve(port: port + 1, lines: true) }
    try await servers.waitForAll()
}
