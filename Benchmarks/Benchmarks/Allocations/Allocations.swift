// Allocations and time per echoed line and per ping-pong round trip, counted by package-benchmark's
// malloc interposer (every thread of the process: the loop, the socket queues, Dispatch's own). The
// echo servers run in this process with the same delegates as the echo server executables
// (EchoServers); the client is a plain blocking socket that writes and reads preallocated buffers, so
// it allocates nothing while measured. One measured iteration is 1,000 lines or 1,000 round trips
// (scaling factor kilo): the printed figures are per line and per round trip.
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
    }
}
