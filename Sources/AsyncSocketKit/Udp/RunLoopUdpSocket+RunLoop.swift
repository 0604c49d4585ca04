import CAsyncSocketShims
import Foundation

// The socket's loop and modes (moveToRunLoop:, setRunLoopModes:). Its descriptor sources, timers and
// deferred work live in all of its modes on one loop. A move unregisters everything on the old loop
// and registers it again on the new loop's thread, timers with the time they had left; datagrams
// that arrive meanwhile wait in the kernel.
extension RunLoopUdpSocket {
    /// Moves the socket to `runLoop` (`moveToRunLoop:`): `false` for `nil`, `true` otherwise. Call it
    /// on the socket's current loop thread; afterwards every call must be made, and every callback
    /// arrives, on the new loop's thread.
    @discardableResult
    public func moveToRunLoop(_ runLoop: EventRunLoop?) -> Bool {
        checkThread("moveToRunLoop(_:)")
        guard let newLoop = runLoop else { return false }
        guard newLoop !== loop else { return true }
        // What the last move carried, if the socket moves on before it arrived.
        let carried = pendingArrival
        pendingArrival = UdpArrival(
            sendRemaining: sendTimer.flatMap { $0.isArmed ? $0.remainingSeconds : nil } ?? carried?.sendRemaining,
            receiveRemaining: receiveTimer.flatMap { $0.isArmed ? $0.remainingSeconds : nil }
                ?? carried?.receiveRemaining,
            reportsClose: didCloseReport != nil || carried?.reportsClose == true,
            closeDue: closeCheck?.isScheduled == true || carried?.closeDue == true)
        if let report = didCloseReport {
            loop.cancel(report)
            didCloseReport = nil
        }
        unregisterFromLoop()
        loop = newLoop
        if loopEntries > 0 {
            arrivalToPost = newLoop
        } else {
            postArrival(to: newLoop)
        }
        return true
    }

    /// Runs work the loop started (an event, a timer, a deferred dequeue, a report). A move made
    /// meanwhile (by a delegate callback) is handed to the new loop only when that work is over: until
    /// then this thread still finishes what it was doing with the socket, and the new loop's thread
    /// must not start on it.
    func fromLoop(_ body: (RunLoopUdpSocket) -> Void) {
        loopEntries += 1
        body(self)
        loopEntries -= 1
        if loopEntries == 0, let target = arrivalToPost {
            arrivalToPost = nil
            postArrival(to: target)
        }
    }

    private func postArrival(to newLoop: EventRunLoop) {
        let move = UdpMove(self)
        newLoop.perform(inModes: modes) { move.arrive(on: newLoop) }
    }

    /// Re-registers everything on the loop the socket moved to (unless it moved on meanwhile).
    func arrive(on newLoop: EventRunLoop) {
        guard loop === newLoop, let arrival = pendingArrival else { return }
        pendingArrival = nil
        if arrival.reportsClose {
            scheduleCloseReport()
        }
        guard !closed else { return }
        registerSources()
        if let remaining = arrival.sendRemaining {
            armTimer(send: true, after: remaining)
        }
        if let remaining = arrival.receiveRemaining {
            armTimer(send: false, after: remaining)
        }
        if operations.hasSends {
            scheduleSendDequeue()
        }
        if operations.hasReceives {
            scheduleReceiveDequeue()
        }
        if arrival.closeDue {
            maybeScheduleClose()
        }
    }

    /// Replaces the modes the socket works in (`setRunLoopModes:`): `false` for an empty list.
    @discardableResult
    public func setRunLoopModes(_ newModes: [RunLoopMode]) -> Bool {
        checkThread("setRunLoopModes(_:)")
        guard !newModes.isEmpty else { return false }
        guard newModes != modes else { return true }
        modes = newModes
        source4?.setModes(modes)
        source6?.setModes(modes)
        for timer in [sendTimer, receiveTimer] {
            timer?.setModes(modes)
        }
        for case let item? in [sendDequeue, receiveDequeue, closeCheck, didCloseReport] {
            let wasScheduled = item.isScheduled
            loop.cancel(item)
            item.modes = modes
            if wasScheduled {
                loop.schedule(item)
            }
        }
        return true
    }

    /// The modes the socket works in (`runLoopModes`; default ``RunLoopMode/default``).
    public var runLoopModes: [RunLoopMode] {
        checkThread("runLoopModes")
        return modes
    }

    // MARK: Sources and timers

    /// Watches each open descriptor, on the loop or with libdispatch as the engine says (nothing
    /// wanted yet).
    func registerSources() {
        if socket4 >= 0 {
            source4 = watch(socket4)
        }
        if socket6 >= 0 {
            source6 = watch(socket6)
        }
    }

    private func watch(_ fd: Int32) -> any DatagramWatch {
        let fired: (RunLoopFileSource.Event) -> Void = { [weak self] event in
            self?.fromLoop { $0.sourceFired(event) }
        }
        guard let watchQueue else {
            return loop.addFileSource(fd, modes: modes, fired)
        }
        return DispatchDatagramWatch(fd, queue: watchQueue, loop: loop, modes: modes, fired)
    }

    private func sourceFired(_ event: RunLoopFileSource.Event) {
        switch event {
        case .readable:
            if operations.currentReceive != nil {
                receivePass()
            } else {
                wantsDatagrams(false)
            }
        case .writable:
            if operations.currentSend != nil {
                sendPass()
            } else {
                source4?.wantsWritable = false
                source6?.wantsWritable = false
            }
        case .peerClosed:
            break
        }
    }

    /// Whether the loop watches the open descriptors for datagrams (only while a receive waits).
    func wantsDatagrams(_ wanted: Bool) {
        source4?.wantsReadable = wanted
        source6?.wantsReadable = wanted
    }

    /// Arms the send's or the receive's timer (made on first use, reused after).
    func armTimer(send: Bool, after seconds: TimeInterval) {
        let existing = send ? sendTimer : receiveTimer
        let timer =
            existing
            ?? loop.addReusableTimer(modes: modes) { [weak self] _ in
                self?.fromLoop { send ? $0.sendTimedOut() : $0.receiveTimedOut() }
            }
        if send { sendTimer = timer } else { receiveTimer = timer }
        timer.rearm(after: seconds)
    }

    func disarmTimer(send: Bool) {
        (send ? sendTimer : receiveTimer)?.disarm()
    }
}

/// What a move carries to the new loop: the time left on each armed timer, a close report or a close
/// that was due.
struct UdpArrival {
    var sendRemaining: TimeInterval?
    var receiveRemaining: TimeInterval?
    var reportsClose: Bool
    var closeDue: Bool
}

/// A socket on its way to another loop, carried into the block that re-registers it there.
final class UdpMove: @unchecked Sendable {
    // @unchecked Sendable: `moveToRunLoop` made the new loop the socket's loop before queueing the
    // block, so from then on only that loop's thread uses the socket, and the block runs there.
    private let socket: RunLoopUdpSocket

    init(_ socket: RunLoopUdpSocket) {
        self.socket = socket
    }

    func arrive(on loop: EventRunLoop) {
        socket.arrive(on: loop)
    }
}
