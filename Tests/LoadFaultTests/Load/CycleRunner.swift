import AsyncSocketKit
import Foundation
import SocketTestSupport

/// Connect/transfer/disconnect cycles against a LoadEchoServer on the same loop, run in a child
/// process so its descriptor count and resident size are this work's alone. `lanes` cycles run at
/// a time; in each, a RunLoopSocket client connects, writes `payload` bytes of its pattern, reads
/// them back and checks them; the server's child closes after echoing (so TIME_WAIT stays on the
/// server's side and the client's ports are never exhausted); the client sees the clean remote
/// close (willDisconnect(nil), didDisconnect), and the next cycle starts.
final class CycleRunner: RunLoopSocketDelegate, @unchecked Sendable {
    struct Report: Codable, Sendable {
        var cycles = 0
        var bytesVerified = 0
        var descriptorsBefore = 0
        var descriptorsAfter = 0
        var residentAfterWarmUp = 0
        var residentAtEnd = 0
        var seconds: Double = 0
        var problems: [String] = []
    }

    let payload = 1024
    private let total: Int
    private let lanes: Int
    private let warmUp: Int
    private let address: Data
    private var started = 0
    private var clients: [Int: RunLoopSocket] = [:]
    private var verified: Set<Int> = []
    private(set) var report = Report()

    private let engine: RunLoopSocket.Engine

    init(port: UInt16, cycles: Int, engine: RunLoopSocket.Engine, lanes: Int = 8) {
        total = cycles
        self.engine = engine
        self.lanes = lanes
        warmUp = max(cycles / 10, min(cycles, 500))
        address = loopbackAddress(port: port)
    }

    var isDone: Bool { report.cycles == total || report.problems.count > 20 }

    /// Starts the first cycles (on the loop thread).
    func start() {
        for _ in 0..<lanes {
            startNext()
        }
    }

    private func startNext() {
        guard started < total else { return }
        started += 1
        let client = RunLoopSocket(delegate: self, userData: started, engine: engine)
        clients[started] = client
        do {
            try client.connectToAddress(address, withTimeout: 10)
        } catch {
            report.problems.append("cycle \(started): connect failed: \(error)")
        }
    }

    private func problem(_ sock: RunLoopSocket, _ text: String) {
        report.problems.append("cycle \(sock.userData): \(text)")
    }

    func onSocket(_ sock: RunLoopSocket, didConnectToHost host: String, port: UInt16) {
        if clients[sock.userData] == nil { problem(sock, "didConnect after the final disconnect") }
        let bytes = (0..<payload).map { LoadClient.patternByte(sock.userData, $0) }
        sock.write(Data(bytes), withTimeout: 10, tag: 1)
        sock.readData(toLength: payload, withTimeout: 10, tag: 2)
    }

    func onSocket(_ sock: RunLoopSocket, didRead data: Data, withTag tag: Int) {
        if clients[sock.userData] == nil { problem(sock, "didRead after the final disconnect") }
        guard data.elementsEqual((0..<payload).map { LoadClient.patternByte(sock.userData, $0) }) else {
            problem(sock, "the echo differs")
            return
        }
        report.bytesVerified += data.count
        verified.insert(sock.userData)
    }

    func onSocket(_ sock: RunLoopSocket, willDisconnectWithError error: (any Error)?) {
        if clients[sock.userData] == nil { problem(sock, "willDisconnect after the final disconnect") }
        if let error { problem(sock, "error close: \(error)") }
    }

    func onSocketDidDisconnect(_ sock: RunLoopSocket) {
        // Only sockets still live are in `clients` (memory stays flat over any number of cycles).
        guard clients.removeValue(forKey: sock.userData) != nil else {
            problem(sock, "a second final disconnect")
            return
        }
        if verified.remove(sock.userData) == nil { problem(sock, "closed before its echo was verified") }
        report.cycles += 1
        if report.cycles == warmUp {
            report.residentAfterWarmUp = residentBytes()
        }
        startNext()
    }
}

/// Every descriptor this process has open.
func allDescriptorCount() -> Int {
    ((try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []).count
}
