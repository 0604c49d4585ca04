import Foundation

// Children are spawned here with posix_spawn rather than Foundation's Process, which lets a child
// inherit every descriptor the test process has open without close-on-exec (other tests' sockets,
// other children's pipes: a child's output would then not end when it exits) and the spawning
// thread's blocked signals (a child that ignores SIGTERM). Here a child gets only its three pipes
// (closefrom 3), an empty signal mask and default signal actions.

/// A program run as a child process by a test — one this package builds (an example, the
/// `asyncsocket` command) or a tool such as python3 — with its standard output and standard error
/// collected as they arrive by a thread of its own. Every wait has a deadline; the process is
/// stopped, by its id, when the object goes away.
final class ChildProcess: @unchecked Sendable {
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    let pid: pid_t
    private var inputFD: Int32
    private let condition = NSCondition()
    private var collectedOutput = Data()
    private var collectedErrors = Data()
    private var exitStatus: Int32?

    /// Starts the program at `path` with `arguments`.
    init(path: String, _ arguments: [String]) throws {
        Self.ignoreBrokenPipes
        var input: [Int32] = [-1, -1]
        var output: [Int32] = [-1, -1]
        var errors: [Int32] = [-1, -1]
        guard let pipe2 = Self.pipe2, pipe2(&input, O_CLOEXEC) == 0, pipe2(&output, O_CLOEXEC) == 0,
            pipe2(&errors, O_CLOEXEC) == 0
        else {
            throw Failure(description: "pipe2 failed: errno \(errno)")
        }
        var pid: pid_t = 0
        let rc = try Self.spawn(
            &pid, path: path, arguments: arguments, input: input[0], output: output[1], errors: errors[1])
        for fd in [input[0], output[1], errors[1]] {
            close(fd)
        }
        guard rc == 0 else {
            for fd in [input[1], output[0], errors[0]] {
                close(fd)
            }
            throw Failure(description: "posix_spawn \(path) failed: \(String(cString: strerror(rc)))")
        }
        self.pid = pid
        inputFD = input[1]
        let (outputFD, errorFD) = (output[0], errors[0])
        Thread.detachNewThread { [self] in collect(outputFD, errorFD) }
    }

    /// Starts the product `name` of this package from the build directory the tests run from.
    convenience init(built name: String, _ arguments: [String]) throws {
        try self.init(path: try Self.builtProduct(name), arguments)
    }

    /// Starts `tool` from the PATH through /usr/bin/env.
    convenience init(tool: String, _ arguments: [String]) throws {
        try self.init(path: "/usr/bin/env", [tool] + arguments)
    }

    deinit {
        stop()
        closeInput()
    }

    /// Writes to a child's closed standard input must fail with EPIPE, not end the test process.
    private static let ignoreBrokenPipes: Void = {
        signal(SIGPIPE, SIG_IGN)
    }()

    // glibc declares these two only for _GNU_SOURCE, hence looked up: `pipe2` (close-on-exec from
    // the start, so no child spawned meanwhile by another thread inherits the pipes) and
    // `posix_spawn_file_actions_addclosefrom_np` (glibc 2.34 and later).
    private typealias Pipe2 = @convention(c) (UnsafeMutablePointer<Int32>, Int32) -> Int32
    private typealias AddCloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32
    private static let pipe2: Pipe2? = dlsym(nil, "pipe2").map { unsafeBitCast($0, to: Pipe2.self) }
    private static let addCloseFrom: AddCloseFrom? = dlsym(nil, "posix_spawn_file_actions_addclosefrom_np").map {
        unsafeBitCast($0, to: AddCloseFrom.self)
    }

