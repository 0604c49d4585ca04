import Glibc

// Where a RunLoopUdpSocket learns that a descriptor can be read or written: the engine's scheduler.
// The native engine watches with the loop's own file source; the queue-core engine with libdispatch
// (DispatchDatagramWatch.swift). Either way the event arrives on the socket's loop thread, in its
// modes, and the socket does the same system calls there: the legacy rules live in one place.

/// The readiness of one of a ``RunLoopUdpSocket``'s descriptors, delivered on the socket's loop thread.
/// Used on that thread only.
protocol DatagramWatch: AnyObject {
    /// Whether readiness to read is delivered (only while a receive waits).
    var wantsReadable: Bool { get set }
    /// Whether readiness to write is delivered (only while a send waits for room).
    var wantsWritable: Bool { get set }
    /// Delivers events only while the loop runs in one of `modes` from now on.
    func setModes(_ modes: [RunLoopMode])
    /// Delivers nothing more; with `closing`, closes the descriptor as well, once nothing watches
    /// it any longer.
    func stop(closing: Bool)
    /// The loop's thread has ended (its sources went with it): closes the descriptor from this
    /// thread, after anything else still watching it has stopped.
    func closeAfterLoopEnded()
}

extension RunLoopFileSource: DatagramWatch {
    func stop(closing: Bool) {
        cancel()
        if closing {
            Glibc.close(fileDescriptor)
        }
    }

    func closeAfterLoopEnded() {
        Glibc.close(fileDescriptor)
    }
}
