import Foundation
import SocketTestSupport
import Testing

@Suite("Examples/ModalRunDemo, run as a program")
struct ModalRunDemoExampleTests {
    @Test("the default mode freezes during the modal run, the common-mode clock does not, nothing is lost")
    func modalRun() async throws {
        try await onNewThread {
            let started = now()
            let demo = try ChildProcess(built: "ModalRunDemo", [])
            #expect(demo.waitForExit() == 0)
            #expect(now() - started < wallClockBound(5))
            // Each line: "<ms> ms  [who] text"; keep "[who] text".
            let lines = demo.output.split(separator: "\n").map { line in
                line.firstIndex(of: "[").map { String(line[$0...]) } ?? String(line)
            }
            let opens = try #require(lines.firstIndex { $0.hasPrefix("[modal] dialog opens") })
            let closes = try #require(lines.firstIndex { $0.hasPrefix("[modal] dialog closed") })
            #expect(opens < closes)
            let during = lines[(opens + 1)..<closes]
            #expect(
                !during.contains { $0.hasPrefix("[default]") }, "default mode ran during the dialog:\n\(demo.output)")
            #expect(during.contains { $0.hasPrefix("[common] clock") && $0.hasSuffix("com.example.modal-dialog") })
            #expect(during.contains("[modal] the dialog's timer fires: the user clicked OK"))
            let pingSent = try #require(lines.firstIndex(of: "[default] client sends \"ping 3\""))
            let pingEchoed = try #require(lines.firstIndex(of: "[default] client got the echo \"ping 3\""))
            #expect(pingSent < opens)
            #expect(pingEchoed > closes)
            #expect(lines.firstIndex(of: "[default] tick 4").map { $0 > closes } == true)
            #expect(lines.filter { $0.hasPrefix("[default] tick") }.count == 6)
            #expect(lines.last == "[main] done")
        }
    }
}
