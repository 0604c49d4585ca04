import AsyncSocketCore
import Foundation

// Accepting on listening sockets, on either scheduler (passed to every call, see SocketScheduler):
// each listener is watched for waiting connections; a readiness event accepts up to 64 (one busy
// listener cannot starve the others or the loop); running out of descriptors pauses every listener
// for 0.1 s instead of spinning on a listener that stays readable (the original spun there), and so
// does any other failure of `accept` (a listening socket shut down for reading reports a hang-up for
// good while every `accept` fails with EINVAL). What
// happens to an accepted descriptor is the face's (the legacy accept sequence, GCD's delegate-queue
// sequence). A listener that closes stops listening first (`shutdown`): its port is then free for a
// new listener at once, even while another descriptor still refers to the socket (a child process
// this one is starting holds a copy until its exec), which a `close` alone would leave listening.

/// The listeners of one accepting socket.
final class ListenerDriver<Scheduler: SocketScheduler> where Scheduler.Fired == Scheduler {
    /// How long accepting pauses after running out of descriptors (or another failure).
    static var pauseAfterExhaustion: Double { 0.1 }

    let sockets: [Int32]
    private let accepted: (Int32, SocketAddress) -> Void
    private let failed: (Int32) -> Void
    private var watches: [Scheduler.Watch?]
    private var pauseTimer: Scheduler.Timer?
    private var isClosed = false

    /// `accepted` receives each new descriptor and its peer; `failed` an accept's errno (the
    /// listener pauses, then goes on).
    init(
        sockets: [Int32], accepted: @escaping (Int32, SocketAddress) -> Void, failed: @escaping (Int32) -> Void
    ) {
        self.sockets = sockets
        self.accepted = accepted
        self.failed = failed
        watches = Array(repeating: nil, count: sockets.count)
    }

    /// Starts watching every listener; throws when a watch cannot be set up.
    func start(on scheduler: Scheduler) throws {
        for index in sockets.indices where watches[index] == nil {
            let socket = sockets[index]
            watches[index] = try scheduler.watch(socket, for: .incomingConnections) { [weak self] scheduler in
                self?.acceptWaiting(on: socket, scheduler)
            }
        }
    }

    /// Stops watching and closes every listener.
    func close(on scheduler: Scheduler) {
        isClosed = true
        stopWatching(closing: true, on: scheduler)
    }

    /// Drops the watches (the socket is leaving its run loop; a pause ends); ``start(on:)`` watches
    /// again.
    func suspend(on scheduler: Scheduler) {
        stopWatching(closing: false, on: scheduler)
    }

    /// The watches and the pause timer in place (a run-loop socket changing modes updates them).
    var registrations: (watches: [Scheduler.Watch], pauseTimer: Scheduler.Timer?) {
        (watches.compactMap { $0 }, pauseTimer)
    }

    private func stopWatching(closing: Bool, on scheduler: Scheduler) {
        if let pauseTimer {
            scheduler.cancelTimer(pauseTimer)
        }
        pauseTimer = nil
        for (index, socket) in sockets.enumerated() {
            if closing {
                shutdown(socket, Int32(SHUT_RDWR))
            }
            if let watch = watches[index] {
                scheduler.stopWatching(watch, fd: socket, closing: closing)
            } else if closing {
                Glibc.close(socket)
            }
            watches[index] = nil
        }
    }

    private func acceptWaiting(on socket: Int32, _ scheduler: Scheduler) {
        for _ in 0..<64 {
            guard !isClosed else { return }
            switch SocketOps.accept(socket) {
            case .socket(let child, let address):
                accepted(child, address)
            case .wouldBlock:
                return
            case .outOfResources(let code):
                failed(code)
                pause(scheduler)
                return
            case .failed(let code):
                failed(code)
                pause(scheduler)
                return
            }
        }
    }

    private func pause(_ scheduler: Scheduler) {
        guard pauseTimer == nil else { return }
        for watch in watches.compactMap({ $0 }) {
            scheduler.pause(watch)
        }
        pauseTimer = scheduler.timer(after: Self.pauseAfterExhaustion) { [weak self] scheduler in
            guard let self else { return }
            pauseTimer = nil
            for watch in watches.compactMap({ $0 }) {
                scheduler.resume(watch)
            }
        }
    }
}