    private static func spawn(
        _ pid: inout pid_t, path: String, arguments: [String], input: Int32, output: Int32, errors: Int32
    ) throws -> Int32 {
        guard let addCloseFrom else {
            throw Failure(description: "posix_spawn_file_actions_addclosefrom_np is missing")
        }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, input, 0)
        posix_spawn_file_actions_adddup2(&actions, output, 1)
        posix_spawn_file_actions_adddup2(&actions, errors, 2)
        _ = addCloseFrom(&actions, 3)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var noSignals = sigset_t()
        sigemptyset(&noSignals)
        posix_spawnattr_setsigmask(&attributes, &noSignals)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for signal in [SIGPIPE, SIGTERM, SIGINT, SIGCHLD] {
            sigaddset(&defaults, signal)
        }
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        let argv = ([path] + arguments).map { strdup($0) } + [nil]
        defer {
            for argument in argv {
                free(argument)
            }
        }
        return posix_spawn(&pid, path, &actions, &attributes, argv, environ)
    }

    /// The executable `name` beside the test binary (or up to three folders above it, where the
    /// build directory's `debug` link points).
    static func builtProduct(_ name: String) throws -> String {
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

    /// On the collecting thread: reads both pipes until both end, then reaps the child.
    private func collect(_ outputFD: Int32, _ errorFD: Int32) {
        var fds = [
            pollfd(fd: outputFD, events: Int16(POLLIN), revents: 0),
            pollfd(fd: errorFD, events: Int16(POLLIN), revents: 0),
        ]
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while fds.contains(where: { $0.fd >= 0 }) {
            guard poll(&fds, nfds_t(fds.count), -1) > 0 else { continue }
            for index in fds.indices where fds[index].fd >= 0 && fds[index].revents != 0 {
                let count = buffer.withUnsafeMutableBytes { read(fds[index].fd, $0.baseAddress, $0.count) }
                if count > 0 {
                    condition.withLock {
                        if index == 0 {
                            collectedOutput.append(contentsOf: buffer[0..<count])
                        } else {
                            collectedErrors.append(contentsOf: buffer[0..<count])
                        }
                        condition.broadcast()
                    }
                } else if count == 0 || errno != EINTR {
                    close(fds[index].fd)
                    fds[index].fd = -1
                }
            }
        }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        let exitCode = status & 0x7F == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
        condition.withLock {
            exitStatus = exitCode
            condition.broadcast()
        }
    }

    /// Everything written to standard output so far.
    var output: String {
        condition.withLock { String(decoding: collectedOutput, as: UTF8.self) }
    }

    /// Everything written to standard error so far.
    var errorOutput: String {
        condition.withLock { String(decoding: collectedErrors, as: UTF8.self) }
    }

    /// Waits until `holds` is true for (standard output, standard error) or `timeout` passes.
    @discardableResult
    func wait(timeout: TimeInterval = 10, until holds: (String, String) -> Bool) -> Bool {
        let deadline = Date(timeIntervalSinceNow: timeout)
        return condition.withLock {
            while true {
                let output = String(decoding: collectedOutput, as: UTF8.self)
                if holds(output, String(decoding: collectedErrors, as: UTF8.self)) {
                    return true
                }
                if !condition.wait(until: deadline) {
                    return holds(
                        String(decoding: collectedOutput, as: UTF8.self),
                        String(decoding: collectedErrors, as: UTF8.self))
                }
            }
        }
    }

    /// Waits until standard output or standard error contains `needle`.
    @discardableResult
    func wait(for needle: String, timeout: TimeInterval = 10) -> Bool {
        wait(timeout: timeout) { $0.contains(needle) || $1.contains(needle) }
    }

    /// The first complete line of standard output containing `needle`, once there is one.
    func line(containing needle: String, timeout: TimeInterval = 10) -> String? {
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
    func port(announcedBy needle: String, timeout: TimeInterval = 10) -> UInt16? {
        guard let line = line(containing: needle, timeout: timeout), let range = line.range(of: "port ") else {
            return nil
        }
        return UInt16(line[range.upperBound...].prefix { $0.isNumber })
    }

    /// Writes `text` to the process's standard input.
    func send(_ text: String) {
        let bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count && inputFD >= 0 {
            let written = bytes[offset...].withUnsafeBytes { write(inputFD, $0.baseAddress, $0.count) }
            guard written > 0 else { return }
            offset += written
        }
    }

    /// Closes the process's standard input.
    func closeInput() {
        if inputFD >= 0 {
            close(inputFD)
            inputFD = -1
        }
    }

    /// The exit status (128 + the signal for a process killed by one) once the process has ended
    /// and its output is collected, or `nil` if it is still running after `timeout`.
    func waitForExit(timeout: TimeInterval = 10) -> Int32? {
        let deadline = Date(timeIntervalSinceNow: timeout)
        return condition.withLock {
            while exitStatus == nil && condition.wait(until: deadline) {}
            return exitStatus
        }
    }

    /// Ends the process if it still runs: SIGTERM, then SIGKILL after two seconds.
    func stop() {
        guard condition.withLock({ exitStatus == nil }) else { return }
        kill(pid, SIGTERM)
        if waitForExit(timeout: 2) == nil {
            kill(pid, SIGKILL)
            _ = waitForExit(timeout: 2)
        }
    }
}
