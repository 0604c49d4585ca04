import AsyncSocketCore
import CAsyncSocketShims
import Foundation

// moveToRunLoop and run-loop modes. Everything the socket registers — its descriptor
// sources, timers (the connect timer too: a deliberate fix) and deferred dequeues — lives in all of
// its modes on one loop. A move unregisters everything on the old loop and registers it again on the
// new loop's thread; bytes that arrive meanwhile wait in the kernel.
extension NativeSocketBackend {
    func moveToRunLoop(_ newLoop: EventRunLoop) -> Bool {
        checkThread("moveToRunLoop(_:)")
        guard newLoop !== loop else { return true }
        guard started, loop != nil else { return true }
        let readRemaining = remaining(of: readTimer)
        let writeRemaining = remaining(of: writeTimer)
        let connectRemaining = connectDeadline.map { deadline -> TimeInterval in
            let now = ask_monotonic_ns()
            return deadline > now ? Double(deadline - now) / 1e9 : 0
        }
        unregisterEverything()
        loop = newLoop
        newLoop.perform(inModes: modes) { [self] in
            guard started, loop === newLoop else { return }
            registerEverything(
                readRemaining: readRemaining, writeRemaining: writeRemaining, connectRemaining: connectRemaining)
        }
        return true
    }

    func setRunLoopModes(_ newModes: [RunLoopMode]) -> Bool {
        checkThread("setRunLoopModes(_:)")
        guard !newModes.isEmpty else { return false }
        guard newModes != modes else { return true }
        modes = newModes
        source?.setModes(modes)
        for timer in [readTimer, writeTimer, connectTimer].compactMap({ $0 }) {
            timer.setModes(modes)
        }
        if let registrations = connecting?.driver?.registrations {
            for watch in registrations.watches {
                watch?.setModes(modes)
            }
            registrations.stagger??.setModes(modes)
        }
        if let registrations = listening?.driver.registrations {
            for watch in registrations.watches {
                watch?.setModes(modes)
            }
            registrations.pauseTimer??.setModes(modes)
        }
        for case let item? in [readDequeue, writeDequeue, scheduledDisconnect] {
            let wasScheduled = item.isScheduled
            loop?.cancel(item)
            item.modes = modes
            if wasScheduled {
                schedule(item)
            }
        }
        flushItem?.modes = modes
        return true
    }

    private func remaining(of timer: RunLoopTimer?) -> TimeInterval? {
        guard let timer, timer.isArmed else { return nil }
        return timer.remainingSeconds
    }

    private func unregisterEverything() {
        dropScheduledWork()
        source?.cancel()
        source = nil
        listening?.driver.suspend(on: self)
        for timer in [readTimer, writeTimer, connectTimer] {
            timer?.invalidate()
        }
        readTimer = nil
        writeTimer = nil
        connectTimer = nil
        connecting?.driver?.suspend(on: self)
    }

    private func registerEverything(
        readRemaining: TimeInterval?, writeRemaining: TimeInterval?, connectRemaining: TimeInterval?
    ) {
        if connected {
            attachSource()
        }
        try? listening?.driver.start(on: self)
        if let readRemaining {
            armTimer(.read, after: readRemaining)
        }
        if let writeRemaining {
            armTimer(.write, after: writeRemaining)
        }
        if let connectRemaining {
            connectTimer = makeTimer { $0.closeWithError(AsyncSocketError(.connectTimeout)) }
            connectTimer?.rearm(after: connectRemaining)
        }
        connecting?.driver?.resume(on: self)
        scheduleReadDequeue()
        scheduleWriteDequeue()
        if engine.disconnectConditionHolds {
            scheduleDisconnect()
        }
    }
}
