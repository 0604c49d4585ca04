// swift-tools-version:6.1
import PackageDescription

/// The runnable samples in Examples/, one executable target each.
let examples = [
    "EchoServer", "QueueEchoServer", "ThreadPoolServer", "LineClient", "HTTPGetClient", "StartTLSPair", "ModalRunDemo",
    "KeepAliveTimer", "HostLookup", "PrivateCATLS", "UdpEchoServer", "QueueUdpEchoServer", "LanDiscovery",
    "AsyncEchoServer",
]

/// The fuzz targets' logic is a product only for Tests/Fuzz/ (a separate package built with libFuzzer),
/// whose build.sh sets ASYNCSOCKETKIT_FUZZ_TARGETS=1; it is not part of the package's public products.
let fuzzTargetsProduct: [Product] =
    Context.environment["ASYNCSOCKETKIT_FUZZ_TARGETS"] == "1"
    ? [.library(name: "FuzzTargets", targets: ["FuzzTargets"])] : []

// No Apple platform is declared: the package builds on Linux only (glibc; recvmmsg, UDP_GRO, eventfd).
let package = Package(
    name: "AsyncSocketKit",
    products: [
        .library(name: "AsyncSocketKit", targets: ["AsyncSocketKit"]),
        .library(name: "MigrationTesting", targets: ["MigrationTesting"]),
        .library(name: "AsyncSocketTesting", targets: ["AsyncSocketTesting"]),
        // A server on any face as a swift-service-lifecycle Service (graceful shutdown on SIGTERM);
        // its own product, so AsyncSocketKit alone does not depend on swift-service-lifecycle.
        .library(name: "AsyncSocketServiceLifecycle", targets: ["AsyncSocketServiceLifecycle"]),
        .executable(name: "asyncsocket", targets: ["AsyncSocketCommand"]),
    ] + fuzzTargetsProduct,
    dependencies: [
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-collections", from: "1.6.0"),
        .package(url: "https://github.com/apple/swift-metrics", from: "2.13.0"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        // `swift package generate-documentation` (the DocC catalogs); a plugin, linked into no product.
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
    ],
    targets: [
        .systemLibrary(
            name: "CLibevent",
            pkgConfig: "libevent_pthreads",
            providers: [.apt(["libevent-dev"]), .brew(["libevent"])]
        ),
        .systemLibrary(
            name: "COpenSSL",
            pkgConfig: "openssl",
            providers: [.apt(["libssl-dev"]), .brew(["openssl@3"])]
        ),
        .target(name: "CAsyncSocketShims", dependencies: ["CLibevent", "COpenSSL"]),
        .target(
            name: "AsyncSocketCore",
            dependencies: [
                "CAsyncSocketShims",
                "COpenSSL",
                .product(name: "DequeModule", package: "swift-collections"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .target(
            name: "AsyncSocketKit",
            dependencies: [
                "AsyncSocketCore",
                "CLibevent",
                "CAsyncSocketShims",
                .product(name: "DequeModule", package: "swift-collections"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "CoreMetrics", package: "swift-metrics"),
            ]
        ),
        .target(name: "MigrationTesting", dependencies: ["AsyncSocketKit", "AsyncSocketCore"]),
        .target(
            name: "AsyncSocketServiceLifecycle",
            dependencies: [
                "AsyncSocketKit", "AsyncSocketCore",
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .target(name: "EngineTestSupport", dependencies: ["AsyncSocketCore", "AsyncSocketKit"]),
        .target(
            name: "AsyncSocketTesting",
            dependencies: [
                "AsyncSocketCore", "AsyncSocketKit", "EngineTestSupport",
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .target(name: "FuzzTargets", dependencies: ["AsyncSocketCore", "COpenSSL", "EngineTestSupport"]),
        .target(name: "MigrationScanner"),
        // The engine alone, timed and its allocations counted: it needs the engine's package-only API,
        // so it lives in this package (the other benchmarks, with their peers, in Benchmarks/).
        .target(name: "CMallocCounter", path: "Benchmarks/Engine/CMallocCounter"),
        .executableTarget(
            name: "EngineBench", dependencies: ["AsyncSocketCore", "CMallocCounter"],
            path: "Benchmarks/Engine/EngineBench"),
        .target(
            name: "MigrationExample",
            dependencies: ["AsyncSocketKit"],
            path: "Migration/Example/Swift"
        ),
        .executableTarget(
            name: "AsyncSocketCommand",
            dependencies: [
                "AsyncSocketKit",
                "AsyncSocketCore",
                "MigrationScanner",
                "MigrationTesting",
                "MigrationExample",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
    ]
        + examples.map { name in
            .executableTarget(
                name: name, dependencies: ["AsyncSocketKit"], path: "Examples/\(name)", exclude: ["README.md"])
        }
        + [
            // The graceful-shutdown example (with metrics): it needs the lifecycle product and
            // swift-metrics besides AsyncSocketKit.
            .executableTarget(
                name: "GracefulEchoServer",
                dependencies: [
                    "AsyncSocketKit", "AsyncSocketServiceLifecycle",
                    .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                    .product(name: "Logging", package: "swift-log"),
                    .product(name: "CoreMetrics", package: "swift-metrics"),
                ],
                path: "Examples/GracefulEchoServer", exclude: ["README.md"]),
            // A program the fault tests start as a fresh process: a dispatch timer armed when no
            // descriptor is left (see its main.swift).
            .executableTarget(
                name: "TimerWithoutDescriptorsProbe", dependencies: ["AsyncSocketKit"],
                path: "Tests/Probes/TimerWithoutDescriptorsProbe"),
            // A program the fault tests run in a network namespace whose loopback holds datagrams back, to
            // reach UDP send timeouts (see its main.swift).
            .executableTarget(
                name: "UdpSendTimeoutProbe", dependencies: ["AsyncSocketKit"],
                path: "Tests/Probes/UdpSendTimeoutProbe"),
            // Helpers and fixtures the test targets share (recorders, raw peers, the socket auditor,
            // TLS fixtures); its API is `package`, for the test targets of this package only.
            .target(
                name: "SocketTestSupport",
                dependencies: [
                    "AsyncSocketKit", "AsyncSocketCore", "CAsyncSocketShims",
                    .product(name: "Logging", package: "swift-log"),
                ],
                path: "Tests/SocketTestSupport"
            ),
            // The I/O-free engine and rules: the harness, the property test, fuzz-corpus replay.
            .testTarget(
                name: "RulesTests",
                dependencies: [
                    "AsyncSocketCore", "AsyncSocketKit", "AsyncSocketTesting", "EngineTestSupport", "FuzzTargets",
                    "SocketTestSupport",
                ]
            ),
            .testTarget(
                name: "RunLoopTests",
                dependencies: ["AsyncSocketKit", "AsyncSocketCore", "SocketTestSupport"]
            ),
            // Both socket faces over real descriptors: legacy and queue sockets, delegates, lookups,
            // bad input, error descriptions.
            .testTarget(
                name: "SocketTests",
                dependencies: [
                    "AsyncSocketKit", "AsyncSocketCore", "CLibevent", "COpenSSL", "SocketTestSupport",
                    .product(name: "MetricsTestKit", package: "swift-metrics"),
                ]
            ),
            .testTarget(
                name: "TLSTests",
                dependencies: [
                    "AsyncSocketKit", "AsyncSocketCore", "SocketTestSupport",
                    .product(name: "Logging", package: "swift-log"),
                    .product(name: "MetricsTestKit", package: "swift-metrics"),
                ]
            ),
            .testTarget(
                name: "MigrationTests",
                dependencies: [
                    "AsyncSocketKit", "MigrationScanner", "MigrationTesting", "MigrationExample", "SocketTestSupport",
                    // Built first, so the migrate-scan test can run the asyncsocket program.
                    "AsyncSocketCommand",
                ]
            ),
            // SocketServerService (the AsyncSocketServiceLifecycle product) on every face, over loopback.
            .testTarget(
                name: "LifecycleTests",
                dependencies: [
                    "AsyncSocketKit", "AsyncSocketServiceLifecycle", "SocketTestSupport",
                    .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                    .product(name: "ServiceLifecycleTestKit", package: "swift-service-lifecycle"),
                ]
            ),
            .testTarget(
                name: "LoadFaultTests",
                dependencies: ["AsyncSocketKit", "SocketTestSupport"]
            ),
            .testTarget(
                name: "ProgramTests",
                dependencies: ["SocketTestSupport"]
                    // Built first, so the tests in Examples/ and Command/ can run them.
                    + ["AsyncSocketCommand", "GracefulEchoServer"] + examples.map { .target(name: $0) }
            ),
        ],
    swiftLanguageModes: [.v6]
)
