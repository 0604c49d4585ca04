import AsyncSocketKit
import Foundation
import MigrationTesting
import Testing

@Suite("MigrationTesting: runs that must diverge are caught, with a readable first difference")
struct SideBySideDivergenceTests {
    @Test("a port that sends other bytes: the peer's script fails on one side only")
    func differentBytesFailTheScript() {
        let script = PeerScript.server([.send("WELCOME\r\n"), .expectLine("HELLO"), .close])
        let report = SideBySideRunner(script: script, rules: StepSubjects.rules).run([
            StepSubjects.legacy([.readLine(tag: 1), .write("HELLO\r\n", tag: 2)]),
            StepSubjects.modern([.readLine(tag: 1), .write("HELO\r\n", tag: 2)]),
        ])
        #expect(!report.isEquivalent)
        #expect(report.divergences.map(\.kind) == [.peerScript])
        let text = "\(report)"
        #expect(text.contains("RunLoopSocket (native): every step completed"))
        #expect(text.contains(#"QueueSocket: step 2 (expect line "HELLO"): received "HELO\r\n""#))
    }

    @Test("bytes that differ with no expectation to fail: the first different byte is named")
    func differentBytesOnTheWire() {
        let script = PeerScript.server([.send("WELCOME\r\n"), .expectClose])
        let report = SideBySideRunner(script: script, rules: StepSubjects.rules).run([
            StepSubjects.legacy([.readLine(tag: 1), .write("LIST all\r\n", tag: 2), .disconnect]),
            StepSubjects.modern([.readLine(tag: 1), .write("LIST any\r\n", tag: 2), .disconnect]),
        ])
        #expect(report.divergences.map(\.kind) == [.peerBytes(offset: 6)])
        #expect("\(report)".contains(#"QueueSocket: …"LIST any\r\n""#))
    }

    @Test("the same bytes under another tag: the trace differs at the first read, shown in two columns")
    func differentTag() {
        let script = PeerScript.server([.send("WELCOME\r\n"), .expectLine("OK"), .close])
        let report = SideBySideRunner(script: script, rules: StepSubjects.rules).run([
            StepSubjects.legacy([.readLine(tag: 1), .write("OK\r\n", tag: 2)]),
            StepSubjects.modern([.readLine(tag: 9), .write("OK\r\n", tag: 2)]),
        ])
        #expect(report.divergences.map(\.kind) == [.trace(sequence: "client reads", index: 0)])
        let excerpt = report.divergences.first?.excerpt ?? ""
        #expect(excerpt.contains(#">  0 read(tag 1, "WELCOME\r\n") │ read(tag 9, "WELCOME\r\n")"#), "\(excerpt)")
        #expect(excerpt.hasPrefix("     RunLoopSocket (native)"))
    }

    @Test("a timeout extended on one side only")
    func differentTimeoutAnswer() {
        let script = PeerScript.server([.send("no end"), .expectClose])
        let steps: [ClientStep] = [.readLine(tag: 3, timeout: 0.1)]
        let report = SideBySideRunner(script: script, rules: StepSubjects.rules).run([
            StepSubjects.legacy(steps, timeoutExtension: 0.2), StepSubjects.modern(steps),
        ])
        #expect(report.divergences.map(\.kind) == [.trace(sequence: "client reads", index: 0)])
        let marked = "\(report)".split(separator: "\n").first { $0.hasPrefix(">") } ?? ""
        #expect(marked.hasPrefix(">  0 readTimeout(tag 3, extended) "), "\(report)")
        #expect(marked.hasSuffix("│ readTimeout(tag 3, not extended)"), "\(report)")
    }

    @Test("a modern port that stops reading never hears the peer's close (a GCD rule): the run does not finish")
    func modernPortStopsReading() {
        var script = PeerScript.server([.send("WELCOME\r\nEXTRA\r\n"), .close])
        script.drainTimeout = 0.5
        let steps: [ClientStep] = [.readLine(tag: 1)]
        // The modern run ends at the runner's deadline (the close is never heard); it has to be long
        // enough for the peer to finish its script on a loaded machine (1.5 s once was not).
        let report = SideBySideRunner(script: script, rules: StepSubjects.rules, timeout: 5).run([
            StepSubjects.legacy(steps), StepSubjects.modern(steps, keepsReading: false),
        ])
        #expect(report.divergences.map(\.kind) == [.unfinished])
        #expect("\(report)".contains("QueueSocket: a connection did not report its disconnect in time"))
        #expect(report.outcomes[0].trace.last?.event == .disconnected(.byPeer))
        #expect(report.outcomes[1].trace.last?.event == .disconnected(.byUser))
    }

    @Test("a legacy program that throws while setting up is reported, not hung on")
    func setupThrows() {
        struct Refused: Error {}
        let script = PeerScript.server([.close])
        let report = SideBySideRunner(script: script, rules: StepSubjects.rules, timeout: 2).run([
            .legacy(engine: .native) { _ in throw Refused() }, StepSubjects.modern([]),
        ])
        #expect(report.divergences.map(\.kind) == [.unfinished])
        #expect(report.outcomes[0].problems.first?.contains("the program threw") == true)
    }
}
