import AsyncSocketCore
import Dispatch
import Foundation

// Closing the GCD way: synchronous on the socket queue, queued work and buffered bytes
// discarded, one socketDidDisconnect(withError:) dispatched before disconnect() returns. The
// descriptors are closed at once (SafeClose), so the port is free and the peer sees the close before
// the callback runs; the dispatch sources' cancel handlers close what remains of them later.
extension QueueSocket {
    /// Closes at once; a started socket's delegate hears `socketDidDisconnect(_:withError: nil)`,
    /// queued before this call returns.
    ///
    /// Original: `disconnect` (GCDAsyncSocket).
    public func disconnect() {
        sync { closeWithError(nil) }
    }

    /// Disconnects once every queued read has finished; later reads and writes are ignored.
    ///
    /// Original: `disconnectAfterReading` (GCDAsyncSocket).
    public func disconnectAfterReading() {
        disconnectAfter(reading: true, writing: false)
    }

    /// Disconnects once every queued write has finished; later reads and writes are ignored.
    ///
    /// Original: `disconnectAfterWriting` (GCDAsyncSocket).
    public func disconnectAfterWriting() {
        disconnectAfter(reading: false, writing: true)
    }

    /// Disconnects once every queued read and write has finished.
    ///
    /// Original: `disconnectAfterReadingAndWriting` (GCDAsyncSocket).
    public func disconnectAfterReadingAndWriting() {
        disconnectAfter(reading: true, writing: true)
    }

    private func disconnectAfter(reading: Bool, writing: Bool) {
        async { [self] in
            guard started else { return }
            if engine.disconnectAfter(reading: reading, writing: writing) {
                closeWithError(nil)
            }
        }
    }

    /// Closes everything and reports the one final callback (when started).
    func closeWithError(_ error: (any Error)?) {
        guard started else { return }
        log(.debug, "closed", error.map { ["error": .string("\($0)")] } ?? [:])
        let keepsDescriptor = closing(with: error)
        tearDown(keepingDescriptor: keepsDescriptor, failed: error != nil)
        notify { [self] in $0.socketDidDisconnect(self, withError: error) }
    }

    /// Closes without telling anyone (the socket is going away).
    func closeWithoutCallback() {
        guard started else { return }
        tearDown(failed: false)
    }

    /// `keepingDescriptor`: something else (see `closing(with:)`) holds the connected descriptor and
    /// closes it. `failed`: closed with an error (the metrics count a connect that failed).
    private func tearDown(keepingDescriptor: Bool = false, failed: Bool) {
        metricHandles?.closed(&countedOpen, failed: failed, listening: !listenFDs.isEmpty)
        stateIndex += 1
        didTearDown()
        engine.reset()
        gather.end()
        for timer in [readTimer, writeTimer, connectTimer].compactMap({ $0 }) {
            timer.cancel()
        }
        readTimer = nil
        writeTimer = nil
        connectTimer = nil
        connectDriver?.cancel(on: self)
        if let tls, isSecured, fd >= 0 {
            tls.sendCloseNotify()
        }
        tls = nil
        tlsHandshaking = false
        connectHostString = nil
        if fd >= 0 {
            if descriptorCloser == nil {
                // No sources watch it yet (an accepted socket closed before it was handed over).
                close(fd)
            } else if !keepingDescriptor {
                if readSource != nil || writeSource != nil {
                    SafeClose.detach(fd)
                }
                // With no source made, the close is the last holder: the descriptor closes here.
                descriptorCloser?.done()
            }
            if readSourceSuspended { readSource?.resume() }
            if writeSourceSuspended { writeSource?.resume() }
            readSource?.cancel()
            writeSource?.cancel()
        }
        readSource = nil
        writeSource = nil
        descriptorCloser = nil
        listener?.close(on: self)
        if let path = unixListenPath {
            unlink(path)
        }
        unixListenPath = nil
        fd = -1
        phase = .idle
        readsPaused = false
        writesPaused = false
        readStreamClosed = false
        readSourceSuspended = true
        writeSourceSuspended = true
        readableHint = false
        peer = nil
        connectedURL = nil
        // Closed: a graceful shutdown waiting for this connection stops waiting.
        tracker?.remove(self)
    }
}
