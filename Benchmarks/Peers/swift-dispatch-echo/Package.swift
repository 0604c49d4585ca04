// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "swift-dispatch-echo",
    targets: [
        .executableTarget(name: "DispatchEchoServer")
    ],
    swiftLanguageModes: [.v6]
)
