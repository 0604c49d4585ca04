// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "swift-nio-echo",
    dependencies: [
        .package(url: "https://github.com/apple/swift-nio.git", .upToNextMinor(from: "2.101.2"))
    ],
    targets: [
        .target(name: "NIOEchoLines", dependencies: [.product(name: "NIOCore", package: "swift-nio")]),
        .executableTarget(
            name: "NIOEchoServer",
            dependencies: [
                "NIOEchoLines",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
            ]
        ),
        .executableTarget(
            name: "NIOAsyncEchoServer",
            dependencies: [
                "NIOEchoLines",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
