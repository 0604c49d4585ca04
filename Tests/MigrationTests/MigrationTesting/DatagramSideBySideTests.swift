import AsyncSocketKit
import Foundation
import MigrationTesting
import Testing

/// A UDP echo on RunLoopUdpSocket (one receive queued at a time) that answers each datagram with
/// `transform` of it, bound to a free port of 127.0.0.1 and announced to the run.
private final class LegacyDatagramEcho: RunLoopUdpSocketDelegate {
    let transform: @Sendable (Data) -> Data

    init(_ transform: @escaping @Sendable (Data) -> Data) {
        self.transform = transform
    }

    func onUdpSocket(
        _ sock: RunLoopUdpSocket, didReceive data: Data, withTag tag: Int, fromHost host: String, port: UInt16
    ) -> Bool {
        sock.send(transform(data), toHost: host, port: port, withTimeout: 5, tag: tag)
        sock.receive(withTimeout: -1, tag: tag + 1)
        return true
    }

    static func start(_ run: LegacyRun, _ transform: @escaping @Sendable (Data) -> Data = { $0 }) throws {
        let echo = LegacyDatagramEcho(transform)
        let socket = RunLoopUdpSocket(delegate: echo, families: .ipv4Only, engine: run.engine)
        run.trace(socket, label: "echo")
        try socket.bind(toAddress: "127.0.0.1", port: 0)
        socket.receive(withTimeout: -1, tag: 1)
        run.keep(echo)
        run.keep(socket)
        run.listening(on: socket.localPort)
    }
}

/// The same echo on QueueUdpSocket (continuous receiving), each answer tagged with its number.
private final class QueueDatagramEcho: QueueUdpSocketDelegate, @unchecked Sendable {
    // @unchecked Sendable: `count` is touched on the delegate queue only.
    let queue = DispatchQueue(label: "QueueDatagramEcho")
    let transform: @Sendable (Data) -> Data
    private var count = 0

    init(_ transform: @escaping @Sendable (Data) -> Data) {
        self.transform = transform
    }

    func udpSocket(
        _ sock: QueueUdpSocket, didReceive data: Data, fromAddress address: Data,
        withFilterContext filterContext: (any Sendable)?
    ) {
        count += 1
        sock.send(transform(data), toAddress: address, withTimeout: 5, tag: count)
    }

    static func start(_ run: ModernRun, _ transform: @escaping @Sendable (Data) -> Data = { $0 }) throws {
        let echo = QueueDatagramEcho(transform)
        let socket = QueueUdpSocket(delegate: echo, delegateQueue: echo.queue)
        run.trace(socket, label: "echo")
        try socket.bind(toPort: 0, interface: "127.0.0.1")
        try socket.beginReceiving()
        run.keep(echo)
        run.keep(socket)
        run.listening(on: socket.localPort)
    }
}

@Suite("MigrationTesting: UDP programs side by side with a scripted datagram peer")
struct DatagramSideBySideTests {
    static let pingPong = DatagramScript([.send("ping"), .expect("ping"), .send("two"), .expect("two")])

    @Test("a RunLoopUdpSocket echo and its QueueUdpSocket port: equivalent, every datagram in the traces")
    func echoPortIsEquivalent() {
        let report = DatagramSideBySideRunner(script: Self.pingPong).run(
            legacy: { try LegacyDatagramEcho.start($0) }, modern: { try QueueDatagramEcho.start($0) })
        #expect(report.isEquivalent, "\(report)")
        for outcome in report.outcomes {
            #expect(outcome.problems.isEmpty, "\(outcome.problems)")
            #expect(outcome.peer?.datagrams == [Data("ping".utf8), Data("two".utf8)])
            #expect(outcome.peer?.completedSteps == 4)
            let events = outcome.trace.map(\.description)
            #expect(events.contains(#"echo: datagramReceived("ping")"#), "\(events)")
            #expect(events.filter { $0.hasPrefix("echo: datagramSent") }.count == 2, "\(events)")
            #expect(events.last == "echo: disconnected(byUser)", "\(events)")
        }
    }

