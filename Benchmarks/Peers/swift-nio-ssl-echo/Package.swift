// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "swift-nio-ssl-echo",
    dependencies: [
        .package(url: "https://github.com/apple/swift-nio.git", .upToNextMinor(from: "2.101.2")),
        .package(url: "https://github.com/apple/swift-nio-ssl.git", .upToNextMinor(from: "2.37.6")),
    ],
    targets: [
        .executableTarget(
            name: "NIOSSLEchoServer",
            dependencies: [
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
            ]
        )
    ],
    swiftLanguageModes: [.v6]
)
