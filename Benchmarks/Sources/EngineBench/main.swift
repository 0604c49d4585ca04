// The engine alone, no I/O: separator search cost against chunking, and lines per second.
//
//   swift run -c release --package-path Benchmarks EngineBench
import AsyncSocketCore
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
        _ = engine.dequeueRead()
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
            _ = engine.dequeueRead()
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
