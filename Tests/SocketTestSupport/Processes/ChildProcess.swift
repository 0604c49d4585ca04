import Foundation

/// A program run as a child process by a test — one this package builds (an example, the
/// `asyncsocket` command) or a tool such as python3 — with its standard output and standard error
/// collected as they arrive by a thread of its own (``ChildOutput``). Every wait has a deadline; the
/// process is stopped, by its id, when the object goes away.
package final class ChildProcess: @unchecked Sendable {
    package struct Failure: Error, CustomStringConvertible {
        package let description: String

        package init(description: String) {
            self.description = description
        }
    }

    package let pid: pid_t
    private var inputFD: Int32
    /// Held by the collecting thread too (not the process object, so dropping it stops the process).
    private let collected = ChildOutput()

    /// Starts the program at `path` with `arguments`, in `directory` when given (see `spawn` for what
    /// it inherits).
    package init(path: String, _ arguments: [String], directory: String? = nil) throws {
        let (pid, input, output, errors) = try Self.spawn(path: path, arguments: arguments, directory: directory)
        self.pid = pid
        inputFD = input
        let collected = collected
        Thread.detachNewThread { collected.collect(pid: pid, output: output, errors: errors) }
    }

    /// Starts the product `name` of this package from the build directory the tests run from.
    package convenience init(built name: String, _ arguments: [String]) throws {
        try self.init(path: try Self.builtProduct(name), arguments)
    }

    /// Starts `tool` from the PATH through /usr/bin/env, in `directory` when given.
    package convenience init(tool: String, _ arguments: [String], directory: String? = nil) throws {
        try self.init(path: "/usr/bin/env", [tool] + arguments, directory: directory)
    }

    deinit {
        stop()
        closeInput()
    }

    /// The executable `name` beside the test binary (or up to three folders above it, where the
    /// build directory's `debug` link points).
    package static func builtProduct(_ name: String) throws -> String {
        let testBinary =
            (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
        var directory = URL(fileURLWithPath: testBinary).deletingLastPathComponent()
        for _ in 0..<4 {
            let candidate = directory.appendingPathComponent(name).path
            if FileManager.default.isExecutableFile(atPath: candidate) {
                return candidate
            }
            directory.deleteLastPathComponent()
        }
        throw Failure(description: "\(name) is not built beside \(testBinary); run `swift build --build-tests` first")
    }

    /// Everything written to standard output so far.
    package var output: String { collected.texts.output }

    /// Everything written to standard error so far.
    package var errorOutput: String { collected.texts.errors }

    /// Waits until `holds` is true for (standard output, standard error) or `timeout` passes.
    @discardableResult
    package func wait(timeout: TimeInterval = wallClockBound(10), until holds: (String, String) -> Bool) -> Bool {
        collected.wait(timeout: timeout) { output, errors, _ in holds(output, errors) }
    }

    /// Waits until standard output or standard error contains `needle`.
    @discardableResult
    package func wait(for needle: String, timeout: TimeInterval = wallClockBound(10)) -> Bool {
        wait(timeout: timeout) { $0.contains(needle) || $1.contains(needle) }
    }

    /// The first complete line of standard output containing `needle`, once there is one.
    package func line(containing needle: String, timeout: TimeInterval = wallClockBound(10)) -> String? {
        var found: String?
        wait(timeout: timeout) { output, _ in
            found = output.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
                .first { $0.contains(needle) }.map(String.init)
            return found != nil
        }
        return found
    }

    /// The number after "port " in the first output line containing `needle` (a server's
    /// announcement).
    package func port(announcedBy needle: String, timeout: TimeInterval = wallClockBound(10)) -> UInt16? {
        guard let line = line(containing: needle, timeout: timeout), let range = line.range(of: "port ") else {
            return nil
        }
        return UInt16(line[range.upperBound...].prefix { $0.isNumber })
    }

    /// Writes `text` to the process's standard input.
    package func send(_ text: String) {
        let bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count && inputFD >= 0 {
            let written = bytes[offset...].withUnsafeBytes { write(inputFD, $0.baseAddress, $0.count) }
            guard written > 0 else { return }
            offset += written
        }
    }

    /// Closes the process's standard input.
    package func closeInput() {
        if inputFD >= 0 {
            close(inputFD)
            inputFD = -1
        }
    }

    /// The exit status (128 + the signal for a process killed by one) once the process has ended
    /// and its output is collected, or `nil` if it is still running after `timeout`.
    package func waitForExit(timeout: TimeInterval = wallClockBound(10)) -> Int32? {
        collected.wait(timeout: timeout) { _, _, status in status != nil }
        return collected.status
    }

    /// Ends the process if it still runs: SIGTERM, then SIGKILL after two seconds.
    package func stop() {
        guard collected.status == nil else { return }
        kill(pid, SIGTERM)
        if waitForExit(timeout: 2) == nil {
            kill(pid, SIGKILL)
            _ = waitForExit(timeout: 2)
        }
    }
}
