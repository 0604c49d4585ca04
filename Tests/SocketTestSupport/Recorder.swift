import AsyncSocketKit
import Foundation

/// A `RunLoopSocketDelegate` that records every callback, in order, with the socket's label, and
/// lets a test script the answers. Used on one loop thread, or on several for accepted sockets moved
/// to worker loops (the trace is a ``RecorderLog``, safe from any thread). Every callback also goes past ``auditor``, which
/// reports a broken socket invariant (a callback after the final disconnect, a second final
/// disconnect, a descriptor left open) as a test issue.
package final class Recorder: RunLoopSocketDelegate, @unchecked Sendable {
    package enum Event: Equatable, CustomStringConvertible {
        case willDisconnect(domain: String?, code: Int?)
        case didDisconnect
        case didAccept(String)
        case wantsRunLoop(String)
        case willConnect
        case connected(host: String, port: UInt16)
        case read(Data, tag: Int)
        case partialRead(Int, tag: Int)
        case wrote(tag: Int)
        case partialWrite(Int, tag: Int)
        case readTimeout(tag: Int, elapsed: TimeInterval, bytesDone: Int)
        case writeTimeout(tag: Int, elapsed: TimeInterval, bytesDone: Int)
        case secured

        package var description: String {
            switch self {
            case .willDisconnect(let domain, let code):
                return "willDisconnect(\(domain ?? "nil") \(code.map(String.init) ?? ""))"
            case .didDisconnect: return "didDisconnect"
            case .didAccept(let child): return "didAccept(\(child))"
            case .wantsRunLoop(let child): return "wantsRunLoop(\(child))"
            case .willConnect: return "willConnect"
            case .connected(let host, let port): return "connected(\(host):\(port))"
            case .read(let data, let tag):
                return "read(\(String(decoding: data, as: UTF8.self).debugDescription), \(tag))"
            case .partialRead(let n, let tag): return "partialRead(\(n), \(tag))"
            case .wrote(let tag): return "wrote(\(tag))"
            case .partialWrite(let n, let tag): return "partialWrite(\(n), \(tag))"
            case .readTimeout(let tag, let elapsed, let done): return "readTimeout(\(tag), \(elapsed), \(done))"
            case .writeTimeout(let tag, let elapsed, let done): return "writeTimeout(\(tag), \(elapsed), \(done))"
            case .secured: return "secured"
            }
        }
    }

    package typealias Entry = RecorderLog<RunLoopSocket, Event>.Entry

    /// Checks the socket invariants over every callback recorded here.
    package let auditor = SocketAuditor()
    private let log = RecorderLog<RunLoopSocket, Event>()
    /// The accepted sockets kept alive (unless `keepsAccepted` is false).
    package var accepted: [RunLoopSocket] { log.accepted }
    package var keepsAccepted = true
    package var willConnectAnswer = true
    package var childWillConnectAnswer = true
    package var runLoopForNewSocket: EventRunLoop?
    package var readTimeoutAnswers: [TimeInterval] = []
    package var writeTimeoutAnswers: [TimeInterval] = []
    /// `unreadData()` as seen inside each willDisconnect, by socket label.
    package private(set) var unread: [String: Data] = [:]
    package var onConnect: ((RunLoopSocket) -> Void)?
    package var onRead: ((RunLoopSocket, Data, Int) -> Void)?
    package var onWrite: ((RunLoopSocket, Int) -> Void)?
    package var onDisconnect: ((RunLoopSocket) -> Void)?
    package var onWillDisconnect: ((RunLoopSocket) -> Void)?
    package var onWillConnect: ((RunLoopSocket) -> Void)?
    package var onAccept: ((RunLoopSocket, RunLoopSocket) -> Void)?

    package init() {}

    package func name(_ socket: RunLoopSocket, _ label: String) {
        log.name(socket, label)
    }

    package func label(_ socket: RunLoopSocket) -> String {
        log.label(socket)
    }

    private func record(_ socket: RunLoopSocket, _ event: Event) {
        auditor.observe(socket, label: label(socket), event.auditObservation)
        log.append(socket, event)
    }

    /// The trace so far.
    package var trace: [Entry] {
        auditor.reportIfInTest()
        return log.all
    }

    /// The events of one socket.
    package func events(_ label: String) -> [Event] {
        trace.filter { $0.socket == label }.map(\.event)
    }

    package func contains(_ label: String, _ event: Event) -> Bool {
        events(label).contains(event)
    }

    package func onSocket(_ sock: RunLoopSocket, willDisconnectWithError error: (any Error)?) {
        let ns = error.map { $0 as NSError }
        record(sock, .willDisconnect(domain: ns?.domain, code: ns?.code))
        let data = sock.unreadData()
        let name = label(sock)
        if let data { auditor.delivered(data, to: sock, label: name) }
        log.withLock { unread[name] = data }
        onWillDisconnect?(sock)
    }

    package func onSocketDidDisconnect(_ sock: RunLoopSocket) {
        record(sock, .didDisconnect)
        onDisconnect?(sock)
    }

    package func onSocket(_ sock: RunLoopSocket, didAcceptNewSocket newSocket: RunLoopSocket) {
        let child = log.accepted(newSocket, by: sock, keep: keepsAccepted) { .didAccept($0) }
        for fd in [sock.socket4FD, sock.socket6FD] {
            auditor.track(fd, of: sock, label: label(sock))
        }
        auditor.track(newSocket.socketFD, of: newSocket, label: child)
        auditor.observe(sock, label: label(sock), Event.didAccept(child).auditObservation)
        onAccept?(sock, newSocket)
    }

    package func onSocket(_ sock: RunLoopSocket, wantsRunLoopForNewSocket newSocket: RunLoopSocket) -> EventRunLoop? {
        record(sock, .wantsRunLoop(label(newSocket)))
        return runLoopForNewSocket
    }

    package func onSocketWillConnect(_ sock: RunLoopSocket) -> Bool {
        record(sock, .willConnect)
        auditor.track(sock.socketFD, of: sock, label: label(sock))
        onWillConnect?(sock)
        return label(sock).hasPrefix("child") ? childWillConnectAnswer : willConnectAnswer
    }

    package func onSocket(_ sock: RunLoopSocket, didConnectToHost host: String, port: UInt16) {
        record(sock, .connected(host: host, port: port))
        auditor.track(sock.socketFD, of: sock, label: label(sock))
        onConnect?(sock)
    }

    package func onSocket(_ sock: RunLoopSocket, didRead data: Data, withTag tag: Int) {
        record(sock, .read(Data(data), tag: tag))
        auditor.delivered(data, to: sock, label: label(sock))
        onRead?(sock, data, tag)
    }

    package func onSocket(_ sock: RunLoopSocket, didReadPartialDataOfLength partialLength: Int, tag: Int) {
        record(sock, .partialRead(partialLength, tag: tag))
    }

    package func onSocket(_ sock: RunLoopSocket, didWriteDataWithTag tag: Int) {
        record(sock, .wrote(tag: tag))
        onWrite?(sock, tag)
    }

    package func onSocket(_ sock: RunLoopSocket, didWritePartialDataOfLength partialLength: Int, tag: Int) {
        record(sock, .partialWrite(partialLength, tag: tag))
    }

    package func onSocket(
        _ sock: RunLoopSocket, shouldTimeoutReadWithTag tag: Int, elapsed: TimeInterval, bytesDone length: Int
    ) -> TimeInterval {
        record(sock, .readTimeout(tag: tag, elapsed: elapsed, bytesDone: length))
        return log.withLock { readTimeoutAnswers.isEmpty ? 0 : readTimeoutAnswers.removeFirst() }
    }

    package func onSocket(
        _ sock: RunLoopSocket, shouldTimeoutWriteWithTag tag: Int, elapsed: TimeInterval, bytesDone length: Int
    ) -> TimeInterval {
        record(sock, .writeTimeout(tag: tag, elapsed: elapsed, bytesDone: length))
        return log.withLock { writeTimeoutAnswers.isEmpty ? 0 : writeTimeoutAnswers.removeFirst() }
    }

    package func onSocketDidSecure(_ sock: RunLoopSocket) {
        record(sock, .secured)
    }
}

extension Recorder.Event {
    /// What the callback means for the socket invariants.
    package var auditObservation: SocketAuditor.Observation {
        switch self {
        case .willConnect: return .opening
        case .willDisconnect: return .errorClose
        case .didDisconnect: return .finalDisconnect
        default: return .callback(description)
        }
    }
}
