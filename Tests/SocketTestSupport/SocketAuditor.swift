import Foundation
import Testing

// The three invariants of step 8, checked for every socket a recorder hears about:
//
// 1. A started socket reports exactly one final disconnect (onSocketDidDisconnect /
//    socketDidDisconnect(withError:)), and no callback arrives for it after that. A socket may be
//    used again after it closed; a new life begins with the callback that only a new connect can
//    cause (onSocketWillConnect) or with an explicit `restarted(_:)` from the test.
// 2. Every byte the peer sent is delivered once, in order, to a read or to unreadData, or was
//    dropped by an explicit user action (`checkBytes`, called by the tests that know what was sent).
// 3. No descriptor outlives its socket: each descriptor seen while the socket lived must no longer
//    name the same kernel socket when the final disconnect arrives. Descriptor numbers are reused at
//    once by parallel tests, so the check compares the socket's identity (the `socket:[inode]` link
//    in /proc/self/fd), never the number alone.
//
// Violations are reported with `Issue.record` as soon as they are seen from a test's task (a
// RunLoopSocket callback runs inside the test's loop run); ones seen on a dispatch queue wait until
// the test next asks the recorder something, or until the recorder goes away.

/// Checks the socket invariants over the callbacks a recorder observes (see the file header).
package final class SocketAuditor: @unchecked Sendable {
    /// What a callback means for the invariants.
    package enum Observation {
        /// A new connect began (a new life of the socket).
        case opening
        /// An ordinary callback, by name.
        case callback(String)
        /// The error half of a two-phase close (`willDisconnectWithError`).
        case errorClose
        /// The final disconnect.
        case finalDisconnect
    }

    private final class Life {
        weak var socket: AnyObject?
        var label: String
        var finished = false
        var errorClosed = false
        var delivered: [UInt8] = []
        var descriptors: [Int32: String] = [:]

        init(socket: AnyObject, label: String) {
            self.socket = socket
            self.label = label
        }
    }

    private let reportsIssues: Bool
    private let lock = NSLock()
    private var lives: [ObjectIdentifier: Life] = [:]
    private var retired: [Life] = []
    private var unreported: [String] = []
    private var allViolations: [String] = []

    /// An auditor that reports violations as test issues (or, with `reportsIssues` false, only
    /// collects them in ``violations``).
    package init(reportsIssues: Bool = true) {
        self.reportsIssues = reportsIssues
    }

    deinit {
        guard reportsIssues else { return }
        let left = unreported
        for message in left {
            FileHandle.standardError.write(Data("socket auditor: \(message)\n".utf8))
            Issue.record(Comment(rawValue: message))
        }
    }

    /// Every violation seen so far (reported or not).
    package var violations: [String] { lock.withLock { allViolations } }

    /// The descriptors watched for `label` now (until its final disconnect).
    package func trackedDescriptors(_ label: String) -> [Int32] {
        lock.withLock { lives.values.filter { $0.label == label }.flatMap(\.descriptors.keys).sorted() }
    }

    /// Notes a callback for `socket` (called by the recorders, before they record it).
    package func observe(_ socket: AnyObject, label: String, _ observation: Observation) {
        lock.withLock {
            let life = currentLife(socket, label: label)
            switch observation {
            case .opening:
                life.finished = false
                life.errorClosed = false
            case .callback(let name):
                if life.finished {
                    violate("\(label): \(name) after the final disconnect")
                }
            case .errorClose:
                if life.finished {
                    violate("\(label): willDisconnect after the final disconnect")
                } else if life.errorClosed {
                    violate("\(label): a second willDisconnect")
                }
                life.errorClosed = true
            case .finalDisconnect:
                if life.finished {
                    violate("\(label): a second final disconnect")
                }
                life.finished = true
                life.errorClosed = false
                for (fd, identity) in life.descriptors.sorted(by: { $0.key < $1.key })
                where descriptorIdentity(fd) == identity {
                    violate("\(label): descriptor \(fd) (\(identity)) is still open after the final disconnect")
                }
                life.descriptors.removeAll()
            }
        }
        reportIfInTest()
    }

    /// The test uses `socket` again after its final disconnect (accept or connect once more).
    package func restarted(_ socket: AnyObject) {
        lock.withLock {
            if let life = lives[ObjectIdentifier(socket)], life.socket === socket {
                life.finished = false
                life.errorClosed = false
            }
        }
    }

    /// Remembers which kernel socket `fd` is while `socket` uses it.
    package func track(_ fd: Int32, of socket: AnyObject, label: String) {
        guard fd >= 0, let identity = descriptorIdentity(fd) else { return }
        track([fd: identity], of: socket, label: label)
    }

    /// Notes descriptors of `socket` with what each named when read. A socket whose descriptors may
    /// close meanwhile (another thread's) must have them read together with its state: a number read
    /// after the close may already name another test's socket.
    package func track(_ identities: [Int32: String], of socket: AnyObject, label: String) {
        // A descriptor already closed (or left on /dev/null by SafeClose) names no socket.
        let sockets = identities.filter { $0.key >= 0 && $0.value.hasPrefix("socket:") }
        guard !sockets.isEmpty else { return }
        lock.withLock { currentLife(socket, label: label).descriptors.merge(sockets) { $1 } }
    }

    /// Notes bytes handed to the application (a completed read, or unreadData at an error close).
    package func delivered(_ bytes: Data, to socket: AnyObject, label: String) {
        lock.withLock { currentLife(socket, label: label).delivered += bytes }
    }

    /// All bytes delivered to the socket labelled `label` (reads then unreadData, in order).
    package func deliveredBytes(_ label: String) -> [UInt8] {
        lock.withLock {
            (retired + lives.values).filter { $0.label == label }.flatMap(\.delivered)
        }
    }

    /// Checks byte accounting: what the peer `sent` equals what `label` was delivered, except for
    /// the last `dropped` bytes, which the test discarded on purpose (e.g. by disconnecting).
    package func checkBytes(
        _ label: String, sent: some Collection<UInt8>, dropped: Int = 0,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        let delivered = deliveredBytes(label)
        let expected = Array(sent.dropLast(dropped))
        guard delivered != expected else { return }
        let common = zip(delivered, expected).prefix { $0 == $1 }.count
        let message =
            "\(label): \(delivered.count) bytes delivered, \(expected.count) expected (\(sent.count) sent, "
            + "\(dropped) dropped); they first differ at byte \(common)"
        Issue.record(Comment(rawValue: message), sourceLocation: sourceLocation)
    }

    /// Checks that `label` reported exactly one final disconnect in its current life.
    package func checkClosed(_ label: String, sourceLocation: SourceLocation = #_sourceLocation) {
        let finished = lock.withLock { lives.values.first { $0.label == label }?.finished }
        if finished != true {
            Issue.record("\(label): no final disconnect was reported", sourceLocation: sourceLocation)
        }
    }

    /// Reports violations not yet reported, when called from a test's task.
    package func reportIfInTest() {
        guard reportsIssues, Test.current != nil else { return }
        let messages = lock.withLock { () -> [String] in
            defer { unreported.removeAll() }
            return unreported
        }
        for message in messages {
            Issue.record(Comment(rawValue: message))
        }
    }

    private func violate(_ message: String) {
        unreported.append(message)
        allViolations.append(message)
    }

    private func currentLife(_ socket: AnyObject, label: String) -> Life {
        let id = ObjectIdentifier(socket)
        if let life = lives[id], life.socket === socket {
            if label != "?" { life.label = label }
            return life
        }
        // A new socket (possibly at the address of one that is gone).
        if let old = lives[id] { retired.append(old) }
        let life = Life(socket: socket, label: label)
        lives[id] = life
        return life
    }
}

/// What descriptor `fd` of this process refers to (e.g. "socket:[12345]"), or nil when closed.
package func descriptorIdentity(_ fd: Int32) -> String? {
    var buffer = [CChar](repeating: 0, count: 256)
    let n = readlink("/proc/self/fd/\(fd)", &buffer, buffer.count - 1)
    guard n > 0 else { return nil }
    return String(decoding: buffer[0..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self)
}
