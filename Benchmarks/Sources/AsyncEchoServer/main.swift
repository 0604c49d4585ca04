// An echo server on AsyncSocketConnection, for measuring the async face beside QueueEchoServer: raw
// echo on PORT (read what has arrived, write it back) and line echo on PORT+1 (read to "\n", write the
// line back), one task per connection, run on its connection's executor (its socket queue), with
// TCP_NODELAY set as the other servers set it. No UDP.
//
//   AsyncEchoServer PORT
import AsyncSocketKit
import Foundation

guard CommandLine.arguments.count >= 2, let port = UInt16(CommandLine.arguments[1]) else {
    print("usage: AsyncEchoServer PORT")
    exit(2)
}
signal(SIGPIPE, SIG_IGN)

/// Runs `echo` on every connection `listener` accepts, each in a task of its own, until the process ends.
func serve(_ listener: AsyncSocketListener, _ echo: @escaping @Sendable (AsyncSocketConnection) async throws -> Void)
    async
{
    await withTaskGroup(of: Void.self) { group in
        do {
            for try await connection in listener.connections {
                try? connection.setOptions(TCPSocketOptions(noDelay: true))
                group.addTask(executorPreference: connection.executor) { try? await echo(connection) }
            }
        } catch {
            print("listener failed: \(error)")
        }
    }
}

let lineEnd = Data("\n".utf8)
do {
    let raw = try AsyncSocketListener(host: "127.0.0.1", port: port)
    let lines = try AsyncSocketListener(host: "127.0.0.1", port: port + 1)
    await withTaskGroup(of: Void.self) { group in
        group.addTask {
            await serve(raw) { connection in
                while true {
                    try await connection.write(try await connection.read(upTo: 0))
                }
            }
        }
        group.addTask {
            await serve(lines) { connection in
                while true {
                    try await connection.write(try await connection.read(through: lineEnd))
                }
            }
        }
    }
} catch {
    print("cannot listen: \(error)")
    exit(1)
}
