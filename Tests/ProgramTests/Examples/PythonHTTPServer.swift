import Foundation
import SocketTestSupport

/// `python3 -m http.server` on 127.0.0.1, on a port of its choosing, serving a temporary directory;
/// stopped and the directory removed by ``stop()``.
final class PythonHTTPServer {
    let directory: URL
    let process: ChildProcess
    let port: UInt16

    /// Writes `files` (name → contents) into a new directory and starts the server on it; returns
    /// once the server accepts connections (or throws after ten seconds).
    init(files: [String: Data]) throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("HTTPGetClientTest-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        for (name, contents) in files {
            try contents.write(to: directory.appendingPathComponent(name))
        }
        process = try ChildProcess(
            tool: "python3", ["-u", "-m", "http.server", "--bind", "127.0.0.1", "--directory", directory.path, "0"])
        guard let port = process.port(announcedBy: "Serving HTTP on") else {
            process.stop()
            try? FileManager.default.removeItem(at: directory)
            throw ChildProcess.Failure(description: "http.server did not start: \(process.errorOutput)")
        }
        self.port = port
        // The announcement comes after listen(); this connection proves it accepts.
        _ = try RawPeer(port: port)
    }

    func stop() {
        process.stop()
        try? FileManager.default.removeItem(at: directory)
    }
}