    @Test("the legacy code on both engines: equivalent")
    func bothEngines() {
        let report = DatagramSideBySideRunner(script: Self.pingPong).run([
            .legacy(engine: .native) { try LegacyDatagramEcho.start($0) },
            .legacy(engine: .queueCore) { try LegacyDatagramEcho.start($0) },
        ])
        #expect(report.isEquivalent, "\(report)")
        #expect(report.outcomes.count == 2)
    }

    @Test("a port that answers with other bytes: the peer's script fails on its side, the step named")
    func differentAnswer() {
        let report = DatagramSideBySideRunner(script: Self.pingPong).run(
            legacy: { try LegacyDatagramEcho.start($0) },
            modern: { try QueueDatagramEcho.start($0) { Data($0.reversed()) } })
        #expect(report.divergences.map(\.kind) == [.peerScript])
        #expect("\(report)".contains(#"QueueUdpSocket: step 2 (expect "ping"): received "gnip""#), "\(report)")
    }

    @Test("answers that no expectation checks: the runs are compared datagram by datagram, the first difference named")
    func differentDatagrams() {
        let script = DatagramScript([.send("one"), .receive, .send("two"), .receive])
        let report = DatagramSideBySideRunner(script: script).run(
            legacy: { try LegacyDatagramEcho.start($0) },
            modern: { try QueueDatagramEcho.start($0) { $0 == Data("two".utf8) ? Data("TWO".utf8) : $0 } })
        #expect(report.divergences.map(\.kind) == [.peerDatagrams(index: 1)], "\(report)")
        #expect("\(report)".contains(#"QueueUdpSocket: "TWO""#), "\(report)")
        #expect(report.outcomes.allSatisfy { $0.peer?.failure == nil })
    }

    @Test("the program speaks first: the peer answers to where the datagram came from")
    func programSendsFirst() {
        let script = DatagramScript([.expect("hello"), .send("world"), .expect("world")])
        let report = DatagramSideBySideRunner(script: script).run(
            legacy: { run in
                let echo = LegacyDatagramEcho { $0 }
                let socket = RunLoopUdpSocket(delegate: echo, families: .ipv4Only, engine: run.engine)
                run.trace(socket, label: "client")
                #expect(
                    socket.send(
                        Data("hello".utf8), toHost: "127.0.0.1", port: run.peerPort ?? 0, withTimeout: 5, tag: 7))
                socket.receive(withTimeout: 5, tag: 1)
                run.keep(echo)
                run.keep(socket)
            },
            modern: { run in
                let echo = QueueDatagramEcho { $0 }
                let socket = QueueUdpSocket(delegate: echo, delegateQueue: echo.queue)
                run.trace(socket, label: "client")
                socket.send(Data("hello".utf8), toHost: "127.0.0.1", port: run.peerPort ?? 0, withTimeout: 5, tag: 7)
                try socket.receiveOnce()
                run.keep(echo)
                run.keep(socket)
            })
        for outcome in report.outcomes {
            #expect(outcome.peer?.failure == nil, "\(outcome.name): \(outcome.peer?.failure ?? "")")
            #expect(outcome.trace.map(\.description).contains(#"client: datagramReceived("world")"#))
        }
        #expect(report.isEquivalent, "\(report)")
    }

    @Test("a peer with nowhere to send: the script fails at once, not at the deadline")
    func nowhereToSend() {
        let script = DatagramScript([.send("anyone?")])
        let report = DatagramSideBySideRunner(script: script, timeout: 10).run(
            legacy: { _ in }, modern: { _ in })
        for outcome in report.outcomes {
            #expect(outcome.peer?.failure?.contains("nowhere to send") == true, "\(outcome)")
        }
        #expect(report.isEquivalent)
    }
}
