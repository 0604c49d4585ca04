// swift-tools-version:6.1
import PackageDescription

// Benchmarks live in their own package so that heavy dependencies never reach the main package.
let package = Package(
    name: "AsyncSocketKitBenchmarks",
    dependencies: [
        .package(name: "AsyncSocketKit", path: "..")
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
        .executableTarget(
            name: "RunLoopEchoServer",
            dependencies: [.product(name: "AsyncSocketKit", package: "AsyncSocketKit")]
        ),
        .executableTarget(
            name: "QueueEchoServer",
            dependencies: [.product(name: "AsyncSocketKit", package: "AsyncSocketKit")]
        ),
        .executableTarget(
            name: "TLSBench",
            dependencies: [.product(name: "AsyncSocketKit", package: "AsyncSocketKit")]
        ),
    ],
    swiftLanguageModes: [.v6]
)
