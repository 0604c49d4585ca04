import AsyncSocketKit
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// What a ``ScriptedPeer`` went through.
public struct PeerOutcome: Sendable, Equatable {
    /// Every byte the peer received, in order (after a TLS start: the decrypted bytes).
    public var received: Data
    /// How many steps completed.
    public var completedSteps: Int
    /// Why the script stopped early, naming the step; `nil` when every step completed.
    public var failure: String?
    /// Whether the program closed the connection (end of file or reset) before the peer let go.
    public var programClosed: Bool
    /// Whether there was a connection at all.
    public var connected: Bool = true
    /// A datagram peer (``ScriptedDatagramPeer``): each datagram received, in order (``received``
    /// is their bytes one after the other).
    public var datagrams: [Data] = []
}

/// A loopback peer playing a ``PeerScript`` on a thread of its own, with blocking steps bounded by
/// deadlines: a server the program connects to, or a client connecting to the program. It records
/// everything it receives.
public final class ScriptedPeer: Sendable {

    /// Server role: the port it listens on (127.0.0.1). Client role: the port it connects to.
    public let port: UInt16
    private let result = PeerResult()

    private init(port: UInt16) {
        self.port = port
    }

    /// Starts a peer with `script`. A server listens on 127.0.0.1 at once (its ``port`` is known when
    /// this returns) and accepts one connection; a client connects to `port` on 127.0.0.1.
    public static func start(_ script: PeerScript, connectingTo port: UInt16 = 0) throws -> ScriptedPeer {
        switch script.role {
        case .server:
            let listener = try Listener()
            let peer = ScriptedPeer(port: listener.port)
            Thread.detachNewThread {
                let deadline = Date(timeIntervalSinceNow: script.stepTimeout)
                guard let connection = listener.accept(deadline: deadline) else {
                    peer.finish(
                        PeerOutcome(
                            received: Data(), completedSteps: 0, failure: "nobody connected", programClosed: false))
                    return
                }
                peer.finish(Player(script: script, connection: connection).play())
            }
            return peer
        case .client:
            let peer = ScriptedPeer(port: port)
            Thread.detachNewThread {
                guard let connection = Listener.connect(to: port, timeout: script.stepTimeout) else {
                    peer.finish(
                        PeerOutcome(
                            received: Data(), completedSteps: 0, failure: "could not connect to port \(port)",
                            programClosed: false, connected: false))
                    return
                }
                peer.finish(Player(script: script, connection: connection).play())
            }
            return peer
        }
    }

    /// The outcome, once the peer has finished.
    public var outcome: PeerOutcome? {
        result.outcome
    }

    /// Waits up to `timeout` seconds for the peer to finish; returns its outcome, or `nil` if it has
    /// not finished.
    public func waitUntilFinished(timeout: TimeInterval) -> PeerOutcome? {
        result.wait(timeout: timeout)
    }

    private func finish(_ outcome: PeerOutcome) {
        result.finish(outcome)
    }
}

/// Plays the steps of a script on one connection.
private struct Player {
    let script: PeerScript
    let connection: PeerConnection

    func play() -> PeerOutcome {
        var completed = 0
        var failure: String?
        var closed = false
        for step in script.steps {
            let deadline = Date(timeIntervalSinceNow: script.stepTimeout)
            do {
                closed = try perform(step, deadline: deadline) || closed
                completed += 1
            } catch {
                failure = "step \(completed + 1) (\(step)): \(error.message)"
                break
            }
        }
        var programClosed = connection.ended
        if failure == nil && !closed {
            connection.halfClose()
            programClosed = connection.receiveUntilEnd(deadline: Date(timeIntervalSinceNow: script.drainTimeout))
        }
        connection.close()
        return PeerOutcome(
            received: connection.received, completedSteps: completed, failure: failure, programClosed: programClosed)
    }

    /// Performs one step; returns whether it let go of the connection.
    private func perform(_ step: PeerStep, deadline: Date) throws(PeerFailure) -> Bool {
        switch step {
        case .send(let data, let chunkSizes, let gap):
            var offset = 0
            for size in chunkSizes where offset < data.count {
                let end = min(offset + max(size, 1), data.count)
                try connection.send(data[offset..<end], deadline: deadline)
                offset = end
                if gap > 0 && offset < data.count {
                    Thread.sleep(forTimeInterval: gap)
                }
            }
            if offset < data.count {
                try connection.send(data[offset...], deadline: deadline)
            }
        case .dribble(let data, let interval):
            for index in data.indices {
                try connection.send(data[index...index], deadline: deadline)
                if index < data.index(before: data.endIndex) {
                    Thread.sleep(forTimeInterval: interval)
                }
            }
        case .expect(let expected):
            let got = try connection.take(expected.count, deadline: deadline)
            guard got == expected else {
                throw PeerFailure(message: "received \(ByteText.describe(got))")
            }
        case .expectLine(let text):
            let line = try connection.takeLine(deadline: deadline)
            let content = line.dropLast(line.dropLast().last == 0x0D ? 2 : 1)
            guard content == Data(text.utf8) else {
                throw PeerFailure(message: "received \(ByteText.describe(line))")
            }
        case .expectClose:
            guard connection.receiveUntilEnd(deadline: deadline) else {
                throw PeerFailure(message: "the program did not close the connection")
            }
        case .pause(let seconds):
            connection.receive(until: Date(timeIntervalSinceNow: seconds))
        case .halfClose:
            connection.halfClose()
        case .close:
            connection.close()
            return true
        case .reset:
            connection.reset()
            return true
        case .startTLS(let settings):
            try connection.startTLS(settings, deadline: deadline)
        }
        return false
    }
}
