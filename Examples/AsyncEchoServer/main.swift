// The EchoServer sample on AsyncSocketConnection: the welcome line, then each CRLF line echoed back,
// one task per client. A client silent for --timeout seconds is disconnected: the read runs under a
// deadline of the caller's (withDeadline below) instead of the tagged API's read timeout, and a
// deadline that passes cancels the read, which closes the connection.
//
//   swift run AsyncEchoServer [--port 8000] [--interface 127.0.0.1] [--timeout 15] [--count N]
//   nc 127.0.0.1 8000
import AsyncSocketKit
import Foundation

/// Prints a line at once, even into a pipe.
func say(_ line: String) {
    print(line)
    fflush(nil)
}

func usage() -> Never {
    say("usage: AsyncEchoServer [--port 8000] [--interface ADDRESS] [--timeout SECONDS] [--count CLIENTS]")
    exit(2)
}

/// Runs `body`, or throws `CancellationError` (cancelling `body`) once `seconds` have passed.
func withDeadline<T: Sendable>(seconds: Double, _ body: @escaping @Sendable () async throws -> T) async throws -> T {
    try await withThrowingTaskGroup(of: T?.self) { group in
        group.addTask { try await body() }
        group.addTask {
            try await Task.sleep(for: .seconds(seconds))
            return nil
        }
        defer { group.cancelAll() }
        guard case let value?? = try await group.next() else { throw CancellationError() }
        return value
    }
}

let welcome = Data("Welcome to the AsyncSocket Echo Server\r\n".utf8)
let lineEnd = Data("\r\n".utf8)

/// Greets `connection` and echoes its lines until it leaves or stays silent for `idleTimeout` seconds.
func serve(_ connection: AsyncSocketConnection, idleTimeout: Double) async {
    let client = "\(connection.remoteHost ?? "?"):\(connection.remotePort)"
    say("Accepted client \(client)")
    do {
        try await connection.write(welcome)
        while true {
            let line = try await withDeadline(seconds: idleTimeout) {
                try await connection.read(through: lineEnd, maxLength: 64 * 1024)
            }
            say("Received: \(String(decoding: line.dropLast(2), as: UTF8.self))")
            try await connection.write(line)
        }
    } catch is CancellationError {
        say("Client \(client) was silent for \(idleTimeout) s: disconnected")
    } catch {
        say("Client \(client) disconnected: \(error)")
    }
}

var port: UInt16 = 8000
var interface: String?
var idleTimeout = 15.0
var count: Int?
var arguments = CommandLine.arguments.dropFirst()
while let option = arguments.popFirst() {
    guard let value = arguments.popFirst() else { usage() }
    switch option {
    case "--port": port = UInt16(value) ?? { usage() }()
    case "--interface": interface = value
    case "--timeout": idleTimeout = Double(value) ?? { usage() }()
    case "--count": count = Int(value) ?? { usage() }()
    default: usage()
    }
}

do {
    let listener = try AsyncSocketListener(host: interface, port: port)
    say("Echo server started on port \(listener.port)")
    try await withThrowingTaskGroup(of: Void.self) { group in
        var accepted = 0
        for try await connection in listener.connections {
            // The connection's executor runs its task where its socket's callbacks are made.
            group.addTask(executorPreference: connection.executor) {
                await serve(connection, idleTimeout: idleTimeout)
            }
            accepted += 1
            if let count, accepted == count { break }
        }
        try await group.waitForAll()
    }
    say("Served \(count.map(String.init) ?? "every") client(s)")
} catch {
    say("Could not serve: \(error)")
    exit(1)
}
