import AsyncSocketKit
import EchoServers
import Foundation

/// The three echo servers, started in this process on a port of 127.0.0.1 the system picks.
enum EchoServerKind: String, CaseIterable {
    case native = "RunLoopSocket, native engine"
    case queueCore = "RunLoopSocket, queue core"
    case queue = "QueueSocket"

    /// Starts the server (raw echo, or line echo with `lines`) and returns its port. The servers run
    /// until the process ends, as the benchmark's own servers do.
    func start(lines: Bool) -> UInt16 {
        switch self {
        case .native: startRunLoop(lines: lines, engine: .native)
        case .queueCore: startRunLoop(lines: lines, engine: .queueCore)
        case .queue: startQueue(lines: lines)
        }
    }

    private func startRunLoop(lines: Bool, engine: RunLoopSocket.Engine) -> UInt16 {
        let started = PortHandOff()
        let thread = Thread {
            let delegate = RunLoopEchoDelegate(lines: lines)
            let listener = RunLoopSocket(delegate: delegate, engine: engine)
            do {
                try listener.acceptOnInterface("127.0.0.1", port: 0)
            } catch {
                fatalError("cannot listen: \(error)")
            }
            started.hand(listener.localPort)
            withExtendedLifetime((delegate, listener)) {
                EventRunLoop.current.run()
            }
        }
        thread.start()
        return started.take()
    }

    private func startQueue(lines: Bool) -> UInt16 {
        let delegate = QueueEchoListener(lines: lines)
        let listener = QueueSocket(delegate: delegate, delegateQueue: delegate.queue)
        do {
            try listener.accept(onInterface: "127.0.0.1", port: 0)
        } catch {
            fatalError("cannot listen: \(error)")
        }
        QueueServers.keep(listener, delegate)
        return listener.localPort
    }
}

/// The listening QueueSockets and their delegates, kept for the life of the process.
private enum QueueServers {
    private static let kept = NSLock()
    nonisolated(unsafe) private static var objects: [AnyObject] = []

    static func keep(_ listener: QueueSocket, _ delegate: QueueEchoListener) {
        kept.withLock { objects += [listener, delegate] }
    }
}

/// The port a server thread listens on (or is bound to), handed to the thread that started it.
final class PortHandOff: @unchecked Sendable {
    // @unchecked Sendable: `port` is written before `ready` is signalled and read after waiting on it.
    private let ready = DispatchSemaphore(value: 0)
    private var port: UInt16 = 0

    func hand(_ port: UInt16) {
        self.port = port
        ready.signal()
    }

    func take() -> UInt16 {
        ready.wait()
        return port
    }
}
