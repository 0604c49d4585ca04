import Foundation

// close, closeAfterSending, closeAfterReceiving, closeAfterSendingAndReceiving. A close empties both
// queues without a callback per operation, closes the descriptors, and reports
// onUdpSocketDidClose from a later pass of the loop (in the socket's modes), after the call that
// closed it has returned. A close-after call refuses new operations and closes, the same way, once
// the queues it names are empty.
extension RunLoopUdpSocket {
    /// Closes the socket now (`close`): queued sends and receives are dropped without callbacks, and
    /// ``RunLoopUdpSocketDelegate/onUdpSocketDidClose(_:)`` follows once the loop comes round. A
    /// closed socket cannot be bound, connected or used again.
    public func close() {
        checkThread("close()")
        closeNow()
    }

    /// Refuses new sends and receives and closes once every queued send is sent
    /// (`closeAfterSending`); pending receives do not hold the close up.
    public func closeAfterSending() {
        checkThread("closeAfterSending()")
        closeAfter(sending: true, receiving: false)
    }

    /// Refuses new sends and receives and closes once every queued receive is over
    /// (`closeAfterReceiving`): a receive without a timeout can keep the socket open for good.
    public func closeAfterReceiving() {
        checkThread("closeAfterReceiving()")
        closeAfter(sending: false, receiving: true)
    }

    /// Refuses new sends and receives and closes once both queues are empty
    /// (`closeAfterSendingAndReceiving`).
    public func closeAfterSendingAndReceiving() {
        checkThread("closeAfterSendingAndReceiving()")
        closeAfter(sending: true, receiving: true)
    }

    private func closeAfter(sending: Bool, receiving: Bool) {
        guard !closed else { return }
        operations.closeAfter(sending: sending, receiving: receiving)
        maybeScheduleClose()
    }

    /// Schedules the close when a close-after call's queues are empty.
    func maybeScheduleClose() {
        guard !closed, operations.closeIsDue else { return }
        let item = closeCheck ?? PerformItem(modes: modes) { [weak self] in self?.fromLoop { $0.closeNow() } }
        closeCheck = item
        loop.schedule(item)
    }

    func closeNow() {
        guard !closed else { return }
        closed = true
        operations.removeAll()
        tearDown()
        scheduleCloseReport()
    }

    /// Reports the close from a later pass of the loop. The pending report holds the socket until it
    /// runs, as the original's delayed perform did.
    func scheduleCloseReport() {
        let report = PerformItem(modes: modes) { [self] in
            didCloseReport = nil
            fromLoop { $0.delegateForCallbacks?.onUdpSocketDidClose($0) }
        }
        didCloseReport = report
        loop.schedule(report)
    }

    /// Drops the timers, the deferred work and the sources, and closes the descriptors.
    func tearDown() {
        unregisterFromLoop()
        closeSocket(ipv4: true)
        closeSocket(ipv4: false)
    }

    /// Drops everything the socket registered on its loop: timers, deferred work, sources (a pending
    /// close report stays).
    func unregisterFromLoop() {
        for timer in [sendTimer, receiveTimer] {
            timer?.invalidate()
        }
        sendTimer = nil
        receiveTimer = nil
        for case let item? in [sendDequeue, receiveDequeue, closeCheck] {
            loop.cancel(item)
        }
        sendDequeue = nil
        receiveDequeue = nil
        closeCheck = nil
        source4?.cancel()
        source6?.cancel()
        source4 = nil
        source6 = nil
    }

    /// Closes one family's descriptor for good (the other family was chosen, or the socket closes). A
    /// send waiting for room on it is tried again, to report the family gone.
    func closeSocket(ipv4: Bool) {
        defer {
            if !closed, operations.currentSend != nil {
                scheduleSendDequeue()
            }
        }
        if ipv4 {
            source4?.cancel()
            source4 = nil
            if socket4 >= 0 { Glibc.close(socket4) }
            socket4 = -1
        } else {
            source6?.cancel()
            source6 = nil
            if socket6 >= 0 { Glibc.close(socket6) }
            socket6 = -1
        }
    }
}

/// What a socket released off its loop's thread still holds there: its sources and timers, cancelled
/// on that thread, and its descriptors, closed there after them (closed earlier, a descriptor number
/// could be reused while the loop still watches it).
final class UdpRegistrations: @unchecked Sendable {
    // @unchecked Sendable: made in the socket's deinit and opened only inside `release(on:)`'s block,
    // which runs on the loop's thread, the only thread that touches sources; nothing else holds it.
    private let sources: [RunLoopFileSource]
    private let timers: [RunLoopTimer]
    private let descriptors: [Int32]

    private let modes: [RunLoopMode]

    init(_ socket: RunLoopUdpSocket) {
        sources = [socket.source4, socket.source6].compactMap { $0 }
        timers = [socket.sendTimer, socket.receiveTimer].compactMap { $0 }
        descriptors = [socket.socket4, socket.socket6].filter { $0 >= 0 }
        modes = socket.modes + [.common]
    }

    /// Cancels and closes on the loop's thread, in the socket's modes (its sources run only there);
    /// once that thread has ended (its sources already cancelled), closes the descriptors here.
    func release(on loop: EventRunLoop) {
        let queued = loop.performFromAnotherThread(inModes: modes) { [self] in
            for source in sources {
                source.cancel()
            }
            for timer in timers {
                timer.invalidate()
            }
            for descriptor in descriptors {
                Glibc.close(descriptor)
            }
        }
        if !queued {
            for descriptor in descriptors {
                Glibc.close(descriptor)
            }
        }
    }
}
