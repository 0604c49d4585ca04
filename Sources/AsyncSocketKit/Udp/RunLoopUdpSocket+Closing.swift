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

    /// Closes the descriptors (each through its watch, which may need it open a little longer) and
    /// drops the timers and the deferred work.
    func tearDown() {
        closeDescriptor(ipv4: true)
        closeDescriptor(ipv4: false)
        unregisterFromLoop()
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
        source4?.stop(closing: false)
        source6?.stop(closing: false)
        source4 = nil
        source6 = nil
    }

    /// Closes one family's descriptor for good (the other family was chosen, or the socket closes). A
    /// send waiting for room on it is tried again, to report the family gone.
    func closeSocket(ipv4: Bool) {
        closeDescriptor(ipv4: ipv4)
        if !closed, operations.currentSend != nil {
            scheduleSendDequeue()
        }
    }

    private func closeDescriptor(ipv4: Bool) {
        let fd = ipv4 ? socket4 : socket6
        reader.discardHeld(from: fd)
        if let watch = ipv4 ? source4 : source6 {
            watch.stop(closing: true)
        } else if fd >= 0 {
            Glibc.close(fd)
        }
        if ipv4 {
            source4 = nil
            socket4 = -1
        } else {
            source6 = nil
            socket6 = -1
        }
    }
}

/// What a socket released off its loop's thread still holds there: its watches and timers, stopped
/// on that thread, and its descriptors, closed there by their watches (closed earlier, a descriptor
/// number could be reused while the loop still watches it).
final class UdpRegistrations: @unchecked Sendable {
    // @unchecked Sendable: made in the socket's deinit and opened only inside `release(on:)`'s block,
    // which runs on the loop's thread, the only thread that touches watches, or, once that thread
    // has ended, by `release(on:)` itself; nothing else holds it.
    private let descriptors: [(fd: Int32, watch: (any DatagramWatch)?)]
    private let timers: [RunLoopTimer]

    private let modes: [RunLoopMode]

    init(_ socket: RunLoopUdpSocket) {
        descriptors = [(socket.socket4, socket.source4), (socket.socket6, socket.source6)].filter { $0.0 >= 0 }
        timers = [socket.sendTimer, socket.receiveTimer].compactMap { $0 }
        modes = socket.modes + [.common]
    }

    /// Stops and closes on the loop's thread, in the socket's modes (its sources run only there);
    /// once that thread has ended (its sources already cancelled), closes the descriptors here.
    func release(on loop: EventRunLoop) {
        let queued = loop.performFromAnotherThread(inModes: modes) { [self] in
            for timer in timers {
                timer.invalidate()
            }
            for (fd, watch) in descriptors {
                if let watch { watch.stop(closing: true) } else { Glibc.close(fd) }
            }
        }
        if !queued {
            for (fd, watch) in descriptors {
                if let watch { watch.closeAfterLoopEnded() } else { Glibc.close(fd) }
            }
        }
    }
}
