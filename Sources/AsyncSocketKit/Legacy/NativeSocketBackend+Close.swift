import AsyncSocketCore
import Foundation

// Closing the native engine's way, in the grammar LegacyCloseSequence.swift gives every backend. A full
// close releases the descriptors (a listener's port is free) before the last callback,
// onSocketDidDisconnect, which is the very last thing it does.
extension NativeSocketBackend: LegacyClosing {
    func disconnect() {
        checkThread("disconnect()")
        fullClose()
    }

    func disconnectAfter(reading: Bool, writing: Bool) {
        if engine.disconnectAfter(reading: reading, writing: writing) {
            scheduleDisconnect()
        }
    }

    func closeWithError(_ error: (any Error)?) {
        guard started, !closingWithError else { return }
        log(.debug, "closing", error.map { ["error": .string("\($0)")] } ?? ["error": "none: the peer closed"])
        closeWithLegacyError(error)
    }

    var closeOwner: RunLoopSocket? { callbackOwner }
    var closeGeneration: Int { generation }

    func beginErrorClose(atEnd: Bool) {
        closingWithError = true
        closingAtEnd = atEnd
        engine.prepareErrorClose()
    }

    func unreadData() -> Data? {
        guard closingWithError, fd >= 0 else { return nil }
        if let tls, !tlsHandshaking {
            return engine.collectUnreadData(from: tls)
        }
        return engine.collectUnreadData(from: self)
    }

    /// A facade goes away only while its socket is not started, so no item is queued anywhere; this
    /// only guarantees that no deferred action outlives it holding the backend.
    func ownerDidGoAway() {
        owner = nil
        readDequeue = nil
        writeDequeue = nil
        scheduledDisconnect = nil
        flushItem = nil
    }

    func fullClose() {
        let wasStarted = started
        let keptOwner = callbackOwner
        if wasStarted {
            log(.debug, "closed")
            metricHandles?.closed(&countedOpen, failed: closingWithError, listening: listening != nil)
        }
        dropScheduledWork()
        engine.reset()
        connecting?.driver?.cancel(on: self)
        for timer in [readTimer, writeTimer, connectTimer] {
            timer?.invalidate()
        }
        readTimer = nil
        writeTimer = nil
        connectTimer = nil
        connectDeadline = nil
        if let tls, !tlsHandshaking, fd >= 0 {
            tls.sendCloseNotify()
        }
        tls = nil
        tlsHandshaking = false
        source?.cancel()
        source = nil
        listening?.driver.close(on: self)
        if fd >= 0 {
            close(fd)
        }
        fd = -1
        loop = nil
        phase = .idle
        closingWithError = false
        readableHint = false
        writableHint = false
        gather.end()
        peerAddress = nil
        connectHost = nil
        generation += 1
        retainedOwner = nil
        if wasStarted {
            reportDisconnected(keptOwner)
        }
    }
}
