import CAsyncSocketShims
import Foundation

/// A one-shot or repeating timer of an ``EventRunLoop``.
///
/// Made by ``EventRunLoop/addTimer(after:repeating:modes:_:)``. Deadlines are exact (no tolerance) and
/// a timer never fires early; it fires late only by the time the loop needed to come round, or while
/// the loop runs in none of the timer's modes. A repeating timer that missed several intervals fires
/// once and continues at the next interval boundary. It must be used on its loop's thread.
public final class RunLoopTimer {
    /// The loop the timer belongs to.
    public let loop: EventRunLoop
    /// The repeat interval in seconds, or `nil` for a one-shot timer.
    public let repeatInterval: TimeInterval?
    let handler: (RunLoopTimer) -> Void
    /// The modes the timer was registered in, as given (``RunLoopMode/common`` unexpanded).
    public private(set) var modes: [RunLoopMode]
    /// Whether the timer can still fire: not invalidated and, if one-shot, not yet fired.
    public private(set) var isValid = true
    /// A one-shot timer made with `keepsAfterFiring` stays valid, disarmed, after firing.
    private let keepsAfterFiring: Bool
    private(set) var isArmed = false
    private var deadline: UInt64 = 0
    private var slots: [TimerSlot] = []

    init(
        loop: EventRunLoop, modes: [RunLoopMode], repeatInterval: TimeInterval?, keepsAfterFiring: Bool,
        handler: @escaping (RunLoopTimer) -> Void
    ) {
        self.loop = loop
        self.modes = modes
        self.repeatInterval = repeatInterval
        self.keepsAfterFiring = keepsAfterFiring
        self.handler = handler
    }

    /// Sets the next firing `seconds` from now (also for a timer that has not fired yet).
    public func rearm(after seconds: TimeInterval) {
        loop.checkThread("RunLoopTimer.rearm(after:)")
        guard isValid else { return }
        arm(at: EventRunLoop.monotonicDeadline(seconds: seconds))
    }

    /// Seconds until the next firing (0 when due), for a timer that is armed.
    var remainingSeconds: TimeInterval {
        let now = ask_monotonic_ns()
        return deadline > now ? Double(deadline - now) / 1e9 : 0
    }

    /// Stops a timer made to be reused (``EventRunLoop/addReusableTimer(modes:_:)``) until rearmed.
    func disarm() {
        isArmed = false
        for slot in slots {
            slot.context.timers.remove(slot)
        }
    }

    /// Stops the timer for good.
    public func invalidate() {
        loop.checkThread("RunLoopTimer.invalidate()")
        tearDown()
    }

    /// Replaces the timer's modes.
    public func setModes(_ modes: [RunLoopMode]) {
        loop.checkThread("RunLoopTimer.setModes(_:)")
        guard isValid else { return }
        self.modes = modes
        updateRegistrations()
    }

    private func arm(at deadline: UInt64) {
        self.deadline = deadline
        isArmed = true
        let sequence = loop.nextTimerSequence()
        for slot in slots {
            schedule(slot, sequence: sequence)
        }
    }

    private func schedule(_ slot: TimerSlot, sequence: UInt64) {
        slot.context.timers.remove(slot)
        slot.deadline = deadline
        slot.sequence = sequence
        slot.context.timers.insert(slot)
    }

    /// Called by a mode's timer heap when the deadline has passed; returns whether the handler ran.
    func fire(now: UInt64) -> Bool {
        guard isValid, isArmed, deadline <= now else { return false }
        if let repeatInterval {
            let step = max(UInt64(repeatInterval * 1e9), 1)
            let missed = (now - deadline) / step
            arm(at: deadline + (missed + 1) * step)
        } else {
            disarm()
        }
        handler(self)
        if repeatInterval == nil, !isArmed, !keepsAfterFiring {
            tearDown()
        }
        return true
    }

    func updateRegistrations() {
        let wanted = loop.effectiveModes(modes)
        var kept: [TimerSlot] = []
        for slot in slots {
            if wanted.contains(slot.context.mode) {
                kept.append(slot)
            } else {
                retire(slot)
            }
        }
        for mode in wanted where !kept.contains(where: { $0.context.mode == mode }) {
            let context = loop.context(for: mode)
            context.registeredCount += 1
            let slot = TimerSlot(context: context, timer: self)
            if isArmed {
                schedule(slot, sequence: kept.first?.sequence ?? loop.nextTimerSequence())
            }
            kept.append(slot)
        }
        slots = kept
    }

    private func retire(_ slot: TimerSlot) {
        slot.context.timers.remove(slot)
        slot.context.registeredCount -= 1
        slot.timer = nil
    }

    /// Retires every slot without the thread check (also used when the loop is torn down).
    func tearDown() {
        guard isValid else { return }
        isValid = false
        isArmed = false
        for slot in slots {
            retire(slot)
        }
        slots.removeAll()
        loop.timers[ObjectIdentifier(self)] = nil
    }
}

extension EventRunLoop {
    /// Adds a timer that fires `seconds` from now in `modes`, then every `repeating` seconds if given.
    /// A one-shot timer is invalidated after it fires unless its handler rearmed it.
    @discardableResult
    public func addTimer(
        after seconds: TimeInterval, repeating: TimeInterval? = nil, modes: [RunLoopMode] = [.default],
        _ handler: @escaping (RunLoopTimer) -> Void
    ) -> RunLoopTimer {
        checkThread("addTimer(after:repeating:modes:_:)")
        let timer = RunLoopTimer(
            loop: self, modes: modes, repeatInterval: repeating.map { max($0, 0) }, keepsAfterFiring: false,
            handler: handler)
        register(timer)
        timer.rearm(after: seconds)
        return timer
    }

    /// A disarmed one-shot timer that stays valid after firing, for owners that arm it again and again
    /// (a socket's read, write and connect timeouts): no allocation per use.
    func addReusableTimer(modes: [RunLoopMode], _ handler: @escaping (RunLoopTimer) -> Void) -> RunLoopTimer {
        checkThread("addReusableTimer(modes:_:)")
        let timer = RunLoopTimer(
            loop: self, modes: modes, repeatInterval: nil, keepsAfterFiring: true, handler: handler)
        register(timer)
        return timer
    }

    private func register(_ timer: RunLoopTimer) {
        timers[ObjectIdentifier(timer)] = timer
        timer.updateRegistrations()
    }
}
