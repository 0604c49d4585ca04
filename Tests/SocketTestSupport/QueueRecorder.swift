import AsyncSocketKit
import Foundation

/// A `QueueSocketDelegate` that records every callback with the socket's label, in the order they
/// arrive on its delegate queue, and lets a test wait for a condition with a deadline. Every callback
/// also goes past ``auditor``, which reports a broken socket invariant (a callback after the final
/// disconnect, a second final disconnect, a descriptor left open) as a test issue.
package final class QueueRecorder: QueueSocketDelegate, @unchecked Sendable {
    package enum Event: Equatable, CustomStringConvertible {
        case accepted(String)
        case connected(host: String, port: UInt16)
        case connectedURL(String)
        case read(Data, tag: Int)
        case partialRead(Int, tag: Int)
        case wrote(tag: Int)
        case partialWrite(Int, tag: Int)
        case readTimeout(tag: Int, elapsed: TimeInterval, bytesDone: Int)
        case writeTimeout(tag: Int, elapsed: TimeInterval, bytesDone: Int)
        case readStreamClosed
        case disconnected(domain: String?, code: Int?)
        case secured

        package var description: String {
            switch self {
            case .accepted(let child): return "accepted(\(child))"
            case .connected(let host, let port): return "connected(\(host):\(port))"
            case .connectedURL(let path): return "connected(\(path))"
            case .read(let data, let tag): return "read(\(data.count) bytes, \(tag))"
            case .partialRead(let n, let tag): return "partialRead(\(n), \(tag))"
            case .wrote(let tag): return "wrote(\(tag))"
            case .partialWrite(let n, let tag): return "partialWrite(\(n), \(tag))"
            case .readTimeout(let tag, let elapsed, let done): return "readTimeout(\(tag), \(elapsed), \(done))"
            case .writeTimeout(let tag, let elapsed, let done): return "writeTimeout(\(tag), \(elapsed), \(done))"
            case .readStreamClosed: return "readStreamClosed"
            case .disconnected(let domain, let code):
                return "disconnected(\(domain ?? "nil") \(code.map(String.init) ?? ""))"
            case .secured: return "secured"
            }
        }
    }

    package let queue = DispatchQueue(label: "recorder-delegate")
    /// Checks the socket invariants over every callback recorded here.
    package let auditor = SocketAuditor()
    private let log = RecorderLog<QueueSocket, Event>()
    /// The accepted sockets kept alive (unless `keepsAccepted` is false).
    package var accepted: [QueueSocket] { log.accepted }
    package var keepsAccepted = true
    package var readTimeoutAnswers: [TimeInterval] = []
    package var onRead: ((QueueSocket, Data, Int) -> Void)?
    package var onDisconnect: ((QueueSocket) -> Void)?
    package var onAccept: ((QueueSocket) -> Void)?
    /// The answer to manual-trust questions (given from another thread, as an application might).
    package var trustAnswer = false
    private var receivedChains: [CertificateChain] = []
    /// The certificate chains manual trust asked about.
    package var trustChains: [CertificateChain] { log.withLock { receivedChains } }

    package init() {}

    package func name(_ socket: QueueSocket, _ label: String) {
        log.name(socket, label)
    }

    package func label(_ socket: QueueSocket) -> String {
        log.label(socket)
    }

    private func record(_ socket: QueueSocket, _ event: Event) {
        auditor.observe(socket, label: label(socket), event.auditObservation)
        log.append(socket, event)
    }

    package func events(_ label: String) -> [Event] {
        auditor.reportIfInTest()
        return log.events(label)
    }

    /// Waits until `predicate` holds (checked after every callback, and at least every 50 ms) or
    /// `timeout` passes.
    @discardableResult
    package func wait(timeout: TimeInterval = 10, until predicate: () -> Bool) -> Bool {
        defer { auditor.reportIfInTest() }
        return log.wait(timeout: timeout, until: predicate)
    }

    package func newSocketQueueForConnection(fromAddress address: Data, on sock: QueueSocket) -> DispatchQueue? {
        nil
    }

    package func socket(_ sock: QueueSocket, didAcceptNewSocket newSocket: QueueSocket) {
        let descriptors = sock.descriptorsForAudit
        let childDescriptors = newSocket.descriptorsForAudit
        let child = log.accepted(newSocket, by: sock, keep: keepsAccepted) { .accepted($0) }
        auditor.observe(sock, label: label(sock), .callback("accepted(\(child))"))
        auditor.track(descriptors, of: sock, label: label(sock))
        auditor.track(childDescriptors, of: newSocket, label: child)
        onAccept?(newSocket)
    }

    package func socket(_ sock: QueueSocket, didConnectToHost host: String, port: UInt16) {
        record(sock, .connected(host: host, port: port))
        auditor.track(sock.descriptorsForAudit, of: sock, label: label(sock))
    }

    package func socket(_ sock: QueueSocket, didConnectTo url: URL) {
        record(sock, .connectedURL(url.path))
        auditor.track(sock.descriptorsForAudit, of: sock, label: label(sock))
    }

    package func socket(_ sock: QueueSocket, didRead data: Data, withTag tag: Int) {
        record(sock, .read(data, tag: tag))
        auditor.delivered(data, to: sock, label: label(sock))
        onRead?(sock, data, tag)
    }

    package func socket(_ sock: QueueSocket, didReadPartialDataOfLength partialLength: Int, tag: Int) {
        record(sock, .partialRead(partialLength, tag: tag))
    }

    package func socket(_ sock: QueueSocket, didWriteDataWithTag tag: Int) {
        record(sock, .wrote(tag: tag))
    }

    package func socket(_ sock: QueueSocket, didWritePartialDataOfLength partialLength: Int, tag: Int) {
        record(sock, .partialWrite(partialLength, tag: tag))
    }

    package func socket(
        _ sock: QueueSocket, shouldTimeoutReadWithTag tag: Int, elapsed: TimeInterval, bytesDone length: Int
    )
        -> TimeInterval
    {
        record(sock, .readTimeout(tag: tag, elapsed: elapsed, bytesDone: length))
        return log.withLock { readTimeoutAnswers.isEmpty ? 0 : readTimeoutAnswers.removeFirst() }
    }

    package func socket(
        _ sock: QueueSocket, shouldTimeoutWriteWithTag tag: Int, elapsed: TimeInterval, bytesDone length: Int
    )
        -> TimeInterval
    {
        record(sock, .writeTimeout(tag: tag, elapsed: elapsed, bytesDone: length))
        return 0
    }

    package func socketDidCloseReadStream(_ sock: QueueSocket) {
        record(sock, .readStreamClosed)
    }

    package func socketDidDisconnect(_ sock: QueueSocket, withError error: (any Error)?) {
        let ns = error.map { $0 as NSError }
        onDisconnect?(sock)
        record(sock, .disconnected(domain: ns?.domain, code: ns?.code))
    }

    package func socketDidSecure(_ sock: QueueSocket) {
        record(sock, .secured)
    }

    package func socket(
        _ sock: QueueSocket, didReceiveTrust trust: CertificateChain,
        completionHandler: @escaping @Sendable (Bool) -> Void
    ) {
        let answer = log.withLock { () -> Bool in
            receivedChains.append(trust)
            return trustAnswer
        }
        DispatchQueue.global().async { completionHandler(answer) }
    }
}

extension QueueRecorder.Event {
    /// What the callback means for the socket invariants.
    package var auditObservation: SocketAuditor.Observation {
        if case .disconnected = self { return .finalDisconnect }
        return .callback(description)
    }
}

extension QueueSocket {
    /// The socket's descriptors (connected, IPv4 and IPv6 listeners) and what each names, read on the
    /// socket queue so that none can close in between, for the auditor.
    package var descriptorsForAudit: [Int32: String] {
        var identities: [Int32: String] = [:]
        perform {
            for fd in [socketFD, socket4FD, socket6FD] where fd >= 0 {
                identities[fd] = descriptorIdentity(fd)
            }
        }
        return identities
    }
}
