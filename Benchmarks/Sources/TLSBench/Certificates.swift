import Foundation

/// A throw-away CA and a `localhost` / 127.0.0.1 server certificate, made with the `openssl` command
/// in a temporary directory (removed by `remove()`).
struct Certificates {
    let directory: String

    var caPath: String { directory + "/ca.pem" }
    var certificatePath: String { directory + "/server.pem" }
    var keyPath: String { directory + "/server.key" }

    init() throws {
        directory = NSTemporaryDirectory() + "tlsbench-\(getpid())"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let extensions = directory + "/san.ext"
        try "subjectAltName=DNS:localhost,IP:127.0.0.1\n".write(toFile: extensions, atomically: true, encoding: .utf8)
        try run([
            "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-keyout",
            directory + "/ca.key", "-out", caPath, "-subj", "/CN=TLSBench CA", "-days", "2",
        ])
        try run([
            "req", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-keyout", keyPath, "-out",
            directory + "/server.csr", "-subj", "/CN=localhost",
        ])
        try run([
            "x509", "-req", "-in", directory + "/server.csr", "-CA", caPath, "-CAkey", directory + "/ca.key",
            "-set_serial", "2", "-days", "2", "-extfile", extensions, "-out", certificatePath,
        ])
    }

    func remove() {
        try? FileManager.default.removeItem(atPath: directory)
    }

    private func run(_ arguments: [String]) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/openssl")
        process.arguments = arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSLocalizedDescriptionKey: "openssl \(arguments[0]) failed"])
        }
    }
}

/// A running `openssl` process (or another program, `executable`) whose output is collected; killed by
/// `stop()`.
final class OpenSSLProcess: @unchecked Sendable {
    private let process = Process()
    private let output = Pipe()
    private let lock = NSLock()
    private var collected = Data()

    init(_ arguments: [String], directory: String? = nil, executable: String = "/usr/bin/openssl") throws {
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        if let directory {
            process.currentDirectoryURL = URL(fileURLWithPath: directory)
        }
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = output
        process.standardError = output
        output.fileHandleForReading.readabilityHandler = { [weak self] handle in
            let data = handle.availableData
            self?.lock.withLock { self?.collected.append(data) }
        }
        try process.run()
    }

    var text: String { lock.withLock { String(decoding: collected, as: UTF8.self) } }

    /// Waits (at most `seconds`) for the process to print `needle`.
    func waitFor(_ needle: String, seconds: Double = 10) -> Bool {
        let deadline = Date(timeIntervalSinceNow: seconds)
        while Date() < deadline {
            if text.contains(needle) { return true }
            usleep(10_000)
        }
        return text.contains(needle)
    }

    /// Waits for the process to end by itself.
    func waitUntilExit() -> String {
        process.waitUntilExit()
        output.fileHandleForReading.readabilityHandler = nil
        let rest = output.fileHandleForReading.readDataToEndOfFile()
        lock.withLock { collected.append(rest) }
        return text
    }

    func stop() {
        if process.isRunning {
            process.terminate()
            process.waitUntilExit()
        }
    }

    /// `s_server -accept 0 …`: the process and the port it printed.
    static func server(_ arguments: [String], directory: String? = nil) throws -> (OpenSSLProcess, UInt16) {
        let server = try OpenSSLProcess(["s_server", "-accept", "0"] + arguments, directory: directory)
        guard server.waitFor("ACCEPT"),
            let line = server.text.split(separator: "\n").first(where: { $0.hasPrefix("ACCEPT") }),
            let port = line.split(separator: ":").last.flatMap({ UInt16($0.trimmingCharacters(in: .whitespaces)) })
        else { throw CocoaError(.fileReadUnknown) }
        return (server, port)
    }
}
