// swift-tools-version:6.1
import PackageDescription

// Benchmarks live in their own package so that heavy dependencies never reach the main package.
let package = Package(
    name: "AsyncSocketKitBenchmarks",
    dependencies: [
        .package(name: "AsyncSocketKit", path: ".."),
        // Allocation counts (its malloc interposer); only the Allocations benchmark links it.
        .package(url: "https://github.com/ordo-one/benchmark", from: "1.38.1", traits: ["MallocInterposer"]),
    ],
    targets: [
        .target(name: "CLibeventRaw", linkerSettings: [.linkedLibrary("event_core")]),
        .executableTarget(
            name: "RunLoopBench",
            dependencies: [
                "CLibeventRaw",
                .product(name: "AsyncSocketKit", package: "AsyncSocketKit"),
            ]
        ),
        .target(
            name: "EchoServers",
            dependencies: [.product(name: "AsyncSocketKit", package: "AsyncSocketKit")]
        ),
        .executableTarget(
            name: "RunLoopEchoServer",
            dependencies: ["EchoServers", .product(name: "AsyncSocketKit", package: "AsyncSocketKit")]
        ),
        .executableTarget(
            name: "AsyncEchoServer",
            dependencies: [.product(name: "AsyncSocketKit", package: "AsyncSocketKit")]
        ),
        .executableTarget(
            name: "QueueEchoServer",
            dependencies: ["EchoServers", .product(name: "AsyncSocketKit", package: "AsyncSocketKit")]
        ),
        .executableTarget(
            name: "Allocations",
            dependencies: [
                "EchoServers",
                .product(name: "AsyncSocketKit", package: "AsyncSocketKit"),
                .product(name: "Benchmark", package: "benchmark"),
            ],
            path: "Benchmarks/Allocations",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
        .executableTarget(
            name: "TLSBench",
            dependencies: [.product(name: "AsyncSocketKit", package: "AsyncSocketKit")]
        ),
        .executableTarget(
            name: "UdpBulkSend",
            dependencies: [.product(name: "AsyncSocketKit", package: "AsyncSocketKit")]
        ),
        .executableTarget(
            name: "UdpBulkReceive",
            dependencies: [.product(name: "AsyncSocketKit", package: "AsyncSocketKit")]
        ),
    ],
    swiftLanguageModes: [.v6]
)
