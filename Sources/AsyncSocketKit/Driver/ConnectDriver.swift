import AsyncSocketCore
import Foundation

// Carries out a ConnectRace against real descriptors, on either scheduler: opens (and binds) each
// attempt's socket, starts its non-blocking connect, watches it, runs the stagger timer. Both faces
// and both engines connect through it; what they do around it (checks, resolving, the connect
// timeout, the errors they report) stays theirs.

/// One connect in progress, over the addresses it was given.
final class ConnectDriver<Scheduler: ConnectScheduler> {
    /// Local addresses to bind each attempt's socket to, by family.
    typealias LocalBinding = (v4: SocketAddress?, v6: SocketAddress?)

    private unowned let scheduler: Scheduler
    private var race: ConnectRace<SocketAddress>
    private let local: LocalBinding?
    private let won: (Int32) -> Void
    private let failed: (any Error) -> Void
    private var attempts: [ConnectRace<SocketAddress>.Attempt: (fd: Int32, watch: Scheduler.ConnectWatch?)] = [:]
    private var stagger: Scheduler.ConnectTimer?
    /// Actions still to carry out (an attempt that fails while starting adds more behind the rest).
    private var work: [ConnectRace<SocketAddress>.Action] = []
    private var working = false

    /// `won` receives the connected descriptor; `failed` the last error (ECONNREFUSED when none was
    /// seen). Neither is called after ``cancel()``.
    init(
        on scheduler: Scheduler, addresses: [SocketAddress], stagger: Double, binding local: LocalBinding? = nil,
        won: @escaping (Int32) -> Void, failed: @escaping (any Error) -> Void
    ) {
        self.scheduler = scheduler
        self.race = ConnectRace(addresses: addresses, stagger: stagger)
        self.local = local
        self.won = won
        self.failed = failed
    }

    /// Starts the race.
    func start() {
        carryOut(race.start())
    }

    /// Starts the connect of `fd`, a socket the caller made for the driver's single address (a
    /// legacy connect by address shows it in `onSocketWillConnect` first). Throws the connect call's
    /// failure, leaving `fd` open for the caller.
    func adopt(_ fd: Int32, connectingTo address: SocketAddress) throws {
        if case .failed(let code) = SocketOps.connect(fd, to: address) {
            throw SystemError.posix(code, "connect")
        }
        let attempt = race.adopt()
        attempts[attempt] = (fd, try watch(fd, attempt))
    }

    /// Abandons every attempt; no outcome is reported.
    func cancel() {
        carryOut(race.cancel())
    }

    /// The descriptor of the first attempt in flight (the legacy `socketFD` while connecting).
    var connectingFD: Int32? {
        race.inFlight.first.flatMap { attempts[$0]?.fd }
    }

    /// The watches and the stagger timer in place (a run-loop socket changing modes updates them).
    var registrations: (watches: [Scheduler.ConnectWatch], stagger: Scheduler.ConnectTimer?) {
        (attempts.values.compactMap(\.watch), stagger)
    }

    /// Drops the watches and the stagger timer (the socket is leaving its run loop); the sockets and
    /// the race stay as they are.
    func suspend() {
        for (attempt, entry) in attempts {
            if let watch = entry.watch {
                scheduler.stopWatching(watch, fd: entry.fd, closing: false)
            }
            attempts[attempt]?.watch = nil
        }
        if let stagger {
            scheduler.cancelConnectTimer(stagger)
        }
        stagger = nil
    }

    /// Watches again after ``suspend()``; a stagger that was armed fires at once.
    func resume() {
        for (attempt, entry) in attempts where entry.watch == nil {
            do {
                attempts[attempt]?.watch = try watch(entry.fd, attempt)
            } catch {
                drop(attempt)
                carryOut(race.failed(attempt, error: error))
            }
        }
        if race.hasStagger {
            carryOut(race.staggerFired())
        }
    }

    private func watch(_ fd: Int32, _ attempt: ConnectRace<SocketAddress>.Attempt) throws -> Scheduler.ConnectWatch {
        try scheduler.watchConnecting(fd) { [weak self] in self?.completed(attempt) }
    }

    private func completed(_ attempt: ConnectRace<SocketAddress>.Attempt) {
        guard let entry = attempts[attempt] else { return }
        let code = SocketOps.pendingError(entry.fd)
        guard code != 0 else {
            carryOut(race.succeeded(attempt))
            return
        }
        drop(attempt)
        carryOut(race.failed(attempt, error: SystemError.posix(code, "connect")))
    }

    private func carryOut(_ actions: [ConnectRace<SocketAddress>.Action]) {
        work.append(contentsOf: actions)
        guard !working else { return }
        working = true
        defer { working = false }
        while !work.isEmpty {
            perform(work.removeFirst())
        }
    }

    private func perform(_ action: ConnectRace<SocketAddress>.Action) {
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
                    attempts[attempt] = (fd, try watch(fd, attempt))
                } catch {
                    close(fd)
                    work.append(contentsOf: race.startFailed(attempt, error: error))
                }
            }
        case .armStagger(let seconds):
            if let stagger {
                scheduler.cancelConnectTimer(stagger)
            }
            stagger = scheduler.connectTimer(after: seconds) { [weak self] in
                guard let self else { return }
                stagger = nil
                carryOut(race.staggerFired())
            }
        case .disarmStagger:
            if let stagger {
                scheduler.cancelConnectTimer(stagger)
            }
            stagger = nil
        case .abandon(let attempt):
            drop(attempt)
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
    private func drop(_ attempt: ConnectRace<SocketAddress>.Attempt) {
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
