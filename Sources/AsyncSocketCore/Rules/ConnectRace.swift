// Which address a connect tries when, for every face and engine (happy eyeballs, staggered). The
// addresses come in the order to try them (see `ConnectOrder` for each semantics' order). One attempt
// starts at once; while attempts are in flight, the next address joins them after `stagger`; when
// every attempt in flight has failed, the next starts at once instead of waiting. The first attempt
// to complete wins and the others are abandoned; when none is left to try, the race fails with the
// last error seen. An attempt that fails while being started (no socket, no bind, a refused connect
// call) counts as failed at once and the next starts in its place.
//
// I/O-free: the caller opens sockets, watches them and runs the stagger timer, feeding what happens
// back in; each call returns what to do next, in order.

/// One connect's race over its addresses.
package struct ConnectRace<Address> {
    /// Names one attempt: the position of its address in the race (an adopted attempt is 0).
    package typealias Attempt = Int

    package enum Action {
        /// Open a socket for the address and start a non-blocking connect; report the outcome through
        /// ``startFailed(_:error:)``, ``failed(_:error:)`` or ``succeeded(_:)``.
        case start(Attempt, Address)
        /// Call ``staggerFired()`` after this many seconds (replacing a stagger already armed).
        case armStagger(Double)
        case disarmStagger
        /// Close the attempt's socket: another won, or the race was cancelled.
        case abandon(Attempt)
        /// The attempt's socket is the connection: stop watching it, keep it open.
        case won(Attempt)
        /// Nothing is left to try; the last error seen, if any.
        case failed((any Error)?)
    }

    private let addresses: [Address]
    private let stagger: Double
    private var next = 0
    private(set) package var inFlight: [Attempt] = []
    private var lastError: (any Error)?
    private var staggerArmed = false
    /// Won, failed or cancelled: every later event is ignored.
    private(set) package var isOver = false

    package init(addresses: [Address], stagger: Double) {
        self.addresses = addresses
        self.stagger = stagger
    }

    /// Starts the first attempt (an empty list fails at once).
    package mutating func start() -> [Action] {
        guard !isOver, next == 0, inFlight.isEmpty else { return [] }
        var actions: [Action] = []
        advance(&actions)
        return actions
    }

    /// Records an attempt the caller started itself, before the race (a legacy connect by address
    /// makes its socket before `onSocketWillConnect`); the race then holds just that one.
    package mutating func adopt() -> Attempt {
        next = addresses.count
        inFlight = [0]
        return 0
    }

    /// The attempt could not be started; the next address starts in its place.
    package mutating func startFailed(_ attempt: Attempt, error: any Error) -> [Action] {
        guard !isOver else { return [] }
        inFlight.removeAll { $0 == attempt }
        lastError = error
        var actions: [Action] = []
        advance(&actions)
        return actions
    }

    /// The attempt's connect completed with an error; the next address starts now only if no other
    /// attempt is still in flight.
    package mutating func failed(_ attempt: Attempt, error: any Error) -> [Action] {
        guard !isOver, inFlight.contains(attempt) else { return [] }
        inFlight.removeAll { $0 == attempt }
        lastError = error
        guard inFlight.isEmpty else { return [] }
        var actions: [Action] = []
        advance(&actions)
        return actions
    }

    /// The attempt's connect completed: it wins.
    package mutating func succeeded(_ attempt: Attempt) -> [Action] {
        guard !isOver, inFlight.contains(attempt) else { return [] }
        var actions = endRace()
        actions.removeAll {
            if case .abandon(attempt) = $0 { return true }
            return false
        }
        actions.append(.won(attempt))
        return actions
    }

    /// The stagger elapsed: the next address joins the attempts in flight.
    package mutating func staggerFired() -> [Action] {
        guard !isOver, staggerArmed else { return [] }
        staggerArmed = false
        var actions: [Action] = []
        advance(&actions)
        return actions
    }

    /// The connect is given up (a timeout, a disconnect): abandon everything.
    package mutating func cancel() -> [Action] {
        guard !isOver else { return [] }
        return endRace()
    }

    /// Whether a stagger is armed (a scheduler that had to drop its timer, on a move to another run
    /// loop, fires it at once instead).
    package var hasStagger: Bool { staggerArmed }

    private mutating func endRace() -> [Action] {
        isOver = true
        var actions: [Action] = inFlight.map { .abandon($0) }
        inFlight.removeAll()
        if staggerArmed {
            staggerArmed = false
            actions.append(.disarmStagger)
        }
        return actions
    }

    /// Starts the next address, arming the stagger when more remain; with none left, fails once
    /// nothing is in flight.
    private mutating func advance(_ actions: inout [Action]) {
        if staggerArmed {
            staggerArmed = false
            actions.append(.disarmStagger)
        }
        guard next < addresses.count else {
            if inFlight.isEmpty {
                isOver = true
                actions.append(.failed(lastError))
            }
            return
        }
        let attempt = next
        next += 1
        inFlight.append(attempt)
        actions.append(.start(attempt, addresses[attempt]))
        if next < addresses.count {
            staggerArmed = true
            actions.append(.armStagger(stagger))
        }
    }
}
