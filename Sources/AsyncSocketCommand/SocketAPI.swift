import ArgumentParser

/// `--api`: which of the library's socket classes a server uses.
enum SocketAPI: String, CaseIterable, ExpressibleByArgument {
    /// `RunLoopSocket`, the run-loop AsyncSocket API, on `EventRunLoop`s.
    case legacy
    /// `QueueSocket`, the GCDAsyncSocket-style API, on dispatch queues.
    case queue
}
