// The engine alone, no I/O: separator search cost against chunking, and lines per second.
//
//   swift run -c release --package-path Benchmarks EngineBench
import AsyncSocketCore
import CMallocCounter
import Foundation

/// Hands out a fixed input in chunks of at most `chunk` bytes, one chunk per read call.
final class MemoryTransport: ByteTransport {
    let input: [UInt8]
    let chunk: Int
    var position = 0
    /// Whether the next read may return bytes (cleared after each chunk: one chunk per pass).
    var armed = true

    init(input: [UInt8], chunk: Int) {
        self.input = input
        self.chunk = chunk
    }

    func read(into buffer: UnsafeMutableRawBufferPointer) -> TransportReadResult {
        guard armed, position < input.count else { return .wouldBlock }
        let count = min(chunk, buffer.count, input.count - position)
        input.withUnsafeBytes { buffer.baseAddress!.copyMemory(from: $0.baseAddress! + position, byteCount: count) }
        position += count
        armed = false
        return .bytes(count)
    }

    func write(_ bytes: UnsafeRawBufferPointer) -> TransportWriteResult { .bytes(bytes.count) }
}

func seconds(_ body: () -> Void) -> Double {
    let start = DispatchTime.now().uptimeNanoseconds
    body()
    return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
}

print("AsyncSocketCore engine benchmarks (release build)")
print("")
print("| measure | value |")
print("|---|---|")

// One 16 MiB line, fed in chunks of 1 B, 100 B and 64 KiB, to one read-to-data.
let lineLength = 16 << 20
var line = [UInt8](repeating: UInt8(ascii: "x"), count: lineLength - 2)
line += [13, 10]
let phases = CommandLine.arguments.dropFirst()
for chunk in [1, 100, 65_536] where phases.isEmpty || phases.contains("line") {
    for prebuffering in [true, false] where prebuffering || chunk == 65_536 {
        let engine = SocketEngine(configuration: .init(prebuffering: prebuffering))
        _ = engine.enqueueRead(ReadRequest(kind: .separator([13, 10], maxLength: 0), timeout: -1, tag: 0))
        _ = engine.nextRead(peerEnded: false)
        let transport = MemoryTransport(input: line, chunk: chunk)
        var delivered = 0
        var passes = 0
        let elapsed = seconds {
            while delivered == 0 {
                transport.armed = true
                let result = engine.runReadPass(transportReadable: true, transport: transport)
                passes += 1
                if let (data, _) = result.completed {
                    delivered = data.count
                }
            }
        }
        precondition(delivered == lineLength, "the line did not arrive whole")
        let ratio = Double(engine.scannedBytes) / Double(lineLength)
        print(
            "| 16 MiB line in \(chunk) B chunks, prebuffering \(prebuffering ? "on" : "off"): bytes scanned / fed, "
                + "passes, time | \(String(format: "%.4f", ratio)), \(passes), \(String(format: "%.2f", elapsed)) s |")
    }
}

// 1 M lines of 32 bytes through the engine: queue a read, run passes until it completes, repeat.
let lineCount = 1_000_000
var lines = [UInt8]()
lines.reserveCapacity(lineCount * 32)
for index in 0..<lineCount {
    let digits = String(index)
    lines += [UInt8](repeating: UInt8(ascii: "0"), count: 30 - digits.utf8.count) + Array(digits.utf8) + [13, 10]
}
for chunk in [65_536, 4_096] where phases.isEmpty || phases.contains("lines") {
    let engine = SocketEngine()
    let transport = MemoryTransport(input: lines, chunk: chunk)
    var completed = 0
    var bytes = 0
    let elapsed = seconds {
        while completed < lineCount {
            _ = engine.enqueueRead(ReadRequest(kind: .separator([13, 10], maxLength: 0), timeout: -1, tag: completed))
            _ = engine.nextRead(peerEnded: false)
            while true {
                transport.armed = true
                let result = engine.runReadPass(transportReadable: true, transport: transport)
                if let (data, _) = result.completed {
                    bytes += data.count
                    completed += 1
                    break
                }
            }
        }
    }
    precondition(bytes == lines.count, "lines were lost")
    print(
        "| 1 M 32-byte lines through the engine, \(chunk / 1024) KiB reads: lines/s | "
            + "\(Int(Double(lineCount) / elapsed)) |")
}

// Allocations (malloc-family calls, counted by CMallocCounter) per operation, averaged over many.
if phases.isEmpty || phases.contains("allocs") {
    let operations = 100_000
    func allocations(_ body: () -> Void) -> Double {
        let before = mc_allocations()
        body()
        return Double(mc_allocations() - before) / Double(operations)
    }
    func report(_ what: String, _ value: Double) {
        print("| allocations per \(what) | \(String(format: "%.2f", value)) |")
    }
    let separator: [UInt8] = [10]
    let line = [UInt8](repeating: UInt8(ascii: "x"), count: 31) + separator

    // Reads to "\n" served from the prebuffer: queueing (enqueue + dequeue) and completing (the pass).
    let lineEngine = SocketEngine()
    let lineTransport = MemoryTransport(
        input: Array([[UInt8]](repeating: line, count: operations * 2).joined()), chunk: 65_536)
    var queueing = 0.0
    var completing = 0.0
    for _ in 0..<2 {
        queueing = 0
        completing = 0
        for _ in 0..<operations {
            var before = mc_allocations()
            _ = lineEngine.enqueueRead(ReadRequest(kind: .separator(separator, maxLength: 0), timeout: -1, tag: 0))
            _ = lineEngine.nextRead(peerEnded: false)
            queueing += Double(mc_allocations() - before)
            before = mc_allocations()
            lineTransport.armed = true
            let result = lineEngine.runReadPass(transportReadable: true, transport: lineTransport)
            precondition(result.completed?.data.count == 32, "a line went missing")
            completing += Double(mc_allocations() - before)
        }
    }
    report("queued read to \"\\n\" (enqueue + dequeue)", queueing / Double(operations))
    report("completed 32-byte read to \"\\n\" from the prebuffer (pass + result Data)", completing / Double(operations))

    // Read-any of 64 bytes straight from the transport, the ping-pong case.
    let anyEngine = SocketEngine()
    let anyTransport = MemoryTransport(input: [UInt8](repeating: 7, count: 64 * operations * 2), chunk: 64)
    var anyTotal = 0.0
    for _ in 0..<2 {
        anyTotal = allocations {
            for _ in 0..<operations {
                _ = anyEngine.enqueueRead(ReadRequest(kind: .available(maxLength: 0), timeout: -1, tag: 0))
                _ = anyEngine.nextRead(peerEnded: false)
                anyTransport.armed = true
                let result = anyEngine.runReadPass(transportReadable: true, transport: anyTransport)
                precondition(result.completed?.data.count == 64, "a read went missing")
            }
        }
    }
    report("64-byte read-any from the transport (queue + pass + result Data)", anyTotal)

    // A write of 64 bytes: queue, dequeue, one write pass.
    let writeEngine = SocketEngine()
    let payload = Data(repeating: 1, count: 64)
    var writeTotal = 0.0
    for _ in 0..<2 {
        writeTotal = allocations {
            for _ in 0..<operations {
                _ = writeEngine.enqueueWrite(payload, timeout: -1, tag: 0)
                _ = writeEngine.nextWrite()
                let result = writeEngine.runWritePass(transportWritable: true, transport: anyTransport)
                precondition(result.completedTag == 0, "a write did not complete")
            }
        }
    }
    report("64-byte write (queue + pass)", writeTotal)
}
