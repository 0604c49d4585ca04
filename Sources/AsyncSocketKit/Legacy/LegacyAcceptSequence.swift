// The original's accept sequence, for both engines: didAcceptNewSocket, then (unless the delegate
// disconnected the child there) wantsRunLoopForNewSocket and onSocketWillConnect on the listener's
// thread, then didConnectToHost on the child's own loop. A child refused by onSocketWillConnect, or
// that nobody kept, is closed while it can still be named in its callbacks (the original destroyed it
// and reported the disconnect). Each engine supplies how its child backend does each step.

/// What the accept sequence needs of a new child's backend.
protocol LegacyAcceptedChild: AnyObject {
    /// The child was disconnected inside didAcceptNewSocket (its connection is gone).
    var closedDuringAccept: Bool { get }
    /// The child counts as started from here on (its calls are accepted).
    func beginAccept()
    /// Closes the refused or abandoned child, keeping it alive until its disconnect is reported.
    func refuseAccept(keeping child: RunLoopSocket)
    /// Registers the child on `loop` and reports didConnectToHost there.
    func finishAccept(on loop: EventRunLoop, keeping child: RunLoopSocket)
}

enum LegacyAcceptSequence {
    /// Runs the sequence for `child`, the caller's only reference to it: no other reference is held
    /// here either (each step names it through `child!`), so a child nobody kept is seen.
    static func run(
        listener: RunLoopSocket, delegate: any RunLoopSocketDelegate, child: inout RunLoopSocket?,
        backend: some LegacyAcceptedChild, listenerLoop: EventRunLoop
    ) {
        guard child != nil else { return }
        delegate.onSocket(listener, didAcceptNewSocket: child!)
        guard !backend.closedDuringAccept else {
            // Disconnected inside didAcceptNewSocket: the sequence ends there, and the child, already
            // handed to the delegate, reports its close as the original's failed accept path did.
            delegate.onSocketDidDisconnect(child!)
            return
        }
        backend.beginAccept()
        let childLoop = delegate.onSocket(listener, wantsRunLoopForNewSocket: child!) ?? listenerLoop
        let accepted = delegate.onSocketWillConnect(child!)
        guard accepted, !isKnownUniquelyReferenced(&child) else {
            backend.refuseAccept(keeping: child!)
            return
        }
        if let tracker = listener.tracker {
            track(child!, in: tracker, on: childLoop)
        }
        backend.finishAccept(on: childLoop, keeping: child!)
    }

    /// The child joins its listener's tracker before it can close (its close leaves it: see
    /// `reportDisconnected`); the tracker's actions reach it on its loop.
    private static func track(_ child: RunLoopSocket, in tracker: ConnectionTracker, on loop: EventRunLoop) {
        child.tracker = tracker
        let reference = WeakSocketReference(child)
        tracker.add(
            child, drain: { onItsLoop(reference, from: loop) { $0.disconnectAfterWriting() } },
            close: { onItsLoop(reference, from: loop) { $0.disconnect() } })
    }

    /// Runs `body` with the socket on its loop's thread: performed on `loop`, where it last was, and
    /// from there after it to the loop it moved to (`moveToRunLoop(_:)`, made on the thread it moved
    /// from, so its loop is read there). Nothing for a socket gone or closed.
    private static func onItsLoop(
        _ reference: WeakSocketReference<RunLoopSocket>, from loop: EventRunLoop,
        _ body: @escaping @Sendable (RunLoopSocket) -> Void
    ) {
        loop.perform {
            guard let socket = reference.socket, let current = socket.runLoop else { return }
            guard current === loop else { return onItsLoop(reference, from: current, body) }
            body(socket)
        }
    }
}
