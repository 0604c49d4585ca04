import Dispatch
import Glibc

// One datagram descriptor with its read and write sources (a QueueUdpSocket's, or a RunLoopUdpSocket's
// on the queue-core engine). libdispatch requires a descriptor to stay open until every source on it
// has been cancelled, and a suspended or never activated source must be resumed before it is
// cancelled and released: the channel keeps the suspension state so `close` can do both, and closes
// the descriptor from the last cancel handler.
// The socket itself goes at once (SafeClose.detach, as for QueueSocket): its port is free and no
// datagram reaches it once `close` returns, while the number stays valid for libdispatch.
// On Linux, libdispatch keeps one epoll registration per descriptor for all of its sources and files
// a read source registered while the write source is armed with the writers, where it hears of room to
// write and never of datagrams (Benchmarks/QUEUE-CORE.md, "A stall found by the run-all"). So the read
// source always starts first: the first watch of either kind starts it, and while reads are not
// watched, its first event suspends it again.

/// The read and write sources of one datagram descriptor, on the socket queue. Used only there.
package final class UdpChannel {
    let fd: Int32
    private let readSource: any DispatchSourceRead
    private let writeSource: any DispatchSourceWrite
    private let reads = ReadWatch()
    private var writeSuspended = true
    private let closer: DescriptorCloser

    /// Sources on `queue` for `fd`, both suspended; `readable` and `writable` run there.
    package init(fd: Int32, queue: DispatchQueue, readable: @escaping () -> Void, writable: @escaping () -> Void) {
        self.fd = fd
        let readSource = DispatchSource.makeReadSource(fileDescriptor: fd, queue: queue)
        self.readSource = readSource
        writeSource = DispatchSource.makeWriteSource(fileDescriptor: fd, queue: queue)
        // The handler holds its own source until the cancel releases the handler.
        let reads = reads
        readSource.setEventHandler {
            guard reads.watched else {
                reads.running = false
                readSource.suspend()
                return
            }
            readable()
        }
        writeSource.setEventHandler(handler: writable)
        let closer = DescriptorCloser(fd: fd, sources: 2)
        self.closer = closer
        readSource.setCancelHandler { closer.sourceCancelled() }
        writeSource.setCancelHandler { closer.sourceCancelled() }
    }

    /// Delivers readiness to read (or stops).
    package func watchReadable(_ watching: Bool) {
        guard watching != reads.watched else { return }
        reads.watched = watching
        if watching {
            startReadSource()
        } else if reads.running {
            reads.running = false
            readSource.suspend()
        }
    }

    /// Delivers readiness to write (or stops); the read source starts first.
    package func watchWritable(_ watching: Bool) {
        guard watching == writeSuspended else { return }
        writeSuspended = !watching
        if watching {
            if !reads.started {
                startReadSource()
            }
            writeSource.resume()
        } else {
            writeSource.suspend()
        }
    }

    private func startReadSource() {
        guard !reads.running else { return }
        reads.running = true
        reads.started = true
        readSource.resume()
    }

    /// Closes the socket now and cancels both sources; the descriptor number is given back when both
    /// cancel handlers have run.
    package func close() {
        cancel(closing: true)
    }

    /// Cancels both sources; with `closing`, closes the socket now and gives the descriptor number
    /// back when both cancel handlers have run, without it leaves the descriptor as it is (a
    /// RunLoopUdpSocket moving to another loop watches it again from there).
    func cancel(closing: Bool) {
        watchReadable(true)
        watchWritable(true)
        closer.closes = closing
        readSource.cancel()
        writeSource.cancel()
        if closing {
            SafeClose.detach(fd)
        }
    }
}

/// Whether reads are watched, and whether the read source runs (it may run unwatched until its next
/// event); on the socket queue only, as the channel.
private final class ReadWatch {
    var watched = false
    var running = false
    var started = false
}

/// Closes a descriptor once all of its sources are cancelled, if asked to (their cancel handlers
/// run on the one serial queue that also sets `closes`, so neither needs a lock).
private final class DescriptorCloser {
    let fd: Int32
    var remaining: Int
    var closes = true

    init(fd: Int32, sources: Int) {
        self.fd = fd
        remaining = sources
    }

    func sourceCancelled() {
        remaining -= 1
        if remaining == 0, closes {
            Glibc.close(fd)
        }
    }
}
