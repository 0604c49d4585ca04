import Foundation
import SocketTestSupport
import Testing

// A UDP send times out only when the kernel has no room for it, which loopback never causes. The probe
// (Tests/Probes/UdpSendTimeoutProbe) runs in a user and network namespace of its own (`unshare -rn`)
// whose loopback has a token-bucket qdisc at 1 Mbit/s: the datagrams wait there holding the socket's send
// buffer until a send finds no room (the probe's header says why they go to a socket that never reads). Each face must report the send that waited too long with its
// original's timeout error, after at least the timeout, and stay open (Migration/README.md: a failed
// send is reported, the socket is not closed).
@Suite("Faults: UDP send timeouts, in a network namespace whose loopback holds datagrams back")
struct UdpSendTimeoutFaultTests {
    static let namespaceScript =
        "ip link set lo mtu 1500 up && tc qdisc add dev lo root tbf rate 1mbit burst 1600 limit 10000000 && exec \"$1\""

    @Test("QueueUdpSocket and RunLoopUdpSocket on both engines: sendTimeout after the timeout, the socket open")
    func sendTimeouts() async throws {
        try await onNewThread {
            let path = try ChildProcess.builtProduct("UdpSendTimeoutProbe")
            let probe = try ChildProcess(tool: "unshare", ["-rn", "sh", "-c", Self.namespaceScript, "sh", path])
            #expect(probe.waitForExit(timeout: wallClockBound(60)) == 0, "\(probe.output)\(probe.errorOutput)")
            let lines = probe.output.split(separator: "\n").map(String.init)
            let expected = [
                ("QueueUdpSocket", "GCDAsyncUdpSocketErrorDomain 3"),
                ("RunLoopUdpSocket native", "AsyncUdpSocketErrorDomain 4"),
                ("RunLoopUdpSocket queue-core", "AsyncUdpSocketErrorDomain 4"),
            ]
            #expect(lines.count == expected.count, "\(probe.output)\(probe.errorOutput)")
            for (face, error) in expected {
                guard let line = lines.first(where: { $0.hasPrefix(face + ":") }) else {
                    Issue.record("no line for \(face): \(probe.output)\(probe.errorOutput)")
                    continue
                }
                let fields = Self.fields(of: line)
                #expect(fields?.error == error, "\(line)")
                #expect((fields?.sent ?? 0) > 10, "\(line)")
                #expect((fields?.waited ?? 0) >= 0.3, "\(line)")
                #expect(line.hasSuffix(", open"), "\(line)")
            }
        }
    }

    /// "<face>: sent N, then <domain> <code> after S s, open" → N, "<domain> <code>", S.
    static func fields(of line: String) -> (sent: Int, error: String, waited: Double)? {
        guard let sentRange = line.range(of: ": sent "), let thenRange = line.range(of: ", then "),
            let afterRange = line.range(of: " after "), let secondsRange = line.range(of: " s, ")
        else { return nil }
        guard let sent = Int(line[sentRange.upperBound..<thenRange.lowerBound]),
            let waited = Double(line[afterRange.upperBound..<secondsRange.lowerBound])
        else { return nil }
        return (sent, String(line[thenRange.upperBound..<afterRange.lowerBound]), waited)
    }
}
