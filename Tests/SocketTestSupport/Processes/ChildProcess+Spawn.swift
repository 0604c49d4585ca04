import Foundation

// Children are spawned with posix_spawn rather than Foundation's Process. The Foundation of this
// toolchain (Swift 6.3.1) can crash the whole test process in Process.run(): it copies each
// /proc/self/fd entry as a 256-byte name, reading past the end of glibc's buffer when the next page
// is unmapped (swift-corelibs-foundation pull request 5472), which a suite with many descriptors open
// meets now and then. Process also lets a child inherit every descriptor the test process has open
// without close-on-exec (other tests' sockets, other children's pipes: a child's output would then
// not end when it exits) and the spawning thread's blocked signals (a child that ignores SIGTERM).
// Here a child gets only its three pipes (closefrom 3), an empty signal mask and default signal
// actions.
extension ChildProcess {
    // glibc declares these only for _GNU_SOURCE, hence looked up: `pipe2` (close-on-exec from the
    // start, so no child spawned meanwhile by another thread inherits the pipes),
    // `posix_spawn_file_actions_addclosefrom_np` (glibc 2.34 and later) and
    // `posix_spawn_file_actions_addchdir_np` (glibc 2.29 and later).
    private typealias Pipe2 = @convention(c) (UnsafeMutablePointer<Int32>, Int32) -> Int32
    private typealias AddCloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32
    private static let pipe2: Pipe2? = dlsym(nil, "pipe2").map { unsafeBitCast($0, to: Pipe2.self) }
    private static let addCloseFrom: AddCloseFrom? = dlsym(nil, "posix_spawn_file_actions_addclosefrom_np").map {
        unsafeBitCast($0, to: AddCloseFrom.self)
    }
    private typealias AddChdir =
        @convention(c) (
            UnsafeMutablePointer<posix_spawn_file_actions_t>, UnsafePointer<CChar>
        ) -> Int32
    private static let addChdir: AddChdir? = dlsym(nil, "posix_spawn_file_actions_addchdir_np").map {
        unsafeBitCast($0, to: AddChdir.self)
    }

    /// Writes to a child's closed standard input must fail with EPIPE, not end the test process.
    private static let ignoreBrokenPipes: Void = {
        signal(SIGPIPE, SIG_IGN)
    }()

    /// Starts `path` (in `directory` when given); returns its id and the parent's ends of its
    /// standard input, output and error.
    static func spawn(path: String, arguments: [String], directory: String?) throws -> (
        pid: pid_t, input: Int32, output: Int32, errors: Int32
    ) {
        ignoreBrokenPipes
        guard let pipe2, let addCloseFrom else {
            throw Failure(description: "this glibc has no pipe2 or posix_spawn_file_actions_addclosefrom_np")
        }
        var pipes: [[Int32]] = []
        for _ in 0..<3 {
            var ends: [Int32] = [-1, -1]
            guard pipe2(&ends, O_CLOEXEC) == 0 else {
                for fd in pipes.joined() {
                    close(fd)
                }
                throw Failure(description: "pipe2 failed: errno \(errno)")
            }
            pipes.append(ends)
        }
        let childEnds = [pipes[0][0], pipes[1][1], pipes[2][1]]
        let parentEnds = [pipes[0][1], pipes[1][0], pipes[2][0]]
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        for (target, fd) in childEnds.enumerated() {
            posix_spawn_file_actions_adddup2(&actions, fd, Int32(target))
        }
        _ = addCloseFrom(&actions, 3)
        if let directory {
            guard let addChdir, addChdir(&actions, directory) == 0 else {
                for fd in pipes.joined() {
                    close(fd)
                }
                throw Failure(description: "cannot start \(path) in \(directory)")
            }
        }
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
        var pid: pid_t = 0
        let rc = posix_spawn(&pid, path, &actions, &attributes, argv, environ)
        for fd in childEnds {
            close(fd)
        }
        guard rc == 0 else {
            for fd in parentEnds {
                close(fd)
            }
            throw Failure(description: "posix_spawn \(path) failed: \(String(cString: strerror(rc)))")
        }
        return (pid, parentEnds[0], parentEnds[1], parentEnds[2])
    }
}
