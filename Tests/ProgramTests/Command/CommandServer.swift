import Foundation
import SocketTestSupport

/// `asyncsocket echo-server` or `chat-server` with `arguments`, listening on 127.0.0.1 on a port of
/// its choosing; stopped when the value goes away.
struct CommandServer {
    let process: ChildProcess
    let port: UInt16

    init(_ subcommand: String, _ arguments: [String]) throws {
        process = try ChildProcess(
            built: "asyncsocket", [subcommand, "--interface", "127.0.0.1", "--port", "0"] + arguments)
        guard let port = process.port(announcedBy: "listening on port") else {
            process.stop()
            throw ChildProcess.Failure(description: "\(subcommand) did not start: \(process.errorOutput)")
        }
        self.port = port
    }
}
