// Allocations and time per echoed line, per ping-pong round trip, per 64 KiB echoed, per short
// connection and per echoed datagram, counted by package-benchmark's
// malloc interposer (every thread of the process: the loop, the socket queues, Dispatch's own). The
// echo servers run in this process with the same delegates as the echo server executables
// (EchoServers); the client is a plain blocking socket that writes and reads preallocated buffers, so
// it allocates nothing while measured. One measured iteration is 1,000 operations (scaling factor kilo):
// the printed figures are per operation.
//
//   swift package --package-path Benchmarks benchmark --target Allocations
import AsyncSocketKit
import Benchmark
import EchoServers
import Foundation

let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: [.mallocCountTotal, .wallClock],
        warmupIterations: 2,
        scalingFactor: .kilo,
        maxDuration: .seconds(3),
        maxIterations: 50
    )
    for engine in RunLoopSocket.Engine.allCases {
        Benchmark("datagram echo (64 B): RunLoopUdpSocket, \(engine) engine") { benchmark, client in
            client.echo(benchmark.scaledIterations.count)
        } setup: {
            DatagramClient(port: startUdpEcho(engine: engine), size: 64)
        }
    }
    Benchmark("datagram echo (64 B): QueueUdpSocket") { benchmark, client in
        client.echo(benchmark.scaledIterations.count)
    } setup: {
        let echo = startQueueUdpEcho()
        return DatagramClient(port: echo.port, size: 64, keeping: echo.kept)
    }
    for kind in EchoServerKind.allCases {
        Benchmark("lines (32 B, read to LF, write back): \(kind.rawValue)") { benchmark, client in
            client.echoLines(benchmark.scaledIterations.count)
        } setup: {
            EchoClient(port: kind.start(lines: true), lineLength: 32)
        }
        Benchmark("ping-pong (64 B): \(kind.rawValue)") { benchmark, client in
            client.pingPong(benchmark.scaledIterations.count)
        } setup: {
            EchoClient(port: kind.start(lines: false), lineLength: 64)
        }
        Benchmark("bulk (64 KiB there and back): \(kind.rawValue)") { benchmark, client in
            client.pingPong(benchmark.scaledIterations.count)
        } setup: {
            EchoClient(port: kind.start(lines: false), lineLength: 64 << 10, copies: 1)
        }
        // Fewer iterations: each one leaves 1,000 client ports in TIME_WAIT.
        Benchmark(
            "accept+echo (connect, 1 B there and back, close): \(kind.rawValue)",
            configuration: .init(warmupIterations: 1, maxIterations: 5)
        ) { benchmark, port in
            for _ in benchmark.scaledIterations {
                connectEchoClose(port: port)
            }
        } setup: {
            kind.start(lines: false)
        }
    }
}
