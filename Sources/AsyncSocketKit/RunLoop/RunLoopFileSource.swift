/// A file descriptor watched by an ``EventRunLoop`` for readability and writability.
///
/// Made by ``EventRunLoop/addFileSource(_:modes:_:)``. The descriptor is level-triggered: while
/// ``wantsReadable`` is set and unread bytes wait, the handler is called on every pass of the loop in
/// one of the source's modes. The source never closes the descriptor. It must be used on its loop's
/// thread.
public final class RunLoopFileSource {
    /// What the handler is told.
    public enum Event: Sendable {
        /// The descriptor can be read (or has reached end of file or an error).
        case readable
        /// The descriptor can be written.
        case writable
        /// The peer closed its side (a socket's EPOLLRDHUP), even with unread bytes still waiting.
        case peerClosed
    }

    /// The watched descriptor.
    public let fileDescriptor: Int32
    /// The loop the source belongs to.
    public let loop: EventRunLoop
    /// Dropped by ``cancel()``, so a handler that holds its owner strongly never outlives the source's
    /// registration (the owner's cycle through it ends there).
    private(set) var handler: ((Event) -> Void)?
    /// The modes the source was registered in, as given (``RunLoopMode/common`` unexpanded).
    public private(set) var modes: [RunLoopMode]
    private var registrations: [Registrations] = []

    /// One mode's libevent events. The read event always exists (it names the mode); the write and
    /// peer-close events are made the first time they are wanted, so an idle connection that only
    /// waits to read costs one event.
    private final class Registrations {
        let read: EventRegistration
        var write: EventRegistration?
        var close: EventRegistration?

        init(read: EventRegistration) {
            self.read = read
        }

        var context: ModeContext { read.context }

        func retireAll() {
            read.retire()
            write?.retire()
            close?.retire()
        }
    }
    /// Whether ``cancel()`` was called (or the loop's thread ended).
    public private(set) var isCancelled = false

    init(fileDescriptor: Int32, loop: EventRunLoop, modes: [RunLoopMode], handler: @escaping (Event) -> Void) {
        self.fileDescriptor = fileDescriptor
        self.loop = loop
        self.modes = modes
        self.handler = handler
    }

    /// Whether the handler wants ``Event/readable``; off by default.
    public var wantsReadable = false {
        didSet {
            guard wantsReadable != oldValue else { return }
            loop.checkThread("RunLoopFileSource.wantsReadable")
            for set in registrations {
                apply(wantsReadable, to: set.read)
            }
        }
    }

    /// Whether the handler wants ``Event/peerClosed`` (for sockets); off by default.
    public var wantsPeerClose = false {
        didSet {
            guard wantsPeerClose != oldValue else { return }
            loop.checkThread("RunLoopFileSource.wantsPeerClose")
            for set in registrations {
                apply(wantsPeerClose, to: registration(.peerClosed, in: set))
            }
        }
    }

    /// Whether the handler wants ``Event/writable``; off by default.
    public var wantsWritable = false {
        didSet {
            guard wantsWritable != oldValue else { return }
            loop.checkThread("RunLoopFileSource.wantsWritable")
            for set in registrations {
                apply(wantsWritable, to: registration(.writable, in: set))
            }
        }
    }

    private func apply(_ wanted: Bool, to registration: EventRegistration?) {
        guard let registration else { return }
        if wanted {
            if !registration.isAdded {
                registration.add()
            }
        } else {
            registration.remove()
        }
    }

    /// The write or peer-close event of `set`, made on first use (only when it is wanted).
    private func registration(_ kind: EventRegistration.Kind, in set: Registrations) -> EventRegistration? {
        let wanted = kind == .writable ? wantsWritable : wantsPeerClose
        if let existing = kind == .writable ? set.write : set.close {
            return existing
        }
        guard wanted else { return nil }
        let made = EventRegistration(kind: kind, context: set.context, fileDescriptor: fileDescriptor)
        made.fileSource = self
        if kind == .writable {
            set.write = made
        } else {
            set.close = made
        }
        return made
    }

    /// Replaces the source's modes. An empty list leaves the source registered but serviced nowhere.
    public func setModes(_ modes: [RunLoopMode]) {
        loop.checkThread("RunLoopFileSource.setModes(_:)")
        guard !isCancelled else { return }
        self.modes = modes
        updateRegistrations()
    }

    /// Adds one mode.
    public func addMode(_ mode: RunLoopMode) {
        guard !modes.contains(mode) else { return }
        setModes(modes + [mode])
    }

    /// Removes one mode; the source stops being serviced there.
    public func removeMode(_ mode: RunLoopMode) {
        setModes(modes.filter { $0 != mode })
    }

    /// Stops watching the descriptor for good. Events already collected in this pass are dropped.
    public func cancel() {
        loop.checkThread("RunLoopFileSource.cancel()")
        tearDown()
    }

    /// Makes the registrations match the effective modes (after a mode change or a new common mode).
    func updateRegistrations() {
        let wanted = loop.effectiveModes(modes)
        var kept: [Registrations] = []
        for set in registrations {
            if wanted.contains(set.context.mode) {
                kept.append(set)
            } else {
                set.context.registeredCount -= 1
                set.retireAll()
            }
        }
        for mode in wanted where !kept.contains(where: { $0.context.mode == mode }) {
            let context = loop.context(for: mode)
            context.registeredCount += 1
            let read = EventRegistration(kind: .readable, context: context, fileDescriptor: fileDescriptor)
            read.fileSource = self
            let set = Registrations(read: read)
            apply(wantsReadable, to: read)
            apply(wantsWritable, to: registration(.writable, in: set))
            apply(wantsPeerClose, to: registration(.peerClosed, in: set))
            kept.append(set)
        }
        registrations = kept
    }

    /// Retires every registration without the thread check (also used when the loop is torn down).
    func tearDown() {
        guard !isCancelled else { return }
        isCancelled = true
        handler = nil
        for set in registrations {
            set.context.registeredCount -= 1
            set.retireAll()
        }
        registrations.removeAll()
        loop.fileSources[ObjectIdentifier(self)] = nil
    }
}

extension EventRunLoop {
    /// Watches `fileDescriptor` in `modes`. The handler runs on this loop's thread whenever the loop,
    /// running in one of the modes, finds the descriptor readable (while
    /// ``RunLoopFileSource/wantsReadable`` is set) or writable (while ``RunLoopFileSource/wantsWritable``
    /// is set). Both start off.
    public func addFileSource(
        _ fileDescriptor: Int32, modes: [RunLoopMode] = [.default],
        _ handler: @escaping (RunLoopFileSource.Event) -> Void
    ) -> RunLoopFileSource {
        checkThread("addFileSource(_:modes:_:)")
        let source = RunLoopFileSource(fileDescriptor: fileDescriptor, loop: self, modes: modes, handler: handler)
        fileSources[ObjectIdentifier(source)] = source
        source.updateRegistrations()
        return source
    }
}
