import Foundation

/// The run-loop scheduler of the drivers: file sources and timers on the socket's loop, in its modes.
extension NativeSocketBackend: SocketScheduler {
    func watch(_ fd: Int32, for kind: WatchKind, _ fired: @escaping (NativeSocketBackend) -> Void)
        -> RunLoopFileSource?
    {
        guard let loop else { return nil }
        let source = loop.addFileSource(fd, modes: modes) { [self] _ in fired(self) }
        switch kind {
        case .connectCompletion: source.wantsWritable = true
        case .incomingConnections: source.wantsReadable = true
        }
        return source
    }

    func pause(_ watch: RunLoopFileSource?) {
        watch?.wantsReadable = false
    }

    func resume(_ watch: RunLoopFileSource?) {
        watch?.wantsReadable = true
    }

    func stopWatching(_ watch: RunLoopFileSource?, fd: Int32, closing: Bool) {
        watch?.cancel()
        if closing {
            close(fd)
        }
    }

    func timer(after seconds: Double, _ fired: @escaping (NativeSocketBackend) -> Void) -> RunLoopTimer? {
        loop?.addTimer(after: seconds, modes: modes) { [weak self] _ in
            if let self { fired(self) }
        }
    }

    func cancelTimer(_ timer: RunLoopTimer?) {
        timer?.invalidate()
    }
}
