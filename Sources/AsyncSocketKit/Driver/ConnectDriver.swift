import AsyncSocketCore
import Foundation

// Carries out a ConnectRace against real descriptors, on either scheduler: opens (and binds) each
// attempt's socket, starts its non-blocking connect, watches it, runs the stagger timer. Both faces
// and both engines connect through it; what they do around it (checks, resolving, the connect
// timeout, the errors they report) stays theirs. The scheduler is passed to every call (see
// SocketScheduler).

/// One connect in progress, over the addresses it was given.
final class ConnectDriver<Scheduler: SocketScheduler> where Scheduler.Fired == Scheduler {
    /// Local addresses to bind each attempt's socket to, by family.
    typealias LocalBinding = (v4: SocketAddress?, v6: SocketAddress?)
    private typealias Race = ConnectRace<SocketAddress>

    private var race: Race
    private let local: LocalBinding?
    private let won: (Int32) -> Void
    private let failed: (any Error) -> Void
    private var attempts: [Race.Attempt: (fd: Int32, watch: Scheduler.Watch?)] = [:]
    private var stagger: Scheduler.Timer?
    /// Actions still to carry out (an attempt that fails while starting adds more behind the rest).
    private var work: [Race.Action] = []
    private var working = false

    /// `won` receives the connected descriptor; `failed` the last error (ECONNREFUSED when none was
    /// seen). Neither is called after ``cancel(on:)``.
    init(
        addresses: [SocketAddress], stagger: Double, binding local: LocalBinding? = nil,
        won: @escaping (Int32) -> Void, failed: @escaping (any Error) -> Void
    ) {
        self.race = Race(addresses: addresses, stagger: stagger)
        self.local = local
        self.won = won
        self.failed = failed
    }

    /// Starts the race.
    func start(on scheduler: Scheduler) {
        carryOut(race.start(), on: scheduler)
    }

    /// Starts the connect of `fd`, a socket the caller made for the driver's single address (a
    /// legacy connect by address shows it in `onSocketWillConnect` first). Throws the connect call's
    /// failure, leaving `fd` open for the caller.
    func adopt(_ fd: Int32, connectingTo address: SocketAddress, on scheduler: Scheduler) throws {
        if case .failed(let code) = SocketOps.connect(fd, to: address) {
            throw SystemError.posix(code, "connect")
        }
        let attempt = race.adopt()
        do {
            attempts[attempt] = (fd, try watch(fd, attempt, on: scheduler))
        } catch {
            // Nothing of the race is in place (no watch, no timer): it only has to end.
            _ = race.cancel()
            throw error
        }
    }

    /// Abandons every attempt; no outcome is reported.
    func cancel(on scheduler: Scheduler) {
        carryOut(race.cancel(), on: scheduler)
    }

    /// The descriptor of the first attempt in flight (the legacy `socketFD` while connecting).
    var connectingFD: Int32? {
        race.inFlight.first.flatMap { attempts[$0]?.fd }
    }

    /// The watches and the stagger timer in place (a run-loop socket changing modes updates them).
    var registrations: (watches: [Scheduler.Watch], stagger: Scheduler.Timer?) {
        (attempts.values.compactMap(\.watch), stagger)
    }

    /// Drops the watches and the stagger timer (the socket is leaving its run loop); the sockets and
    /// the race stay as they are.
    func suspend(on scheduler: Scheduler) {
        for (attempt, entry) in attempts {
            if let watch = entry.watch {
                scheduler.stopWatching(watch, fd: entry.fd, closing: false)
            }
            attempts[attempt]?.watch = nil
        }
        if let stagger {
            scheduler.cancelTimer(stagger)
        }
        stagger = nil
    }

    /// Watches again after ``suspend(on:)``; a stagger that was armed fires at once.
    func resume(on scheduler: Scheduler) {
        for (attempt, entry) in attempts where entry.watch == nil {
            do {
                attempts[attempt]?.watch = try watch(entry.fd, attempt, on: scheduler)
            } catch {
                drop(attempt, on: scheduler)
                carryOut(race.failed(attempt, error: error), on: scheduler)
            }
        }
        if race.hasStagger {
            carryOut(race.staggerFired(), on: scheduler)
        }
    }

    private func watch(_ fd: Int32, _ attempt: Race.Attempt, on scheduler: Scheduler) throws -> Scheduler.Watch {
        try scheduler.watch(fd, for: .connectCompletion) { [weak self] scheduler in
            self?.completed(attempt, on: scheduler)
        }
    }

    private func completed(_ attempt: Race.Attempt, on scheduler: Scheduler) {
        guard let entry = attempts[attempt] else { return }
        let code = SocketOps.pendingError(entry.fd)
        guard code != 0 else {
            carryOut(race.succeeded(attempt), on: scheduler)
            return
        }
        drop(attempt, on: scheduler)
        carryOut(race.failed(attempt, error: SystemError.posix(code, "connect")), on: scheduler)
    }

    private func carryOut(_ actions: [Race.Action], on scheduler: Scheduler) {
        work.append(contentsOf: actions)
        guard !working else { return }
        working = true
        defer { working = false }
        while !work.isEmpty {
            perform(work.removeFirst(), on: scheduler)
        }
    }

    private func perform(_ action: Race.Action, on scheduler: Scheduler) {
        switch action {
        case .start(let attempt, let address):
            switch open(address) {
            case .failure(let error):
                work.append(contentsOf: race.startFailed(attempt, error: error))
            case .success(let fd):
                do {
                    if case .failed(let code) = SocketOps.connect(fd, to: address) {
                        throw SystemError.posix(code, "connect")
                    }
                    attempts[attempt] = (fd, try watch(fd, attempt, on: scheduler))
                } catch {
                    close(fd)
                    work.append(contentsOf: race.startFailed(attempt, error: error))
                }
            }
        case .armStagger(let seconds):
            if let stagger {
                scheduler.cancelTimer(stagger)
            }
            stagger = scheduler.timer(after: seconds) { [weak self] scheduler in
                guard let self else { return }
                stagger = nil
                carryOut(race.staggerFired(), on: scheduler)
            }
        case .disarmStagger:
            if let stagger {
                scheduler.cancelTimer(stagger)
            }
            stagger = nil
        case .abandon(let attempt):
            drop(attempt, on: scheduler)
        case .won(let attempt):
            guard let entry = attempts.removeValue(forKey: attempt) else { return }
            if let watch = entry.watch {
                scheduler.stopWatching(watch, fd: entry.fd, closing: false)
            }
            won(entry.fd)
        case .failed(let error):
            failed(error ?? SystemError.posix(ECONNREFUSED, "connect"))
        }
    }

    /// Stops watching the attempt and closes its socket.
    private func drop(_ attempt: Race.Attempt, on scheduler: Scheduler) {
        guard let entry = attempts.removeValue(forKey: attempt) else { return }
        if let watch = entry.watch {
            scheduler.stopWatching(watch, fd: entry.fd, closing: true)
        } else {
            close(entry.fd)
        }
    }

    /// A non-blocking stream socket for `address`, bound to the local address of its family if one
    /// was given.
    private func open(_ address: SocketAddress) -> Result<Int32, NSError> {
        let socket: Int32
        switch SocketOps.makeStreamSocket(family: address.family) {
        case .failure(let error): return .failure(error)
        case .success(let made): socket = made
        }
        if let bind = address.isIPv4 ? local?.v4 : local?.v6, let code = SocketOps.bind(socket, to: bind) {
            close(socket)
            return .failure(SystemError.posix(code, "bind"))
        }
        return .success(socket)
    }
}
